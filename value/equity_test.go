package value

import (
	"fmt"
	"slices"
	"testing"

	"bhtop/market"
	"bhtop/state"
)

// TestEquityAgreesWithOf: Equity gives Of's Equity and Unpriced exactly,
// on the test account (unpriced assets and PnL, an unknown contract), in
// two valuation assets, on the benchmark's 1,500 rows, and with no market.
func TestEquityAgreesWithOf(t *testing.T) {
	small := &state.Snapshot{
		Balances: []state.Balance{
			{Asset: "BTC", Free: "0.5", Locked: "0"}, {Asset: "DOGE", Free: "0", Locked: "0"},
			{Asset: "ETH", Free: "1.5", Locked: "0.5"}, {Asset: "XYZ", Free: "5", Locked: "0"},
			{Asset: "ABC", Free: "1", Locked: "0"}, {Asset: "XYZ", Free: "1", Locked: "0"},
			{Asset: "USDT", Free: "900", Locked: "100"},
		},
		Positions: []state.Position{
			{Symbol: "BTC-PERP-REV", Side: "LONG", AvgPrice: "8000", Total: "1000", Margin: "0.1"},
			{Symbol: "ETH-PERP", Side: "SHORT", AvgPrice: "3000", Total: "2", Margin: "600"},
			{Symbol: "NOPE-PERP", Side: "SHORT", AvgPrice: "1", Total: "1", Margin: "1"},
		},
	}
	big, bigMarket := benchAccount()
	cases := []struct {
		s  *state.Snapshot
		m  *market.Snapshot
		in string
	}{
		{small, testMarket(), "USDT"}, {small, testMarket(), "BTC"}, {small, testMarket(), "ETH"},
		{nil, testMarket(), "USDT"}, {small, &market.Snapshot{}, "USDT"}, {small, nil, "USDT"},
		{big, bigMarket, "USDT"}, {big, bigMarket, "BTC"}, {big, bigMarket, "A007"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i, c.in), func(t *testing.T) {
			v := Of(c.s, c.m, c.in)
			eq, unpriced, ok := Equity(c.s, c.m, c.in)
			if ok != (v != nil) {
				t.Fatalf("Equity ok = %v, Of = %v", ok, v)
			}
			if v == nil {
				return
			}
			if !eq.Equal(v.Equity) || eq.String() != v.Equity.String() || !slices.Equal(unpriced, v.Unpriced) {
				t.Errorf("Equity = %s %v, Of = %s %v", eq, unpriced, v.Equity, v.Unpriced)
			}
		})
	}
}
