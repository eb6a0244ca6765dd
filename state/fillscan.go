package state

// FillScan finds, snapshot after snapshot, the fills not seen before (for
// alerts and metrics). A fill is known by its key as the Store keys it: its
// trade id, else its order and place in it. Reading costs nothing while the
// fills did not change and only the appended ones when fills were only
// appended (the usual case); a fill sorted in among older ones (a resync's
// myTrades records) makes it read them all. The zero value is ready.
type FillScan struct {
	rows []Fill // the last snapshot's fills
	seen map[FillKey]struct{}
}

// FillKey identifies a fill as the Store does: by trade id, else by its
// order and place in it.
type FillKey struct {
	market, orderID, tradeID, qty string
	time                          int64
}

// KeyOf is f's key.
func KeyOf(f *Fill) FillKey {
	if f.TradeID != "" {
		return FillKey{market: f.Market, tradeID: f.TradeID}
	}
	return FillKey{market: f.Market, orderID: f.OrderID, qty: f.Qty, time: f.Time}
}

// Scan calls visit with each fill of fills (a snapshot's Fills) not seen
// in an earlier call, in fills' order. On the first call every fill is new.
func (s *FillScan) Scan(fills []Fill, visit func(*Fill)) {
	if len(fills) == len(s.rows) && (len(fills) == 0 || &fills[0] == &s.rows[0]) {
		return
	}
	if s.seen == nil || len(s.seen) > 2*len(fills)+1024 {
		s.seen = make(map[FillKey]struct{}, len(fills))
		for i := range s.rows { // what the last snapshot held was seen
			s.seen[KeyOf(&s.rows[i])] = struct{}{}
		}
	}
	for i := s.appended(fills); i < len(fills); i++ {
		f := &fills[i]
		k := KeyOf(f)
		if _, ok := s.seen[k]; ok {
			continue
		}
		s.seen[k] = struct{}{}
		visit(f)
	}
	s.rows = fills
}

// appended is where the fills not in the last snapshot's start when they
// were only appended to what it held (less the oldest, evicted): the
// fills before the first seen one from the end are then the last
// snapshot's newest ones, in order. Otherwise (a fill sorted in among
// older ones, as a resync's myTrades records do) it is 0: all are read.
func (s *FillScan) appended(fills []Fill) int {
	if len(s.rows) == 0 {
		return 0
	}
	j := len(fills) - 1
	for ; j >= 0; j-- {
		if _, ok := s.seen[KeyOf(&fills[j])]; ok {
			break
		}
	}
	kept := j + 1 // fills[:kept] should be the last snapshot's newest kept
	if kept == 0 || kept > len(s.rows) ||
		KeyOf(&fills[0]) != KeyOf(&s.rows[len(s.rows)-kept]) ||
		KeyOf(&fills[j]) != KeyOf(&s.rows[len(s.rows)-1]) {
		return 0
	}
	return kept
}
