package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

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

// wideFillsSnapshot is longSymbolSnapshot with fills as wide as the
// simulator's: prices with 7 decimals and quantities in the thousands.
func wideFillsSnapshot() *state.Snapshot {
	s := longSymbolSnapshot()
	s.Fills = append(s.Fills,
		state.Fill{Market: "spot", Symbol: "LTCBTC", OrderID: "1005", TradeID: "5005", Side: "SELL", Price: "0.0013819", Qty: "0.06", QuoteQty: "0.000082914",
			Commission: "0.00000008", CommissionAsset: "BTC", Time: t0.Add(-50 * time.Second).UnixMilli()},
		state.Fill{Market: "spot", Symbol: "BHTUSDT", OrderID: "1006", TradeID: "5006", Side: "SELL", Price: "0.01441", Qty: "1044", QuoteQty: "15.04404",
			Commission: "0.01504404", CommissionAsset: "USDT", Time: t0.Add(-40 * time.Second).UnixMilli()},
		state.Fill{Market: "spot", Symbol: "LTCUSDT", OrderID: "1007", TradeID: "5007", Side: "BUY", Price: "83.91", Qty: "0.297", QuoteQty: "24.92127",
			Commission: "0.000297", CommissionAsset: "LTC", Time: t0.Add(-30 * time.Second).UnixMilli()},
	)
	return s
}

// TestFillsKeepTimeWideData: with fills as wide as the simulator's, the
// Fills keep their Time at 150 and 160 columns (three panes on the
// bottom row took it from them up to about 170) and beside the Market
// pane from 170.
func TestFillsKeepTimeWideData(t *testing.T) {
	for _, sz := range [][2]int{{150, 40}, {160, 40}, {170, 40}, {200, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			opts := []Option{WithNow(fixedNow), WithMarket(marketHub(longSymbolMarket()), "USDT"), WithNoColor(true)}
			m := sized(New(newTestBackend(wideFillsSnapshot()), &testTrader{}, opts...), sz[0], sz[1])
			m = press(t, m, "6")
			out := plainGolden(t, m, sz[0], sz[1])
			if !strings.Contains(out, "Time     Symbol") {
				t.Errorf("the Fills pane lost its Time column:\n%s", out)
			}
			lines := strings.Split(out, "\n")
			if cut := cutNumber.FindString(strings.Join(lines[2:len(lines)-2], "\n")); cut != "" {
				t.Errorf("a number is cut (%q):\n%s", cut, out)
			}
			if got, want := strings.Contains(out, "Market ("), sz[0] >= gridMarketMinWidth; got != want {
				t.Errorf("the Market pane shown: %v, want %v:\n%s", got, want, out)
			}
		})
	}
}

// TestLayoutStaysWhenFillsWiden: the layout changes only with the
// screen's size. Wider fills coming in (the simulator's) at 150–169
// columns took the Market pane off the bottom row with no resize (the
// Fills' Time did not fit beside it there); now the Market pane shows
// on the bottom row from 170 columns, where those fills keep their Time
// beside it, and at 150–169 it is a key away, whatever the fills hold.
func TestLayoutStaysWhenFillsWiden(t *testing.T) {
	for _, w := range []int{150, 160, 169, 170, 200} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			b := newTestBackend(longSymbolSnapshot())
			m := sized(New(b, &testTrader{}, WithNow(fixedNow), WithMarket(marketHub(longSymbolMarket()), "USDT"), WithNoColor(true)), w, 40)
			before := m.lay
			wide := wideFillsSnapshot()
			wide.Version++
			b.hub.Publish(wide)
			mm, _ := m.Update(hubMsg{at: time.Now()})
			m = mm.(Model)
			if m.lay != before {
				t.Errorf("wide fills changed the layout with no resize: Market on the bottom row %v → %v", before.gridMarket, m.lay.gridMarket)
			}
			out := ansi.Strip(m.View().Content)
			if got, want := strings.Contains(out, "Market ("), w >= gridMarketMinWidth; got != want {
				t.Errorf("the Market pane shown: %v, want %v:\n%s", got, want, out)
			}
			if !strings.Contains(out, "Time     Symbol") {
				t.Errorf("the Fills pane lost its Time column:\n%s", out)
			}
		})
	}
}

// TestPositionsKeepPnL (QA): at 40×10 the Positions pane never showed the
// unrealized PnL: it is the last of the columns that always show, and
// Symbol, Side, Mark and Total took the width ("ETH-PERP SHORT 3008.04
// 0.2 …"). The Mark now gives way before it, with short and long symbols
// (the simulator's BTC-PERP-REV).
func TestPositionsKeepPnL(t *testing.T) {
	for _, long := range []bool{false, true} {
		for _, sz := range [][2]int{{40, 10}, {80, 24}} {
			t.Run(fmt.Sprintf("long=%v/%dx%d", long, sz[0], sz[1]), func(t *testing.T) {
				snap, mk := testSnapshot(), testMarket()
				if long {
					snap, mk = longSymbolSnapshot(), longSymbolMarket()
				}
				opts := []Option{WithNow(fixedNow), WithMarket(marketHub(mk), "USDT"), WithNoColor(true)}
				m := press(t, sized(New(newTestBackend(snap), &testTrader{}, opts...), sz[0], sz[1]), "3")
				out := ansi.Strip(m.View().Content) // the goldens: TestLongSymbols, TestMarketScreens
				checkScreen(t, out, sz[0], sz[1])
				for _, want := range []string{"uPnL", "+3748.50", "+395.00"} {
					if !strings.Contains(out, want+" ") && !strings.Contains(out, want+"\n") {
						t.Errorf("the Positions pane does not show %q whole:\n%s", want, out)
					}
				}
			})
		}
	}
}

