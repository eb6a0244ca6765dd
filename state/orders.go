package state

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"bhtop/api"
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
	orders   idIndex[*order]
	tomb     idIndex[tomb]
	tombRing []tombEntry
	tombNext int
	tombSeq  uint64
}

// idIndex maps order ids (exact text) to values. An id that is its
// number written plainly (at most 19 digits, no leading zero: nearly all)
// is found by that number in an open-addressing table; any other by its
// text in a map. The zero value is empty and ready.
type idIndex[V comparable] struct {
	num  keyIndex[V] // by numKey
	text map[string]V
}

// numKey is the index key of an order id written as a plain number: the
// number plus one, mixed by a bijection (so distinct numbers never share
// a key, and none is 0); 0 for any other id.
func numKey[T string | []byte](id T) uint64 {
	n := len(id)
	if n == 0 || n > 19 || (id[0] == '0' && n > 1) {
		return 0
	}
	// Words loaded inside the id only, the last ones overlapping: a
	// string's and a slice's data pointer both come first.
	p := *(*unsafe.Pointer)(unsafe.Pointer(&id))
	var v uint64
	switch {
	case n >= 16: // the last eight digits, the eight before, then the first n-16
		lo, ok1 := event.Digits8(le64(unsafe.Add(p, n-8)))
		mid, ok2 := event.Digits8(le64(unsafe.Add(p, n-16)))
		hi, ok3 := firstDigits(le64(p), n-16)
		if !ok1 || !ok2 || !ok3 {
			return 0
		}
		v = (hi*1e8+mid)*1e8 + lo
	case n >= 8: // the last eight digits, then the first n-8
		lo, ok1 := event.Digits8(le64(unsafe.Add(p, n-8)))
		hi, ok2 := firstDigits(le64(p), n-8)
		if !ok1 || !ok2 {
			return 0
		}
		v = hi*1e8 + lo
	case n >= 4: // the first four and the last four, overlapping
		w := uint64(le32(p)) | uint64(le32(unsafe.Add(p, n-4)))<<(8*(n-4))
		d, ok := firstDigits(w, n)
		if !ok {
			return 0
		}
		v = d
	default:
		for i := 0; i < n; i++ {
			c := id[i]
			if c < '0' || c > '9' {
				return 0
			}
			v = v*10 + uint64(c-'0')
		}
	}
	return mixID(v + 1)
}

// idKey is numKey(x.OrderID), from the number the decoder handed over
// when it read one (x.IDNum).
func idKey(x *event.ExecView) uint64 {
	if x.IDNum != 0 {
		return mixID(x.IDNum)
	}
	return numKey(x.OrderID)
}

// mixID is numKey of the id whose number is v-1 (v > 0): a multiply by
// an odd constant and a rotation, each invertible (so 0 only for 0), the
// low bits (which home a key in keyIndex) taken from the middle of the
// product, where every low bit of v counts. (splitmix64's finalizer
// took 10 instructions more an update.)
func mixID(v uint64) uint64 {
	return bits.RotateLeft64(v*0x9e3779b97f4a7c15, 32)
}

// le64 and le32 load the bytes at p as a little-endian word (the
// first byte in the low bits, as event.Digits8 reads them) on any
// machine; on a little-endian one each is a single load.
func le64(p unsafe.Pointer) uint64 { return binary.LittleEndian.Uint64((*[8]byte)(p)[:]) }
func le32(p unsafe.Pointer) uint32 { return binary.LittleEndian.Uint32((*[4]byte)(p)[:]) }

// firstDigits is the number the first k (0..7) lanes of w write (the
// first in the low byte), false when one is no ASCII digit: they are
// moved to the top, '0's put below them.
func firstDigits(w uint64, k int) (uint64, bool) {
	if k == 0 {
		return 0, true
	}
	s := uint(8*(8-k)) & 63
	return event.Digits8(w<<s | 0x3030303030303030>>(64-s))
}

// get returns the value of id.
func (x *idIndex[V]) get(id []byte) (V, bool) { return x.getKey(numKey(id), id) }

// getKey is get of id whose numKey is k (computed once for every index
// an update looks in).
func (x *idIndex[V]) getKey(k uint64, id []byte) (V, bool) {
	if k != 0 {
		return x.num.get(k)
	}
	v, ok := x.text[string(id)]
	return v, ok
}

// putKey maps id, whose numKey is k, to v.
func (x *idIndex[V]) putKey(k uint64, id string, v V) {
	if k != 0 {
		x.num.put(k, v)
		return
	}
	if x.text == nil {
		x.text = map[string]V{}
	}
	x.text[id] = v
}

