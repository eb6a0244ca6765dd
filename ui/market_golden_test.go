package ui

import (
	"fmt"
	"strings"
	"testing"

	"bhtop/market"
)

// Golden screens with market data: the market columns of each pane, the
// Market pane, the chart at two intervals and the order form's quote
// lines, at 80×24 and 160×48 in each theme (as TestScreens).
var marketViews = []goldenView{
	{"balances", "1"},
	{"orders", "2"},
	{"positions", "3"},
	{"market", "5"},
	{"chart", "2 down down down c"},
	{"chart-5m", "2 down down down c right"},
	{"form-quote", "n down down down down type:0.01 down type:60000"},
	{"form-cross", "n down down down down type:0.01 down a"},
	{"review-cross", "n down down down down type:0.01 down a enter"},
	{"privacy", "3 p"},
	{"fills", "6"},
	{"review-contract-opponent", "n up right down down down down right down down type:10 down type:5 enter"},
	{"close", "3 down x"},
}

func marketModel(ms *market.Snapshot, w, h int, opts ...Option) Model {
	opts = append([]Option{WithNow(fixedNow), WithMarket(marketHub(ms), "USDT")}, opts...)
	return sized(New(newTestBackend(testSnapshot()), &testTrader{}, opts...), w, h)
}

func TestMarketScreens(t *testing.T) {
	screens(t, marketViews, func(w, h int, opts ...Option) Model { return marketModel(testMarket(), w, h, opts...) })
}

// TestNoMarketDataHeader: with the quote service down, the header says
// so and why, and the panes still show the account.
func TestNoMarketDataHeader(t *testing.T) {
	down := &market.Snapshot{Health: market.Health{Reason: "quote endpoints answer 404"}}
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := press(t, marketModel(down, sz[0], sz[1]), "5")
			if out := plainGolden(t, m, sz[0], sz[1]); !strings.Contains(out, "no market data (quote endpoints answer 404)") {
				t.Errorf("header does not say why there is no market data:\n%s", out)
			}
		})
	}
}
