package state

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"strings"

	"bhtop/event"
)

// chunkSize bounds the rows of one chunk of OrderRows. A snapshot copies
// its chunk index (one pointer per chunk) and the chunks it changes, so
// smaller chunks make a change cheaper and a large account's index
// longer: 128 copies about 2 kB per snapshot at 20,000 orders.
const chunkSize = 128

// orderChunk is a run of 1 to chunkSize consecutive rows. Once published
// in an OrderRows it never changes: an edit copies it first.
type orderChunk struct {
	rows []*Order
	// gen is the store edit that made the chunk, which alone may still
	// change it while the edit lasts; 0 for chunks made outside a store.
	gen uint64
}

// OrderRows is a Snapshot's orders, in the dump's order (market, then
// orderId by number), split into chunks that are shared between
// snapshots while none of their rows changed: taking a snapshot copies
// the chunk index and the changed chunks only, never every row. Like
// the rest of a Snapshot it is immutable: its methods never change it,
// and readers must not change the rows. The zero value is empty.
type OrderRows struct {
	chunks []*orderChunk
	ends   []int // ends[k]: the rows in chunks[0..k]
}

// NewOrderRows returns rows holding the given ones in the given order
// (a Store's rows are sorted; these need not be, e.g. in tests).
func NewOrderRows(rows ...*Order) OrderRows {
	return OrderRows{}.Append(rows...)
}

// Append returns rows followed by more; rows itself is unchanged.
func (r OrderRows) Append(more ...*Order) OrderRows {
	if len(more) == 0 {
		return r
	}
	chunks := append([]*orderChunk(nil), r.chunks...)
	ends := append([]int(nil), r.ends...)
	n := r.Len()
	if k := len(chunks) - 1; k >= 0 && len(chunks[k].rows) < chunkSize {
		take := min(chunkSize-len(chunks[k].rows), len(more))
		rows := append(append(make([]*Order, 0, chunkSize), chunks[k].rows...), more[:take]...)
		chunks[k] = &orderChunk{rows: rows}
		n += take
		ends[k] = n
		more = more[take:]
	}
	for len(more) > 0 {
		take := min(chunkSize, len(more))
		chunks = append(chunks, &orderChunk{rows: append(make([]*Order, 0, chunkSize), more[:take]...)})
		n += take
		ends = append(ends, n)
		more = more[take:]
	}
	return OrderRows{chunks: chunks, ends: ends}
}

// Len is the number of rows.
func (r OrderRows) Len() int {
	if len(r.ends) == 0 {
		return 0
	}
	return r.ends[len(r.ends)-1]
}

// At returns row i (0 ≤ i < Len; it panics otherwise), in O(log chunks).
func (r OrderRows) At(i int) *Order {
	if i < 0 || i >= r.Len() {
		panic(fmt.Sprintf("state.OrderRows.At: index %d out of range [0:%d]", i, r.Len()))
	}
	k, j := r.locate(i)
	return r.chunks[k].rows[j]
}

// locate returns the chunk holding row i and i's place in it.
func (r OrderRows) locate(i int) (k, j int) {
	lo, hi := 0, len(r.ends)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.ends[m] > i {
			hi = m
		} else {
			lo = m + 1
		}
	}
	if lo > 0 {
		i -= r.ends[lo-1]
	}
	return lo, i
}

// All yields each row with its index, in order.
func (r OrderRows) All() iter.Seq2[int, *Order] {
	return func(yield func(int, *Order) bool) {
		i := 0
		for _, c := range r.chunks {
			for _, o := range c.rows {
				if !yield(i, o) {
					return
				}
				i++
			}
		}
	}
}

// Slice returns rows from to to-1 in a new slice (e.g. the rows on
// screen); it panics unless 0 ≤ from ≤ to ≤ Len.
func (r OrderRows) Slice(from, to int) []*Order {
	if from < 0 || to < from || to > r.Len() {
		panic(fmt.Sprintf("state.OrderRows.Slice: [%d:%d] out of range [0:%d]", from, to, r.Len()))
	}
	out := make([]*Order, 0, to-from)
	if from == to {
		return out
	}
	k, j := r.locate(from)
	for len(out) < to-from {
		rows := r.chunks[k].rows[j:]
		out = append(out, rows[:min(len(rows), to-from-len(out))]...)
		k, j = k+1, 0
	}
	return out
}

