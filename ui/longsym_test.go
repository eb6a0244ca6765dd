package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"bhtop/market"
	"bhtop/state"
)

// longSymbols renames the test account's and market's perpetuals to the
// simulator's long inverse symbol (BTC-PERP-REV) and a longer one.
var longSymbols = strings.NewReplacer("BTC-PERP", "BTC-PERP-REV", "ETH-PERP", "ETHUSDT-PERP-REV")

// longSymbolSnapshot is testSnapshot with longSymbols.
func longSymbolSnapshot() *state.Snapshot {
	s := testSnapshot()
	for _, o := range s.Orders.All() { // the fixture's own orders, not shared
		o.Symbol = longSymbols.Replace(o.Symbol)
	}
	s.Orders = s.Orders.Append(&state.Order{Market: "contract", Symbol: "ETHUSDT-PERP-REV", OrderID: "78", ClientOrderID: "c78",
		Side: "SELL_OPEN", Type: "LIMIT", TimeInForce: "GTC", Price: "2400", Quantity: "5", ExecutedQty: "0", CumulativeQuoteQty: "0",
		Status: "NEW", Working: true, Created: t0.Add(-time.Hour).UnixMilli(), Leverage: ptr("5"), Close: ptr(false)})
	for i := range s.Positions {
		s.Positions[i].Symbol = longSymbols.Replace(s.Positions[i].Symbol)
	}
	for i := range s.Fills {
		s.Fills[i].Symbol = longSymbols.Replace(s.Fills[i].Symbol)
	}
	return s
}

// longSymbolMarket is testMarket with longSymbols.
func longSymbolMarket() *market.Snapshot {
	s := testMarket()
	rename := func(m map[string]market.Quote) map[string]market.Quote {
		out := map[string]market.Quote{}
		for k, q := range m {
			q.Symbol = longSymbols.Replace(q.Symbol)
			out[longSymbols.Replace(k)] = q
		}
		return out
	}
	s.Quotes = rename(s.Quotes)
	ins := map[string]market.Instrument{}
	for k, in := range s.Instruments {
		in.Symbol = longSymbols.Replace(in.Symbol)
		ins[longSymbols.Replace(k)] = in
	}
	s.Instruments = ins
	return s
}

// cutNumber is a number cut with "…" (a quantity 10 shown as "1…").
var cutNumber = regexp.MustCompile(`[0-9.][0-9.]*…`)

// TestLongSymbols: with long symbols every column of the Fills, Open
// Orders and Positions panes keeps its place at every size: the symbol
// is cut with "…" before a column (the Fills' Time) is dropped for it,
// and no line is wider than the screen.
func TestLongSymbols(t *testing.T) {
	for _, v := range []goldenView{{"fills", "6"}, {"orders", "2"}, {"positions", "3"}, {"market", "5"}} {
		for _, sz := range [][2]int{{40, 10}, {60, 20}, {80, 24}, {120, 40}, {150, 40}, {160, 48}} {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				opts := []Option{WithNow(fixedNow), WithMarket(marketHub(longSymbolMarket()), "USDT"), WithNoColor(true)}
				m := sized(New(newTestBackend(longSymbolSnapshot()), &testTrader{}, opts...), sz[0], sz[1])
				m = press(t, m, v.keys)
				out := plainGolden(t, m, sz[0], sz[1])
				if v.name == "fills" && sz[0] >= 60 && !strings.Contains(out, "Time     Symbol") {
					t.Errorf("the Fills pane lost its Time column:\n%s", out)
				}
				lines := strings.Split(out, "\n")
				if cut := cutNumber.FindString(strings.Join(lines[2:len(lines)-2], "\n")); cut != "" { // the panes
					t.Errorf("a number is cut (%q):\n%s", cut, out)
				}
				if strings.Contains(out, "…│") {
					t.Errorf("a pane's row is cut at its edge:\n%s", out)
				}
			})
		}
	}
}
