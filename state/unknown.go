package state

import (
	"cmp"
	"slices"

	"bhtop/event"
)

// UnknownOrders returns the orders that executions recs (myTrades
// records, already folded by ApplyTrades) belong to but the store does
// not know: no order and no tombstone (an order dropped here stays
// dropped). Each appears once, those of the newest executions first, at
// most max of them. Their records, fetched and given to ApplyOrderRecord,
// make the fills' orders known (DESIGN.md, 'Stream lifecycle and resync').
func (s *Store) UnknownOrders(recs []TradeSnap, limit int, skip func(OrderKey) bool) []OrderKey {
	type cand struct {
		key  OrderKey
		time int64
	}
	var out []cand
	at := map[OrderKey]int{} // index in out
	for i := range recs {
		r := &recs[i]
		m := uint8(mSpot)
		if r.Market == MarketContract {
			m = mContract
		}
		id := []byte(r.OrderID)
		k := OrderKey{Market: marketNames[m], OrderID: r.OrderID}
		if !event.IsDigits(id) {
			continue
		}
		if j, ok := at[k]; ok {
			out[j].time = max(out[j].time, r.Time)
			continue
		}
		at[k] = len(out) // known ones too: looked up once
		mk := &s.markets[m]
		if _, dropped := mk.tomb.get(id); mk.get(id) != nil || dropped {
			k = OrderKey{} // known: kept as a placeholder, left out below
		}
		out = append(out, cand{k, r.Time})
	}
	// Newest execution first; ties by market, then newest (greatest) order id.
	slices.SortFunc(out, func(a, b cand) int {
		if c := cmp.Compare(b.time, a.time); c != 0 {
			return c
		}
		if c := cmp.Compare(a.key.Market, b.key.Market); c != 0 {
			return c
		}
		return event.CompareIDs(b.key.OrderID, a.key.OrderID)
	})
	var keys []OrderKey
	for _, c := range out {
		if len(keys) == limit {
			break
		}
		if c.key.OrderID != "" && (skip == nil || !skip(c.key)) {
			keys = append(keys, c.key)
		}
	}
	return keys
}
