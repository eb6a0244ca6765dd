package state

import (
	"cmp"
	"slices"

	"bhtop/event"
)

// rowsEdit makes the next snapshot's OrderRows from the previous one's:
// rows are set, inserted and deleted by key (market, orderId), each chunk
// touched is copied once (then changed in place until the edit ends), and
// every other chunk is shared with the previous rows.
type rowsEdit struct {
	chunks  []*orderChunk
	ends    []int // the previous rows' ends, valid while !resized
	gen     uint64
	resized bool // a row was inserted or deleted: ends must be counted again
}

// edit starts an edit of r; gen must differ from every earlier edit's of
// the same rows (the snapshot's Version).
func (r OrderRows) edit(gen uint64) *rowsEdit {
	return &rowsEdit{chunks: slices.Clone(r.chunks), ends: r.ends, gen: gen}
}

// done returns the edited rows.
func (e *rowsEdit) done() OrderRows {
	if !e.resized {
		return OrderRows{chunks: e.chunks, ends: e.ends}
	}
	ends := make([]int, len(e.chunks))
	n := 0
	for k, c := range e.chunks {
		n += len(c.rows)
		ends[k] = n
	}
	return OrderRows{chunks: e.chunks, ends: ends}
}

// own returns chunk k, copied first unless this edit made it.
func (e *rowsEdit) own(k int) *orderChunk {
	c := e.chunks[k]
	if c.gen != e.gen {
		c = &orderChunk{rows: append(make([]*Order, 0, chunkSize+1), c.rows...), gen: e.gen}
		e.chunks[k] = c
	}
	return c
}

// compareKey orders row r against the key (m, id) of the dump's order.
func compareKey(r *Order, m uint8, id string) int {
	rm := uint8(mSpot)
	if r.Market == MarketContract {
		rm = mContract
	}
	if rm != m {
		return cmp.Compare(rm, m)
	}
	return event.CompareIDs(r.OrderID, id)
}

// search returns where the key (m, id) is or would be inserted: chunk k
// and place j in it (k is the last chunk when the key sorts after every
// row; k == len(chunks) only when there are none), and whether a row with
// that key is there.
func (e *rowsEdit) search(m uint8, id string) (k, j int, found bool) {
	return searchChunks(e.chunks, m, id)
}

// searchChunks is search on sorted chunks.
func searchChunks(chunks []*orderChunk, m uint8, id string) (k, j int, found bool) {
	// the first chunk whose last row is not before the key
	lo, hi := 0, len(chunks)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		rows := chunks[mid].rows
		if compareKey(rows[len(rows)-1], m, id) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == len(chunks) {
		if lo == 0 {
			return 0, 0, false
		}
		return lo - 1, len(chunks[lo-1].rows), false
	}
	rows := chunks[lo].rows
	j, found = slices.BinarySearchFunc(rows, id, func(r *Order, id string) int { return compareKey(r, m, id) })
	return lo, j, found
}

// set replaces the row of row's key, which must be there.
func (e *rowsEdit) set(m uint8, row *Order) {
	k, j, found := e.search(m, row.OrderID)
	if !found {
		panic("state: a changed order has no row") // the bookkeeping of Store is broken
	}
	e.own(k).rows[j] = row
}

// insert adds row, whose key must not be there. A full chunk splits in
// two halves, or, when the row goes after its last row, into itself and
// a new chunk of the row (so rows added in order fill their chunks).
func (e *rowsEdit) insert(m uint8, row *Order) {
	e.resized = true
	k, j, _ := e.search(m, row.OrderID)
	if k == len(e.chunks) {
		e.chunks = append(e.chunks, &orderChunk{rows: append(make([]*Order, 0, chunkSize+1), row), gen: e.gen})
		return
	}
	c := e.own(k)
	if len(c.rows) < chunkSize {
		c.rows = slices.Insert(c.rows, j, row)
		return
	}
	if j == len(c.rows) {
		e.chunks = slices.Insert(e.chunks, k+1, &orderChunk{rows: append(make([]*Order, 0, chunkSize+1), row), gen: e.gen})
		return
	}
	c.rows = slices.Insert(c.rows, j, row)
	half := len(c.rows) / 2
	next := &orderChunk{rows: append(make([]*Order, 0, chunkSize+1), c.rows[half:]...), gen: e.gen}
	clear(c.rows[half:])
	c.rows = c.rows[:half]
	e.chunks = slices.Insert(e.chunks, k+1, next)
}

// delete removes the row of the key (m, id) if there is one. An emptied
// chunk goes; a chunk left under a quarter full joins a neighbour that
// has room for it, so the index stays short.
func (e *rowsEdit) delete(m uint8, id string) {
	k, j, found := e.search(m, id)
	if !found {
		return
	}
	e.resized = true
	c := e.own(k)
	c.rows = slices.Delete(c.rows, j, j+1)
	switch {
	case len(c.rows) == 0:
		e.chunks = slices.Delete(e.chunks, k, k+1)
	case len(c.rows) < chunkSize/4:
		if k+1 < len(e.chunks) && len(c.rows)+len(e.chunks[k+1].rows) <= chunkSize {
			c.rows = append(c.rows, e.chunks[k+1].rows...)
			e.chunks = slices.Delete(e.chunks, k+1, k+2)
		} else if k > 0 && len(c.rows)+len(e.chunks[k-1].rows) <= chunkSize {
			p := e.own(k - 1)
			p.rows = append(p.rows, c.rows...)
			e.chunks = slices.Delete(e.chunks, k, k+1)
		}
	}
}

// packedRows returns rows holding sorted, in full chunks (for a rebuild).
func packedRows(sorted []*Order, gen uint64) OrderRows {
	r := OrderRows{chunks: make([]*orderChunk, 0, (len(sorted)+chunkSize-1)/chunkSize)}
	for len(sorted) > 0 {
		take := min(chunkSize, len(sorted))
		r.chunks = append(r.chunks, &orderChunk{rows: sorted[:take:take], gen: gen})
		r.ends = append(r.ends, r.Len()+take)
		sorted = sorted[take:]
	}
	return r
}
