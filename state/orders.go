package state

import (
	"bhtop/event"
)

// Market indexes, in the dump's sort order ("contract" < "spot").
const (
	mContract = 0
	mSpot     = 1
)

var marketNames = [2]string{MarketContract, MarketSpot}

// market holds one market's orders and the tombstones of dropped ones.
type market struct {
	orders   map[string]*order // by orderId, exact text
	tomb     map[string]tomb
	tombRing []tombEntry
	tombNext int
	tombSeq  uint64
}

type tomb struct {
	e   int64  // last E of the dropped order
	seq uint64 // which ring entry owns it
}

type tombEntry struct {
	id  string
	seq uint64
}

// order is one order as last applied. The cumulative quantities change
// with every fill, so they live in buffers reused in place; the other
// fields are replaced only when their text changes. row caches the
// materialized read-model row; nil when the order changed since.
type order struct {
	mkt                            uint8
	id                             string
	symbol, client, side, typ, tif string
	price, qty, status, leverage   string
	z, cumQuote                    []byte
	working, maker, close          bool
	created, updated               int64
	rank                           uint8
	open                           bool
	inClosed, removed              bool
	prevClosed, nextClosed         *order
	row                            *Order
}

// rank orders statuses: NEW < PARTIALLY_FILLED < everything else.
func rank(status []byte) uint8 {
	switch string(status) {
	case "NEW":
		return 0
	case "PARTIALLY_FILLED":
		return 1
	}
	return 2
}

// internStatus returns the status text, without allocating for the
// statuses of SPEC.md.
func internStatus(b []byte) string {
	switch string(b) {
	case "NEW":
		return "NEW"
	case "PARTIALLY_FILLED":
		return "PARTIALLY_FILLED"
	case "FILLED":
		return "FILLED"
	case "CANCELED":
		return "CANCELED"
	case "REJECTED":
		return "REJECTED"
	}
	return string(b)
}

// newer reports whether update x goes after the order's current state:
// a greater E, or an equal E and a greater (status rank, z).
func (o *order) newer(x *event.ExecView, r uint8) bool {
	switch {
	case x.EventTime != o.updated:
		return x.EventTime > o.updated
	case r != o.rank:
		return r > o.rank
	}
	return event.CompareDecimal(x.CumQty, o.z) > 0
}

// applyOrder folds one order update into market m and reports whether the
// ordering rules accepted it. keepMaker keeps the known maker flag (REST
// records do not carry one).
func (s *Store) applyOrder(m uint8, x *event.ExecView, keepMaker bool) bool {
	mk := &s.markets[m]
	r := rank(x.Status)
	o := mk.orders[string(x.OrderID)]
	if o == nil {
		if len(mk.tomb) > 0 {
			if t, ok := mk.tomb[string(x.OrderID)]; ok {
				if x.EventTime <= t.e {
					return false // a late update of a dropped order: never a phantom
				}
				delete(mk.tomb, string(x.OrderID))
			}
		}
		o = &order{mkt: m, id: string(x.OrderID)}
		mk.orders[o.id] = o
		s.added = append(s.added, o)
		keepMaker = false
	} else if !o.newer(x, r) {
		return false
	}
	setStr(&o.symbol, x.Symbol)
	setStr(&o.client, x.ClientOrderID)
	setStr(&o.side, x.Side)
	setStr(&o.typ, x.Type)
	setStr(&o.tif, x.TimeInForce)
	setStr(&o.price, x.Price)
	setStr(&o.qty, x.Quantity)
	if o.status != string(x.Status) {
		o.status = internStatus(x.Status)
	}
	o.z = append(o.z[:0], x.CumQty...)
	o.cumQuote = append(o.cumQuote[:0], x.CumQuote...)
	o.working = x.Working
	if !keepMaker {
		o.maker = x.Maker
	}
	o.created = x.Created
	o.updated = x.EventTime
	o.rank = r
	if m == mContract {
		setStr(&o.leverage, x.Leverage)
		o.close = x.Close
	}
	o.row = nil
	s.ordersDirty = true

	wasOpen := o.open
	o.open = o.status == "NEW" || o.status == "PARTIALLY_FILLED"
	switch {
	case !o.open && (wasOpen || !o.inClosed):
		s.closedCount++
		if !o.inClosed {
			s.pushClosed(o)
		}
		s.evict()
	case o.open && !wasOpen && o.inClosed:
		s.closedCount-- // reopened: keeps its place from the first closing
	}
	return true
}

// pushClosed appends o to the retention list (its first closing).
func (s *Store) pushClosed(o *order) {
	o.inClosed = true
	o.prevClosed = s.closedTail
	if s.closedTail != nil {
		s.closedTail.nextClosed = o
	} else {
		s.closedHead = o
	}
	s.closedTail = o
}

func (s *Store) unlinkClosed(o *order) {
	if o.prevClosed != nil {
		o.prevClosed.nextClosed = o.nextClosed
	} else {
		s.closedHead = o.nextClosed
	}
	if o.nextClosed != nil {
		o.nextClosed.prevClosed = o.prevClosed
	} else {
		s.closedTail = o.prevClosed
	}
	o.prevClosed, o.nextClosed, o.inClosed = nil, nil, false
}

// evict drops the earliest-closed orders beyond the retention limit,
// leaving tombstones.
func (s *Store) evict() {
	for s.closedCount > s.retention {
		o := s.closedHead
		for o != nil && o.open {
			o = o.nextClosed
		}
		if o == nil {
			return
		}
		s.unlinkClosed(o)
		s.closedCount--
		mk := &s.markets[o.mkt]
		delete(mk.orders, o.id)
		o.removed = true
		s.removed++
		s.ordersDirty = true
		s.addTomb(mk, o.id, o.updated)
	}
}

// addTomb records a dropped order, forgetting the oldest tombstone when
// the ring is full.
func (s *Store) addTomb(mk *market, id string, e int64) {
	mk.tombSeq++
	if len(mk.tombRing) < s.tombCap {
		mk.tombRing = append(mk.tombRing, tombEntry{id, mk.tombSeq})
	} else {
		old := mk.tombRing[mk.tombNext]
		if t, ok := mk.tomb[old.id]; ok && t.seq == old.seq {
			delete(mk.tomb, old.id)
		}
		mk.tombRing[mk.tombNext] = tombEntry{id, mk.tombSeq}
		mk.tombNext = (mk.tombNext + 1) % s.tombCap
	}
	mk.tomb[id] = tomb{e: e, seq: mk.tombSeq}
}
