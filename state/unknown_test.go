package state

import (
	"fmt"
	"testing"
)

// TestUnknownOrders: the orders of myTrades records that the store has
// no order for are listed once each, those of the newest executions
// first, at most the limit; known orders and dropped ones (tombstones:
// evicted by retention) are left out, as are ids that are not digits.
func TestUnknownOrders(t *testing.T) {
	s := fold(NewStore(WithRetention(1)), spot("1", 10, "FILLED", "1", "0.1"), spot("2", 11, "FILLED", "1", "0.1")) // 1 evicted
	tr := func(market, order string, at int64) TradeSnap {
		return TradeSnap{Market: market, Symbol: "ETHBTC", TradeID: fmt.Sprint(at), OrderID: order, Side: "BUY",
			Price: "0.1", Qty: "0.5", Time: at}
	}
	recs := []TradeSnap{tr(MarketSpot, "1", 5), tr(MarketSpot, "2", 6), tr(MarketSpot, "3", 7), tr(MarketSpot, "4", 8),
		tr(MarketSpot, "3", 20), tr(MarketContract, "4", 9), tr(MarketSpot, "x9", 30)}
	s.ApplyTrades(recs)
	if got := fmt.Sprint(s.UnknownOrders(recs, 10, nil)); got != "[{spot 3 } {contract 4 } {spot 4 }]" {
		t.Errorf("UnknownOrders = %s, want spot 3 (newest fill 20), contract 4, spot 4", got)
	}
	if got := fmt.Sprint(s.UnknownOrders(recs, 2, nil)); got != "[{spot 3 } {contract 4 }]" {
		t.Errorf("UnknownOrders limit 2 = %s", got)
	}
	skip := func(k OrderKey) bool { return k.Market == MarketContract }
	if got := fmt.Sprint(s.UnknownOrders(recs, 2, skip)); got != "[{spot 3 } {spot 4 }]" {
		t.Errorf("UnknownOrders skipping contract 4 = %s", got)
	}
	s.ApplyOrderRecord(rec(MarketSpot, "3", 20, "FILLED", "1", "0.1"))
	if got := fmt.Sprint(s.UnknownOrders(recs, 10, nil)); got != "[{contract 4 } {spot 4 }]" {
		t.Errorf("after spot 3 was fetched: %s", got)
	}
}
