package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestHistoryLastOfUnfollowedSymbol: in the closed orders (h), a symbol
// the market data no longer follows (no open order, balance or position
// touches it) has no last price: its Last reads "—" (not blank, which
// looks like a price not loaded yet) and the title says why; a followed
// symbol's closed order shows its last price.
func TestHistoryLastOfUnfollowedSymbol(t *testing.T) {
	ms := testMarket()
	delete(ms.Quotes, "ETHUSDT")
	m := press(t, marketModel(ms, 160, 48), "h")
	out := plainGolden(t, m, 160, 48)
	var eth, btc, title string
	for _, l := range strings.Split(out, "\n") {
		switch {
		case strings.Contains(l, "Order History"):
			title = l
		case strings.Contains(l, " 1003 "):
			eth = l
		case strings.Contains(l, " 1004 "):
			btc = l
		}
	}
	if !strings.Contains(eth, " — ") {
		t.Errorf("the closed ETHUSDT order (symbol not followed) does not read — in Last: %q", eth)
	}
	if !strings.Contains(btc, "61020.5") {
		t.Errorf("the closed BTCUSDT order (followed) does not show its last price: %q", btc)
	}
	if !strings.Contains(title, "Last —: its symbol is not followed now") {
		t.Errorf("the title does not say why a Last reads —: %q", title)
	}
}

// TestHistoryNoLastNoteWithoutLast: on a screen too narrow for the Last
// column (80×24 with the simulator's wide numbers) the closed orders' title does not explain a "—" in a
// column that is not shown.
func TestHistoryNoLastNoteWithoutLast(t *testing.T) {
	ms := testMarket()
	delete(ms.Quotes, "ETHUSDT")
	snap := testSnapshot()
	for _, o := range snap.Orders.All() { // the fixture's own orders, not shared
		if o.OrderID == "1003" { // the closed ETHUSDT order: numbers as wide as the simulator's
			o.Price, o.Quantity, o.ExecutedQty = "2100.12345678", "17366.02319043", "17366.02319043"
		}
	}
	for _, sz := range [][2]int{{40, 15}, {60, 20}, {80, 24}, {100, 30}} {
		m := sized(New(newTestBackend(snap), &testTrader{}, WithNow(fixedNow), WithMarket(marketHub(ms), "USDT"), WithNoColor(true)), sz[0], sz[1])
		m = press(t, m, "2 h")
		out := ansi.Strip(m.View().Content)
		header := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Symbol") {
				header = l
				break
			}
		}
		if shown := strings.Contains(header, " Last "); shown != strings.Contains(out, "not followed now") {
			t.Errorf("%dx%d: the Last column shown %v, its note shown %v:\n%s", sz[0], sz[1], shown, !shown, out)
		}
	}
}

// TestHistoryShowsNoOpenOnlyColumns: the closed orders have no distance
// to fill and none is working: their To Fill and W columns, always
// blank, are not shown, so that at 80×24 with the simulator's wide
// numbers the Age (how long ago) fits; it was pushed out by them.
func TestHistoryShowsNoOpenOnlyColumns(t *testing.T) {
	snap := testSnapshot()
	for _, o := range snap.Orders.All() { // the fixture's own orders, not shared
		if o.OrderID == "1003" {
			o.Price, o.Quantity, o.ExecutedQty = "2100.12345678", "17366.02319043", "17366.02319043"
		}
	}
	m := sized(New(newTestBackend(snap), &testTrader{}, WithNow(fixedNow), WithMarket(marketHub(testMarket()), "USDT"), WithNoColor(true)), 80, 24)
	for _, tc := range []struct {
		keys      string
		want, not []string
	}{
		{"2 h", []string{"Age"}, []string{"To Fill", " W "}},
		{"2 h h", []string{"To Fill"}, nil}, // the open orders keep theirs
	} {
		out := ansi.Strip(press(t, m, tc.keys).View().Content)
		header := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "Symbol") {
				header = l
				break
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(header, w) {
				t.Errorf("%s: the header %q lacks %q", tc.keys, header, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(header, w) {
				t.Errorf("%s: the header %q shows %q", tc.keys, header, w)
			}
		}
	}
}
