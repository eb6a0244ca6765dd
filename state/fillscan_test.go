package state

import (
	"strings"
	"testing"
)

// TestFillScanOncePerFill: FillScan over a Store's snapshots visits each
// fill once: two executions of one order alike in quantity and time
// (events without t) are two; the myTrades records that pair with them
// later (giving them their trade ids) are not new; and a fill the Store
// dropped (retention) that a record brings back is not new either.
func TestFillScanOncePerFill(t *testing.T) {
	s := NewStore(WithFillRetention(3))
	var scan FillScan
	var seen []string
	step := func(want string) {
		t.Helper()
		seen = seen[:0]
		scan.Scan(s.Snapshot().Fills, func(f *Fill) { seen = append(seen, f.OrderID+"/"+f.Qty+"/"+f.TradeID) })
		if got := strings.Join(seen, " "); got != want {
			t.Errorf("visited %q, want %q", got, want)
		}
	}
	// Two executions of order 8 at one time and quantity, no t.
	fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""), execFill(MarketSpot, "8", 30, "1", "0.05", "2", ""))
	step("8/1/ 8/1/")
	rec := func(id string, qty string, time int64) TradeSnap {
		return TradeSnap{Market: MarketSpot, Symbol: "ETHBTC", TradeID: id, OrderID: "8", Side: "SELL", Price: "0.05",
			Qty: qty, Commission: "0.0001", CommissionAsset: "BTC", Time: time}
	}
	s.ApplyTrades([]TradeSnap{rec("700", "1", 30), rec("701", "1", 30)})
	step("")
	// Two new fills: the first of order 8 is dropped (retention 3).
	fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"), execFill(MarketSpot, "9", 41, "1", "0.05", "2", "901"))
	step("9/1/900 9/1/901")
	s.ApplyTrades([]TradeSnap{rec("700", "1", 30)}) // a resync reads it again
	if n := len(s.Snapshot().Fills); n != 3 {
		t.Fatalf("%d fills kept, want 3", n)
	}
	step("")
}
