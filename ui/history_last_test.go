package ui

import (
	"strings"
	"testing"
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
