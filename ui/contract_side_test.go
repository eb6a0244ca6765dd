package ui

import (
	"strings"
	"testing"

	"bhtop/state"
)

// TestContractOrderSideShowsOpenOrClose: the state keeps a contract
// order's side as BUY or SELL with its close flag (as the user stream
// reports it); Open Orders and the history show the side the trader
// sent, BUY_OPEN or SELL_CLOSE, since a SELL alone does not say whether
// it opens a short or closes a long.
func TestContractOrderSideShowsOpenOrClose(t *testing.T) {
	s := testSnapshot()
	s.Orders = state.NewOrderRows(
		&state.Order{Market: "contract", Symbol: "ETH-PERP", OrderID: "81", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
			Price: "2300", Quantity: "4", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true,
			Leverage: ptr("5"), Close: ptr(true)},
		&state.Order{Market: "contract", Symbol: "BTC-PERP", OrderID: "82", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Price: "59000", Quantity: "1", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true,
			Leverage: ptr("10"), Close: ptr(false)},
		&state.Order{Market: "spot", Symbol: "ETHUSDT", OrderID: "83", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
			Price: "2500", Quantity: "1", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true},
	)
	tm := startProgram(t, newTestBackend(s), &testTrader{}, 160, 48)
	waitText(t, tm, "Open Orders (5)")
	screen := *tm.screen.Load()
	want := map[string]string{"ETH-PERP": "SELL_CLOSE", "BTC-PERP": "BUY_OPEN", "ETHUSDT": "SELL"}
	for sym, side := range want {
		found := false
		for _, line := range strings.Split(screen, "\n") {
			f := strings.Fields(line)
			if len(f) > 3 && (f[1] == sym || f[2] == sym) && strings.Contains(line, " "+side+" ") {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s row with side %s:\n%s", sym, side, screen)
		}
	}
	finish(t, tm)
}
