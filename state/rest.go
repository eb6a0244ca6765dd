package state

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/event"
)

// RESTSnapshot is what the REST snapshots of one resync returned, already
// converted from the REST records. A nil Account or a false Have* flag
// means that part was not fetched (or the endpoint does not exist).
type RESTSnapshot struct {
	Account            *AccountSnap
	SpotOpenOrders     []OrderSnap
	ContractOpenOrders []OrderSnap
	HaveSpotOrders     bool
	HaveContractOrders bool
	Positions          []Position // AccountID is ignored
	HavePositions      bool
}

// AccountSnap is GET /openapi/v1/account.
type AccountSnap struct {
	CanTrade, CanWithdraw, CanDeposit bool
	UpdateTime                        int64
	Balances                          []Balance // Updated is ignored
}

// OrderSnap is one REST order record (open orders or a queried order).
// Market is MarketSpot or MarketContract. Side may be a contract REST side
// (BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE): it becomes BUY or SELL with
// close set. CumulativeQuoteQty "" means executedQty × avgPrice.
type OrderSnap struct {
	Market, Symbol, OrderID, ClientOrderID, Side, Type, TimeInForce    string
	Price, Quantity, ExecutedQty, CumulativeQuoteQty, AvgPrice, Status string
	Working                                                            bool
	Time, UpdateTime                                                   int64
	Leverage                                                           string
	Close                                                              *bool
}

// OrderKey names one order to query.
type OrderKey struct {
	Market, OrderID, ClientOrderID string
}

// ApplySnapshot merges REST snapshots under the ordering rules: each order
// record applies as an update with E = updateTime (time when 0), account
// balances and flags with E = the account's updateTime, and a positions
// snapshot replaces the positions. It returns the orders open here that
// are absent from a fetched open-orders snapshot: their final state must
// be queried (then given to ApplyOrderRecord).
func (s *Store) ApplySnapshot(d RESTSnapshot) (missing []OrderKey) {
	if a := d.Account; a != nil {
		s.applyFlags(a.UpdateTime, a.CanTrade, a.CanWithdraw, a.CanDeposit)
		for _, b := range a.Balances {
			s.applyBalance(a.UpdateTime, []byte(b.Asset), []byte(b.Free), []byte(b.Locked))
		}
	}
	if d.HaveSpotOrders {
		missing = s.mergeOpen(mSpot, d.SpotOpenOrders, missing)
	}
	if d.HaveContractOrders {
		missing = s.mergeOpen(mContract, d.ContractOpenOrders, missing)
	}
	if d.HavePositions {
		s.replacePositions(d.Positions)
	}
	return missing
}

// mergeOpen applies one market's open-orders snapshot and appends the
// orders open here but absent from it.
func (s *Store) mergeOpen(m uint8, recs []OrderSnap, missing []OrderKey) []OrderKey {
	seen := make(map[string]bool, len(recs))
	for i := range recs {
		seen[recs[i].OrderID] = true
	}
	var absent []*order
	s.markets[m].orders.each(func(o *order) {
		if o.open && !seen[o.id] {
			absent = append(absent, o)
		}
	})
	slices.SortFunc(absent, func(a, b *order) int { return event.CompareIDs(a.id, b.id) })
	for _, o := range absent {
		missing = append(missing, OrderKey{Market: marketNames[m], OrderID: o.id, ClientOrderID: string(o.lit(litClient))})
	}
	for i := range recs {
		s.applyRecord(m, &recs[i])
	}
	return missing
}

// ApplyOrderRecord applies one queried order (its final state) under the
// ordering rules and settles a pending order with its clientOrderId.
func (s *Store) ApplyOrderRecord(o OrderSnap) {
	m := uint8(mSpot)
	if o.Market == MarketContract {
		m = mContract
	}
	s.applyRecord(m, &o)
	s.settle([]byte(o.ClientOrderID))
}

