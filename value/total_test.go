package value

import (
	"slices"
	"testing"

	"bhtop/market"
	"bhtop/state"
)

func TestSum(t *testing.T) {
	mkt := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{
		"BTCUSDT": {Symbol: "BTCUSDT", Last: "60000"},
	}}
	val := func(asset, equity string, unpriced ...string) *Valuation {
		return &Valuation{Asset: asset, Equity: d(equity), Unpriced: unpriced}
	}
	noMarket := &state.Snapshot{Balances: []state.Balance{{Asset: "ETH", Free: "1", Locked: "0"}, {Asset: "XRP", Free: "0", Locked: "0"}}}
	tests := []struct {
		name     string
		parts    []Part
		equity   string
		unpriced []string
		missing  []string
	}{
		{"none", nil, "0", []string{}, []string{}},
		{"same asset adds", []Part{{Name: "a", Val: val("USDT", "100.5")}, {Name: "b", Val: val("USDT", "0.25")}}, "100.75", []string{}, []string{}},
		{"another asset converts", []Part{{Val: val("USDT", "100")}, {Market: mkt, Val: val("BTC", "0.5")}}, "30100", []string{}, []string{}},
		{"no route: its asset is unpriced, the account missing", []Part{{Name: "a", Val: val("USDT", "1")}, {Name: "b", Market: mkt, Val: val("DOGE", "5")}}, "1", []string{"DOGE"}, []string{"b"}},
		{"unpriced assets join, sorted, once", []Part{{Val: val("USDT", "1", "ZZZ", "ABC")}, {Val: val("USDT", "2", "ABC")}}, "3", []string{"ABC", "ZZZ"}, []string{}},
		{"no valuation: its non-zero balances are unpriced, the account missing", []Part{{Name: "a", State: noMarket}, {Name: "b", Val: val("USDT", "7")}}, "7", []string{"ETH"}, []string{"a"}},
		{"unknown: nothing of it counted, the account missing", []Part{{Name: "a", Val: val("USDT", "7")}, {Name: "bad", State: noMarket, Val: val("USDT", "5", "ETH"), Unknown: true}, {Name: "c", Unknown: true}}, "7", []string{}, []string{"bad", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sum("USDT", tt.parts)
			if got.Asset != "USDT" || !got.Equity.Equal(d(tt.equity)) || !slices.Equal(got.Unpriced, tt.unpriced) || !slices.Equal(got.Missing, tt.missing) {
				t.Errorf("Sum() = %s %s %q missing %q, want %s %q missing %q", got.Equity, got.Asset, got.Unpriced, got.Missing, tt.equity, tt.unpriced, tt.missing)
			}
		})
	}
}

func TestUnrealizedIn(t *testing.T) {
	mkt := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{"BTCUSDT": {Symbol: "BTCUSDT", Last: "60000"}}}
	pv := func(pnl, asset string) PositionValue {
		p := d(pnl)
		return PositionValue{Unrealized: &p, PnLAsset: asset}
	}
	tests := []struct {
		name string
		pos  []PositionValue
		want string
		ok   bool
	}{
		{"no positions", nil, "0", true},
		{"linear in the asset", []PositionValue{pv("10.5", "USDT"), pv("-0.5", "USDT")}, "10", true},
		{"inverse converted", []PositionValue{pv("0.001", "BTC"), pv("4", "USDT")}, "64", true},
		{"unknown PnL", []PositionValue{{PnLAsset: "USDT"}}, "0", false},
		{"no route", []PositionValue{pv("1", "DOGE")}, "0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := UnrealizedIn(&Valuation{Asset: "USDT", Positions: tt.pos}, mkt)
			if ok != tt.ok || (ok && !got.Equal(d(tt.want))) {
				t.Errorf("UnrealizedIn() = %s, %v; want %s, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
	if _, ok := UnrealizedIn(nil, mkt); ok {
		t.Error("UnrealizedIn(nil) ok, want not ok")
	}
}

// TestLeft: why a part is left out of a Sum, "" when it is counted.
func TestLeft(t *testing.T) {
	mkt := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{"BTCUSDT": {Symbol: "BTCUSDT", Last: "60000"}}}
	usdt, btc, doge := &Valuation{Asset: "USDT"}, &Valuation{Asset: "BTC"}, &Valuation{Asset: "DOGE"}
	for _, tt := range []struct {
		p    Part
		want string
	}{
		{Part{Val: usdt}, ""},
		{Part{Market: mkt, Val: btc}, ""},
		{Part{Val: usdt, Unknown: true}, "no snapshot yet"},
		{Part{}, "no market data"},
		{Part{Market: mkt, Val: doge}, "no price DOGE→USDT"},
	} {
		if got := Left(tt.p, "USDT"); got != tt.want {
			t.Errorf("Left(%+v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}
