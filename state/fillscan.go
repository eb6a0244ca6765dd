package state

// FillScan finds, snapshot after snapshot, the fills not seen before (for
// alerts and metrics). A fill of a Store is known by its Seq, which stays
// when an event without a trade id and the myTrades record of it become
// one fill (keyed by trade id, the fill would be new again once it gained
// the id; keyed by order, quantity and time, two executions of one order
// alike in both would be one); a trade id seen is also remembered, so a
// fill the Store dropped (retention) and a resync brought back is not new.
// A fill no Store made (Seq 0) is known by its order and trade id, else
// its order, quantity and time. Reading costs nothing while the fills did not change
// and only the appended ones when fills were only appended (the usual
// case); a fill sorted in among older ones (a resync's myTrades records)
// makes it read them all. A fill the Store marks Again (the other half
// of an execution whose fill it dropped) is new only when that fill was
// not seen here. The memory
// is bounded in two generations: when the newer outgrows its bound it
// becomes the older and the older is forgotten, so a key is remembered
// for at least 4×(fills kept)+1024 keys more. The zero value is ready.
type FillScan struct {
	rows      []Fill           // the last snapshot's fills
	seen, old map[FillKey]bool // a fill's key → counted (not Again when seen)
}

// FillKey identifies a fill (KeyOf).
type FillKey struct {
	market, orderID, tradeID, qty string
	time                          int64
	seq                           uint64
}

// KeyOf is f's key: its Seq, else its order and trade id, else its
// order, quantity and time.
func KeyOf(f *Fill) FillKey {
	if f.Seq != 0 {
		return FillKey{seq: f.Seq}
	}
	return tradeKeyOf(f)
}

// tradeKeyOf is f's key by order and trade id (a self-trade's two sides
// share the trade id), else by order, quantity and time.
func tradeKeyOf(f *Fill) FillKey {
	if f.TradeID != "" {
		return FillKey{market: f.Market, orderID: f.OrderID, tradeID: f.TradeID}
	}
	return FillKey{market: f.Market, orderID: f.OrderID, qty: f.Qty, time: f.Time}
}

// mark remembers f as seen: its key (counted or not), and its trade id
// when it has a Seq.
func (s *FillScan) mark(f *Fill, counted bool) {
	s.seen[KeyOf(f)] = counted
	if f.Seq != 0 && f.TradeID != "" {
		s.seen[tradeKeyOf(f)] = true
	}
}

// counts reports whether f is an execution not counted before (visit),
// and whether f is to be remembered as counted: not when f is Again, the
// other half of a dropped fill seen here (counted then, or itself the
// half of one counted), until it is no longer Again (the Store found
// they were two executions).
func (s *FillScan) counts(f *Fill) (visit, counted bool) {
	if seen, counted := s.lookup(KeyOf(f)); seen {
		return !counted && f.Again == 0, counted || f.Again == 0
	}
	if f.Seq != 0 && f.TradeID != "" && s.has(tradeKeyOf(f)) {
		return false, true // its trade id seen (under another Seq)
	}
	if f.Again != 0 && s.has(FillKey{seq: f.Again}) {
		return false, false
	}
	return true, true
}

// has reports whether key k is remembered (either generation).
func (s *FillScan) has(k FillKey) bool {
	seen, _ := s.lookup(k)
	return seen
}

// lookup reports whether key k is remembered and whether it was counted.
func (s *FillScan) lookup(k FillKey) (seen, counted bool) {
	if counted, ok := s.seen[k]; ok {
		return true, counted
	}
	counted, seen = s.old[k]
	return seen, counted
}

// Scan calls visit with each fill of fills (a snapshot's Fills) not seen
// in an earlier call, in fills' order. On the first call every fill is new.
func (s *FillScan) Scan(fills []Fill, visit func(*Fill)) {
	if len(fills) == len(s.rows) && (len(fills) == 0 || &fills[0] == &s.rows[0]) {
		return
	}
	if s.seen == nil || len(s.seen) > 4*len(fills)+1024 { // up to two keys a fill
		s.old, s.seen = s.seen, make(map[FillKey]bool, 2*len(fills))
		for i := range s.rows { // what the last snapshot held was seen
			_, counted := s.lookup(KeyOf(&s.rows[i]))
			s.mark(&s.rows[i], counted)
		}
	}
	for i := s.appended(fills); i < len(fills); i++ {
		f := &fills[i]
		visit1, counted := s.counts(f)
		if visit1 {
			visit(f)
		}
		s.mark(f, counted) // a fill seen before may have gained its trade id
	}
	s.rows = fills
}

// appended is where the fills not in the last snapshot's start when they
// were only appended to what it held (less the oldest, evicted): the
// fills before the first seen one from the end are then the last
// snapshot's newest ones, in order, sharing its rows (the Store builds
// every row anew only when one changed). Otherwise (a fill sorted in
// among older ones, or changed, as a resync's myTrades records do) it is
// 0: all are read.
func (s *FillScan) appended(fills []Fill) int {
	if len(s.rows) == 0 {
		return 0
	}
	j := len(fills) - 1
	for ; j >= 0; j-- {
		if s.has(KeyOf(&fills[j])) {
			break
		}
	}
	kept := j + 1 // fills[:kept] should be the last snapshot's newest kept
	if kept == 0 || kept > len(s.rows) ||
		KeyOf(&fills[0]) != KeyOf(&s.rows[len(s.rows)-kept]) ||
		KeyOf(&fills[j]) != KeyOf(&s.rows[len(s.rows)-1]) {
		return 0
	}
	if &fills[0] != &s.rows[len(s.rows)-kept] {
		return 0 // rows built anew: one shown may have changed (gained its trade id)
	}
	return kept
}