// applyRecord applies a REST order record as an update. Records whose ids
// or decimals do not follow the decoding rules are ignored.
func (s *Store) applyRecord(m uint8, r *OrderSnap) bool {
	x := event.ExecView{
		EventTime:     r.UpdateTime,
		Created:       r.Time,
		Symbol:        []byte(r.Symbol),
		ClientOrderID: []byte(r.ClientOrderID),
		Side:          []byte(r.Side),
		Type:          []byte(r.Type),
		TimeInForce:   []byte(r.TimeInForce),
		Quantity:      []byte(r.Quantity),
		Price:         []byte(r.Price),
		Status:        []byte(r.Status),
		OrderID:       []byte(r.OrderID),
		CumQty:        []byte(r.ExecutedQty),
		CumQuote:      []byte(r.CumulativeQuoteQty),
		Working:       r.Working,
		Leverage:      []byte(r.Leverage),
	}
	if x.EventTime == 0 {
		x.EventTime = r.Time
	}
	if r.CumulativeQuoteQty == "" {
		x.CumQuote = []byte(mulDecimal(r.ExecutedQty, r.AvgPrice))
	}
	if m == mContract {
		side, closing, ok := strings.Cut(r.Side, "_")
		if ok {
			x.Side = []byte(side)
			x.Close = closing == "CLOSE"
		}
		if r.Close != nil {
			x.Close = *r.Close
		}
		if o := s.markets[m].get([]byte(r.OrderID)); r.Leverage == "" && o != nil {
			x.Leverage = []byte(o.leverage) // records may not carry it
		}
	}
	if !event.IsDigits(x.OrderID) || !event.IsDecimal(x.CumQty) || !event.IsDecimal(x.CumQuote) {
		return false
	}
	return s.applyOrder(m, &x, true)
}

// mulDecimal returns a×b exactly, "0" when either is not a decimal.
func mulDecimal(a, b string) string {
	x, err1 := decimal.NewFromString(a)
	y, err2 := decimal.NewFromString(b)
	if err1 != nil || err2 != nil || !event.IsDecimal([]byte(a)) || !event.IsDecimal([]byte(b)) {
		return "0"
	}
	return x.Mul(y).String()
}

// AddPending records an order this process is sending (status PENDING or
// UNKNOWN); it replaces one with the same clientOrderId (but not a refused
// send, which stays listed). An order already known by that clientOrderId
// settles it at once.
func (s *Store) AddPending(p Pending) {
	known := false
	for m := range s.markets {
		s.markets[m].orders.each(func(o *order) { known = known || string(o.lit(litClient)) == p.ClientOrderID })
	}
	if known {
		return
	}
	if i := s.openPending(p.ClientOrderID); i >= 0 {
		s.pending[i] = p
		s.pendDirty = true
		return
	}
	s.pending = append(s.pending, p)
	s.pendDirty = true
}

// SetPendingStatus changes the status and reason of a pending order (e.g.
// to UNKNOWN after a 504, or NOT_PLACED after -2013); unknown ids are
// ignored.
func (s *Store) SetPendingStatus(clientOrderID, status, reason string) {
	if i := s.openPending(clientOrderID); i >= 0 {
		s.pending[i].Status, s.pending[i].Reason = status, reason
		s.pendDirty = true
	}
}

// RefusePending records that the service refused the send of p outright
// (a 4XX such as -1141 ORDER_DUPLICATED): its pending entry, or a new one
// when it was never listed (its clientOrderId belongs to a known order),
// becomes NOT_PLACED with reason and stays listed: no report or query
// settles it, so every order sent is accounted for.
func (s *Store) RefusePending(p Pending, reason string) {
	p.Status, p.Reason, p.refused = PendingNotPlaced, reason, true
	if i := s.openPending(p.ClientOrderID); i >= 0 {
		p.Since = s.pending[i].Since
		s.pending[i] = p
	} else {
		s.pending = append(s.pending, p)
	}
	s.pendDirty = true
}

// openPending is the index of the pending entry with this clientOrderId
// that a report or answer may still change (not a refused send), or -1.
func (s *Store) openPending(c string) int {
	for i := range s.pending {
		if s.pending[i].ClientOrderID == c && !s.pending[i].refused {
			return i
		}
	}
	return -1
}

// settle removes the pending order with this clientOrderId: the order is
// now in orders. A refused send stays listed.
func (s *Store) settle(c []byte) {
	if len(s.pending) == 0 {
		return
	}
	for i := range s.pending {
		if s.pending[i].ClientOrderID == string(c) && !s.pending[i].refused {
			s.pending = slices.Delete(slices.Clone(s.pending), i, i+1)
			s.pendDirty = true
			return
		}
	}
}