// TestPositionsMarkGivesWayOnlyToPnL: the Mark gives way to the uPnL
// (TestPositionsKeepPnL), never to a column that narrow screens drop
// before it: from 42 to 49 columns the pane showed the Avg Price where
// the Mark had been (the Mark, now of prio 1, came after it), and at 49
// with BTC-PERP-REV lost the uPnL% it had.
func TestPositionsMarkGivesWayOnlyToPnL(t *testing.T) {
	optional := []string{"Avg Price", "Index", "Avail", "uPnL%", "Liq. Price", "To Liq", "Margin", "Real. PnL"}
	for _, long := range []bool{false, true} {
		for w := 40; w <= 120; w++ {
			snap, mk := testSnapshot(), testMarket()
			if long {
				snap, mk = longSymbolSnapshot(), longSymbolMarket()
			}
			opts := []Option{WithNow(fixedNow), WithMarket(marketHub(mk), "USDT"), WithNoColor(true)}
			m := press(t, sized(New(newTestBackend(snap), &testTrader{}, opts...), w, 24), "3")
			out := ansi.Strip(m.View().Content)
			head := ""
			for l := range strings.Lines(out) {
				if strings.HasPrefix(l, "  Symbol ") {
					head = l
					break
				}
			}
			if !strings.Contains(head, " uPnL ") && !strings.HasSuffix(strings.TrimRight(head, " \n"), " uPnL") {
				t.Errorf("long=%v %d columns: no uPnL in %q", long, w, head)
			}
			if strings.Contains(head, " Mark ") {
				continue
			}
			for _, c := range optional {
				if strings.Contains(head, c) {
					t.Errorf("long=%v %d columns: %s shows but not the Mark: %q", long, w, c, head)
					break
				}
			}
		}
	}
}

// widerFillsSnapshot has fills wider than 60 cells with their Time: a
// long contract symbol closing, prices and quantities of many decimals.
func widerFillsSnapshot() *state.Snapshot {
	s := wideFillsSnapshot()
	s.Fills = append(s.Fills,
		state.Fill{Market: "contract", Symbol: "ETHUSDT-PERP-REV", OrderID: "1008", TradeID: "5008", Side: "SELL_CLOSE", Price: "2150.125", Qty: "0.000082914", QuoteQty: "0.17827",
			Commission: "0.00010696", CommissionAsset: "USDT", RealizedPnl: "0.0123", Time: t0.Add(-20 * time.Second).UnixMilli()},
	)
	return s
}

// TestFillsGetTheirWidth: from 170 columns the layout gives the Fills
// pane the width its always-shown columns and Time need with fills wider
// than 60 cells (a long symbol closing, many decimals): at 170 the
// Market pane took 68 cells where its columns and Trend need about 60
// and the Fills lost their Time; at 200 the Fills show their fee too.
// The Market keeps its Trend, the Events their 40 cells, no number cut.
func TestFillsGetTheirWidth(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want []string // in the Fills' column header
	}{
		{170, 50, []string{"Time     Symbol"}},
		{200, 60, []string{"Time     Symbol", "Fee"}},
	} {
		t.Run(fmt.Sprintf("%dx%d", tc.w, tc.h), func(t *testing.T) {
			opts := []Option{WithNow(fixedNow), WithMarket(marketHub(longSymbolMarket()), "USDT"), WithNoColor(true)}
			m := press(t, sized(New(newTestBackend(widerFillsSnapshot()), &testTrader{}, opts...), tc.w, tc.h), "6")
			out := plainGolden(t, m, tc.w, tc.h)
			fills := m.lay.panes[paneFills]
			lines := strings.Split(out, "\n")
			head := ansi.Cut(lines[fills.y+1], fills.x, fills.x+fills.w)
			for _, w := range tc.want {
				if !strings.Contains(head, w) {
					t.Errorf("the Fills' columns %q lack %q:\n%s", head, w, out)
				}
			}
			mkt := m.lay.panes[paneMarket]
			if head := ansi.Cut(lines[mkt.y+1], mkt.x, mkt.x+mkt.w); !strings.Contains(head, "Trend") {
				t.Errorf("the Market pane lost its Trend (%q):\n%s", head, out)
			}
			if ev := m.lay.panes[paneEvents].w; ev < 40 {
				t.Errorf("the Events pane is %d cells, want 40 at least", ev)
			}
			if cut := cutNumber.FindString(strings.Join(lines[2:len(lines)-2], "\n")); cut != "" {
				t.Errorf("a number is cut (%q):\n%s", cut, out)
			}
		})
	}
}