// dropIfKey forgets id, whose numKey is k, if it maps to v.
func (x *idIndex[V]) dropIfKey(k uint64, id string, v V) {
	if k != 0 {
		x.num.dropIf(k, v)
		return
	}
	if w, ok := x.text[id]; ok && w == v {
		delete(x.text, id)
	}
}

// len is the number of ids held.
func (x *idIndex[V]) len() int { return x.num.n + len(x.text) }

// each calls fn for every value, in no particular order.
func (x *idIndex[V]) each(fn func(v V)) {
	x.num.each(fn)
	for _, v := range x.text {
		fn(v)
	}
}

// get returns the order with id, nil when none.
func (mk *market) get(id []byte) *order {
	o, _ := mk.orders.get(id)
	return o
}

type tomb struct {
	e   int64  // last E of the dropped order
	seq uint64 // which ring entry owns it
}

type tombEntry struct {
	id  string
	key uint64 // numKey(id)
	tomb
}

// order is one order as last applied. Its decimal literals and client id
// change with fills, so they live back to back in one buffer reused in
// place (lits, split by ends); the short repeated texts are interned.
// row caches the materialized read-model row; nil when the order changed.
type order struct {
	mkt                            uint8
	rank                           uint8
	open, inClosed, removed        bool
	working, maker, close          bool
	fit                            bool // texts in wordsDiff's and shortDiff's ranges (setTexts)
	id                             string
	key                            uint64 // numKey(id)
	symbol, side, typ, tif, status string
	leverage                       string
	lits                           []byte
	ends                           [nLits]int32
	created, updated               int64
	shown                          bool  // its row is in the last Snapshot's rows
	pending                        uint8 // which of Store.added (pendAdded), Store.changed (pendChanged) holds it
	pendAt                         int32 // its index there
	prevClosed, nextClosed         *order
	row                            *Order
	// The fills of this order the fill book counts as its own (fills.go,
	// cover): the newest one's seq (0: none) and the greatest z of them by
	// magnitude, as its adjusted exponent and digits (alignDec).
	fillSeq, fillMant uint64
	fillExp           int64
}

// The lists of Store an order waiting for the next Snapshot is in.
const (
	pendNone = iota
	pendAdded
	pendChanged
)

// pend appends o to list (Store.added or Store.changed), which pending
// names.
func (o *order) pend(list *[]*order, pending uint8) {
	o.pending, o.pendAt = pending, int32(len(*list))
	*list = append(*list, o)
}

// unpend takes o out of the list it waits in (its place taken by the
// last one): a dropped order leaves at once, so neither list ever needs
// to be scanned for dropped ones.
func (s *Store) unpend(o *order) {
	list := &s.added
	switch o.pending {
	case pendNone:
		return
	case pendChanged:
		list = &s.changed
	}
	l, i := *list, o.pendAt
	last := l[len(l)-1]
	l[i], last.pendAt = last, i
	l[len(l)-1] = nil
	*list = l[:len(l)-1]
	o.pending = pendNone
}

// The literals kept in order.lits, in this order.
const (
	litPrice = iota
	litQty
	litClient
	litZ
	litCumQuote
	nLits
)

// lit returns literal k of o.
func (o *order) lit(k int) []byte {
	start := int32(0)
	if k > 0 {
		start = o.ends[k-1]
	}
	return o.lits[start:o.ends[k]]
}

// rankNone is the rank of an order no update was applied to yet (its
// status is not set from its rank: newOrder keeps a reused one's).
const rankNone = 0xff

// rank orders statuses: NEW < PARTIALLY_FILLED < everything else.
func rank(status []byte) uint8 {
	switch string(status) {
	case api.StatusNew:
		return 0
	case api.StatusPartiallyFilled:
		return 1
	}
	return 2
}

// newer reports whether update x goes after the order's current state:
// a greater E, or an equal E and a greater (status rank, z).
func (o *order) newer(x *event.ExecView, r uint8) bool {
	if x.EventTime != o.updated { // (inlined: the usual case)
		return x.EventTime > o.updated
	}
	return o.newerSameE(x, r)
}

// newerSameE is newer of an update with the order's E.
func (o *order) newerSameE(x *event.ExecView, r uint8) bool {
	if r != o.rank {
		return r > o.rank
	}
	return event.CompareDecimal(x.CumQty, o.lit(litZ)) > 0
}

// applyOrder folds one order update into market m and reports whether the
// ordering rules accepted it. keepMaker keeps the known maker flag (REST
// records do not carry one).
func (s *Store) applyOrder(m uint8, x *event.ExecView, keepMaker bool) bool {
	mode := uint8(foldBare)
	if keepMaker {
		mode = foldREST
	}
	return s.foldOrder(m, x, nil, mode) != nil
}