// Find returns the row of the order (market, orderID) and its index, in
// O(log Len); nil and -1 when there is none. The rows must be sorted in
// the dump's order (a Store's are).
func (r OrderRows) Find(market, orderID string) (*Order, int) {
	m := uint8(mSpot)
	if market == MarketContract {
		m = mContract
	} else if market != MarketSpot {
		return nil, -1
	}
	k, j, found := searchChunks(r.chunks, m, orderID)
	if !found {
		return nil, -1
	}
	o := r.chunks[k].rows[j]
	if k > 0 {
		j += r.ends[k-1]
	}
	return o, j
}

// Chunks yields each chunk's first index and rows, in order. A chunk's
// rows (the same backing array) are shared by every later snapshot that
// changed none of them and added or removed none among them, so a
// reader that remembers what it made of a chunk can skip it while
// &rows[0] and len(rows) are the ones it saw. The rows are read-only.
func (r OrderRows) Chunks() iter.Seq2[int, []*Order] {
	return func(yield func(int, []*Order) bool) {
		start := 0
		for _, c := range r.chunks {
			if !yield(start, c.rows[:len(c.rows):len(c.rows)]) {
				return
			}
			start += len(c.rows)
		}
	}
}

// Same reports whether r and other are the same rows, shared: true for
// a snapshot whose orders did not change since other's (and for two
// empty ones). False says nothing: equal rows may be built apart.
func (r OrderRows) Same(other OrderRows) bool {
	if len(r.chunks) != len(other.chunks) {
		return false
	}
	return len(r.chunks) == 0 || &r.chunks[0] == &other.chunks[0]
}

// Changes yields, in order, each order whose row differs between prev
// and r: (prev's row, r's row), prev's nil for an order prev does not
// hold, r's nil for one r no longer holds. Both must be sorted in the
// dump's order (a Store's rows are). Rows and chunks shared by both
// are skipped by pointer, so after a few changes the walk costs about
// one step per chunk, not per row.
func (r OrderRows) Changes(prev OrderRows) iter.Seq2[*Order, *Order] {
	return func(yield func(*Order, *Order) bool) {
		a, b := rowCursor{rows: prev}, rowCursor{rows: r}
		for !a.done() || !b.done() {
			if a.j == 0 && b.j == 0 && !a.done() && !b.done() && a.chunk() == b.chunk() {
				a.skipChunk()
				b.skipChunk()
				continue
			}
			var x, y *Order
			switch {
			case a.done():
				y = b.next()
			case b.done():
				x = a.next()
			case a.row() == b.row():
				a.next()
				b.next()
				continue
			default:
				switch c := compareRows(a.row(), b.row()); {
				case c < 0:
					x = a.next()
				case c > 0:
					y = b.next()
				default:
					x, y = a.next(), b.next()
				}
			}
			if !yield(x, y) {
				return
			}
		}
	}
}

// rowCursor walks OrderRows chunk by chunk.
type rowCursor struct {
	rows OrderRows
	k, j int
}

func (c *rowCursor) done() bool         { return c.k >= len(c.rows.chunks) }
func (c *rowCursor) chunk() *orderChunk { return c.rows.chunks[c.k] }
func (c *rowCursor) row() *Order        { return c.rows.chunks[c.k].rows[c.j] }
func (c *rowCursor) skipChunk()         { c.k, c.j = c.k+1, 0 }
func (c *rowCursor) next() (o *Order) {
	o = c.row()
	if c.j++; c.j == len(c.rows.chunks[c.k].rows) {
		c.skipChunk()
	}
	return o
}

// compareRows orders rows as the dump does: market, then orderId by
// number.
func compareRows(a, b *Order) int {
	if c := strings.Compare(a.Market, b.Market); c != 0 {
		return c
	}
	return event.CompareIDs(a.OrderID, b.OrderID)
}

// MarshalJSON writes the rows as one JSON array (the dump's "orders"),
// exactly as a []*Order would be written.
func (r OrderRows) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(r.Len() * 400)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the caller's encoder escapes when it wants to
	buf.WriteByte('[')
	for i, o := range r.All() {
		if i > 0 {
			buf.WriteByte(',')
		}
		if err := enc.Encode(o); err != nil {
			return nil, err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// UnmarshalJSON reads a JSON array of orders (null reads as empty).
func (r *OrderRows) UnmarshalJSON(b []byte) error {
	var rows []*Order
	if err := json.Unmarshal(b, &rows); err != nil {
		return err
	}
	*r = NewOrderRows(rows...)
	return nil
}