// The modes of foldOrder.
const (
	foldEvent = iota // a stream event: counted in the stats, then its fill folded
	foldREST         // a REST record: keeps the known maker flag (records do not carry one)
	foldBare         // the order alone
)

// foldOrder is applyOrder returning the order the update was applied to,
// nil when the ordering rules refused it; p is x's prep, nil when none.
// For a stream event (foldEvent) it does all of applyPrep's work, so that
// ApplyFrame calls it directly: one call less an event.
func (s *Store) foldOrder(m uint8, x *event.ExecView, p *prep, mode uint8) *order {
	mk := &s.markets[m&1] // (m is mContract or mSpot: no bound check)
	keepMaker := mode == foldREST
	if mode == foldEvent {
		s.stats.Events++
		s.stats.ByType[2-m&1]++ // typeIndex: contract 2, spot 1
	}
	var r uint8
	var k uint64
	if p != nil {
		r, k = p.rank(), p.idKey
	} else if r, k = rank(x.Status), x.IDNum; k != 0 { // idKey, inlined
		k = mixID(k)
	} else {
		k = numKey(x.OrderID)
	}
	var o *order // mk.orders.getKey, inlined
	if k != 0 {
		o, _ = mk.orders.num.get(k)
	} else {
		o = mk.orders.text[string(x.OrderID)]
	}
	if o == nil {
		if mk.tomb.len() > 0 {
			if t, ok := mk.tomb.getKey(k, x.OrderID); ok {
				if x.EventTime <= t.e {
					return s.refused(m, x, p, mode) // a late update of a dropped order: never a phantom
				}
				mk.tomb.dropIfKey(k, string(x.OrderID), t) // no allocation: the conversion does not escape
			}
		}
		o = s.newOrder(m, x.OrderID)
		o.key = k
		mk.orders.putKey(k, o.id, o)
		o.pend(&s.added, pendAdded)
		keepMaker = false
	} else if !o.newer(x, r) {
		return s.refused(m, x, p, mode)
	}
	// The texts are mostly the same again: of the same lengths as o's,
	// which are in the ranges wordsDiff and shortDiff take (o.fit), they
	// are compared all in words, and set one by one (setTexts) only when
	// one differs.
	if !o.fit || len(x.Symbol) != len(o.symbol) || len(x.Side) != len(o.side) || len(x.Type) != len(o.typ) || len(x.TimeInForce) != len(o.tif) ||
		wordsDiff(o.symbol, x.Symbol)|shortDiff(o.side, x.Side)|wordsDiff(o.typ, x.Type)|shortDiff(o.tif, x.TimeInForce) != 0 {
		s.setTexts(o, x)
	}
	switch { // rank compared the status with these already
	case r == o.rank && r < 2: // the same again (a new order's rank is none)
	case r == 0:
		o.status = api.StatusNew
	case r == 1:
		o.status = api.StatusPartiallyFilled
	default:
		s.setText(&o.status, x.Status)
	}
	if p != nil && p.flags&prepPacked != 0 {
		s.slab.packedInto(&o.lits, p.orderLits(), int(p.orderLen))
		o.ends = p.orderEnds
	} else {
		s.slab.packOrder(&o.lits, &o.ends, x)
	}
	o.working = x.Working
	if !keepMaker {
		o.maker = x.Maker
	}
	o.created = x.Created
	o.updated = x.EventTime
	o.rank = r
	if m == mContract {
		if n := len(x.Leverage); n != len(o.leverage) || uint(n-2) > 5 || shortDiff(o.leverage, x.Leverage) != 0 {
			s.setText(&o.leverage, x.Leverage)
		}
		o.close = x.Close
	}
	if o.row != nil {
		o.row = nil
		o.pend(&s.changed, pendChanged)
	}
	s.ordersDirty = true

	if !o.open || r >= 2 { // (an open order staying open, the usual update, changes none of this)
		s.setOpen(o, r < 2) // r < 2: api.Open(o.status)
	}
	if mode == foldEvent {
		if len(s.pending) > 0 { // (mostly none: no call)
			s.settle(x.ClientOrderID)
		}
		s.foldExecFill(m, x, o, p)
		s.stats.Applied++ // counted(true, E), inlined
		if x.EventTime > s.lastEvent {
			s.lastEvent = x.EventTime
		}
	}
	return o
}

// setOpen sets whether o is open, keeping the list and count of closed
// orders and the symbols noted.
func (s *Store) setOpen(o *order, open bool) {
	wasOpen := o.open
	o.open = open
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
	if o.open && !wasOpen {
		s.noteSymbol(o.symbol)
	}
}

// refused is foldOrder's end for an update the ordering rules refused:
// nil, the event (foldEvent) counted stale and its fill folded.
func (s *Store) refused(m uint8, x *event.ExecView, p *prep, mode uint8) *order {
	if mode == foldEvent {
		if len(s.pending) > 0 {
			s.settle(x.ClientOrderID)
		}
		s.foldExecFill(m, x, nil, p)
		s.stats.Stale++
	}
	return nil
}

// setTexts sets the symbol, side, type and time in force of o from x.
func (s *Store) setTexts(o *order, x *event.ExecView) {
	s.setText(&o.symbol, x.Symbol)
	s.setText(&o.side, x.Side)
	s.setText(&o.typ, x.Type)
	s.setText(&o.tif, x.TimeInForce)
	o.fit = uint(len(o.symbol)-4) <= 12 && uint(len(o.side)-2) <= 5 && uint(len(o.typ)-4) <= 12 && uint(len(o.tif)-2) <= 5
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
		s.drop(o)
	}
	if len(s.dropped) >= 1024 {
		s.compactOrders()
	}
}

// drop removes o (out of the retention list) from its market, leaving a
// tombstone with its last E.
func (s *Store) drop(o *order) {
	mk := &s.markets[o.mkt]
	mk.orders.dropIfKey(o.key, o.id, o)
	s.fills.orphan(o)
	s.unpend(o)
	o.removed = true
	s.dropped = append(s.dropped, o)
	s.ordersDirty = true
	s.addTomb(mk, o.id, o.key, o.updated)
}

// ForgetOpen drops the order k names if it is open here: the service
// knows it no longer (an open-orders snapshot lacks it and a query
// answers -2013), so it must not be shown as open. Like an evicted order
// it leaves a tombstone: a later update applies only with a greater E.
// It reports whether an order was dropped.
func (s *Store) ForgetOpen(k OrderKey) bool {
	m := uint8(mSpot)
	if k.Market == MarketContract {
		m = mContract
	}
	o := s.markets[m].get([]byte(k.OrderID))
	if o == nil || !o.open {
		return false
	}
	if o.inClosed { // reopened: counted open, so only unlinked
		s.unlinkClosed(o)
	}
	s.drop(o)
	if len(s.dropped) >= 1024 {
		s.compactOrders()
	}
	return true
}

// newOrder returns an empty order, reusing a dropped one (and its
// buffer) when there is one; only applyOrder calls it, and sets every
// field.
func (s *Store) newOrder(m uint8, id []byte) *order {
	if n := len(s.free); n > 0 {
		o := s.free[n-1]
		s.free = s.free[:n-1]
		// The short texts stay: applyOrder sets each anew, and mostly
		// finds the same one there (no lookup in the interned table).
		*o = order{mkt: m, rank: rankNone, id: string(id), lits: o.lits[:0], symbol: o.symbol, side: o.side, typ: o.typ, tif: o.tif, fit: o.fit, status: o.status}
		return o
	}
	if len(s.orderSlab) == 0 {
		s.orderSlab = make([]order, 64)
	}
	o := &s.orderSlab[0]
	s.orderSlab = s.orderSlab[1:]
	o.mkt, o.id, o.rank = m, string(id), rankNone
	return o
}

// compactOrders forgets the dropped orders (so that a store never
// snapshotted stays bounded) and reuses them: the keys of those the last
// Snapshot shows are kept for the next one to delete their rows. (drop
// took each out of s.added or s.changed already.)
func (s *Store) compactOrders() {
	for _, o := range s.dropped {
		if o.shown {
			s.gone = append(s.gone, rowKey{o.mkt, o.id})
		}
		s.recycle(o)
	}
	clear(s.dropped)
	s.dropped = s.dropped[:0]
}

// recycle keeps a dropped order, no longer referenced anywhere, for reuse.
func (s *Store) recycle(o *order) {
	if len(s.free) < 4096 {
		o.row = nil
		s.free = append(s.free, o)
	}
}

// addTomb records a dropped order, forgetting the oldest tombstone when
// the ring is full.
// key is numKey(id).
func (s *Store) addTomb(mk *market, id string, key uint64, e int64) {
	mk.tombSeq++
	t := tomb{e: e, seq: mk.tombSeq}
	if len(mk.tombRing) < s.tombCap {
		mk.tombRing = append(mk.tombRing, tombEntry{id, key, t})
	} else {
		old := mk.tombRing[mk.tombNext]
		mk.tomb.dropIfKey(old.key, old.id, old.tomb) // unless a later tombstone of that id took over
		mk.tombRing[mk.tombNext] = tombEntry{id, key, t}
		mk.tombNext = (mk.tombNext + 1) % s.tombCap
	}
	mk.tomb.putKey(key, id, t)
}
