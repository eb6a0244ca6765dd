package value

import (
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestRatios: the package's two divisions, hand-worked; want "" means the
// function must say not ok (a zero divisor).
func TestRatios(t *testing.T) {
	funcs := map[string]func(a, b decimal.Decimal) (decimal.Decimal, bool){"div": div, "DistancePct": DistancePct}
	tests := []struct{ f, a, b, want string }{
		{"div", "1", "3", "0.333333333333333333"},
		{"div", "2", "3", "0.666666666666666667"},
		{"div", "-2", "3", "-0.666666666666666667"},
		{"div", "2", "-3", "-0.666666666666666667"},
		{"div", "10", "4", "2.5"},
		{"div", "1", "7", "0.142857142857142857"},
		{"div", "100000000000000000000", "3", "33333333333333333300"},
		{"div", "1", "60000", "0.0000166666666666666667"},
		{"div", "0", "5", "0"},
		{"div", "999999999999999999.5", "1", "1000000000000000000"},
		{"div", "1e-30", "3", "3.33333333333333333e-31"},
		{"div", "1", "0", ""},
		{"DistancePct", "100", "110", "10"},
		{"DistancePct", "100", "90", "-10"},
		{"DistancePct", "3011.5", "2500", "-16.9848912502075378"},
		{"DistancePct", "3", "4", "33.3333333333333333"},
		{"DistancePct", "0", "1", ""},
	}
	for _, tt := range tests {
		got, ok := funcs[tt.f](d(tt.a), d(tt.b))
		if tt.want == "" {
			if ok {
				t.Errorf("%s(%s, %s) = %s, ok; want not ok", tt.f, tt.a, tt.b, got)
			}
		} else if !ok || !got.Equal(d(tt.want)) {
			t.Errorf("%s(%s, %s) = %s, %v; want %s", tt.f, tt.a, tt.b, got, ok, tt.want)
		}
	}
}

func TestUnrealized(t *testing.T) {
	tests := []struct {
		name             string
		side, q, p, m, k string
		inverse          bool
		want             string
		wantOK           bool
	}{
		{"linear long", "LONG", "2", "3000", "3011.5", "1", false, "23", true},
		{"linear short", "SHORT", "2", "3000", "3011.5", "1", false, "-23", true},
		{"linear multiplier", "LONG", "2", "3000", "3011.5", "0.1", false, "2.3", true},
		{"inverse long", "LONG", "1000", "8000", "10000", "1", true, "0.025", true},
		{"inverse short", "SHORT", "1000", "8000", "10000", "1", true, "-0.025", true},
		{"inverse multiplier", "LONG", "1000", "8000", "10000", "0.5", true, "0.0125", true},
		// 1·(1/3 − 1/6) = 1/6, one division to 18 significant digits.
		{"inverse repeating", "LONG", "1", "3", "6", "1", true, "0.166666666666666667", true},
		{"inverse repeating short", "SHORT", "1", "3", "6", "1", true, "-0.166666666666666667", true},
		{"zero mark", "LONG", "1", "3", "0", "1", false, "", false},
		{"zero avg", "LONG", "1", "0", "3", "1", true, "", false},
		{"bad side", "BOTH", "1", "3", "4", "1", false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Unrealized(tt.side, d(tt.q), d(tt.p), d(tt.m), d(tt.k), tt.inverse)
			if ok != tt.wantOK || ok && !got.Equal(d(tt.want)) {
				t.Errorf("Unrealized(%s %s @%s mark %s K %s inverse %v) = %s, %v; want %s, %v",
					tt.side, tt.q, tt.p, tt.m, tt.k, tt.inverse, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

// testMarket is the hand-worked market of the tests: BTC 60000 USDT, ETH
// 3000 USDT and 0.05 BTC, LTC only against BTC, BHT only against ETH, and
// two contracts.
func testMarket() *market.Snapshot {
	q := func(last string) market.Quote { return market.Quote{Last: last} }
	return &market.Snapshot{
		Version: 1,
		Quotes: map[string]market.Quote{
			"BTCUSDT":      q("60000"),
			"ETHUSDT":      q("3000"),
			"ETHBTC":       q("0.05"),
			"LTCBTC":       q("0.002"),
			"BHTETH":       q("0.0001"),
			"ZEROUSDT":     q("0"),
			"ETH-PERP":     {Last: "3010", Mark: "3011.5"},
			"BTC-PERP-REV": {Last: "10000", Index: "10010"},
		},
		Instruments: map[string]market.Instrument{
			"BTCUSDT":      {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT"},
			"ETHUSDT":      {Symbol: "ETHUSDT", Base: "ETH", Quote: "USDT"},
			"ETHBTC":       {Symbol: "ETHBTC", Base: "ETH", Quote: "BTC"},
			"LTCBTC":       {Symbol: "LTCBTC", Base: "LTC", Quote: "BTC"},
			"BHTETH":       {Symbol: "BHTETH", Base: "BHT", Quote: "ETH"},
			"ETH-PERP":     {Symbol: "ETH-PERP", Base: "ETH", Quote: "USDT", Contract: true, Multiplier: "1", MarginAsset: "USDT", Index: "ETHUSDT"},
			"BTC-PERP-REV": {Symbol: "BTC-PERP-REV", Base: "BTC", Quote: "USDT", Contract: true, Inverse: true, Multiplier: "1", MarginAsset: "BTC", Index: "BTCUSDT"},
		},
	}
}

func TestPrice(t *testing.T) {
	m := testMarket()
	tests := []struct {
		name, asset, in, want string
		ok                    bool
	}{
		{"itself", "USDT", "USDT", "1", true},
		{"A+V", "BTC", "USDT", "60000", true},
		{"1/(V+A)", "USDT", "BTC", "0.0000166666666666666667", true},
		{"A+V before bridge", "ETH", "BTC", "0.05", true},
		{"bridged through BTC", "LTC", "USDT", "120", true},
		{"bridged inverse leg", "USDT", "LTC", "0.00833333333333333335", true},
		{"bridged through another asset", "BHT", "USDT", "0.3", true},
		{"unpriced", "XYZ", "USDT", "", false},
		{"zero last routes nothing", "ZERO", "USDT", "", false},
		{"valuation asset unknown to the market", "USDT", "EUR", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Price(m, tt.asset, tt.in)
			if ok != tt.ok || ok && !got.Equal(d(tt.want)) {
				t.Errorf("Price(%s in %s) = %s, %v; want %s, %v", tt.asset, tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestOf(t *testing.T) {
	s := &state.Snapshot{
		Balances: []state.Balance{
			{Asset: "BTC", Free: "0.5", Locked: "0"},
			{Asset: "DOGE", Free: "0", Locked: "0"},
			{Asset: "ETH", Free: "1.5", Locked: "0.5"},
			{Asset: "LTC", Free: "10", Locked: "0"},
			{Asset: "USDT", Free: "900", Locked: "100"},
			{Asset: "XYZ", Free: "5", Locked: "0"},
		},
		Positions: []state.Position{
			{Symbol: "BTC-PERP-REV", Side: "LONG", AvgPrice: "8000", Total: "1000", Margin: "0.1", LiquidationPrice: "7000"},
			{Symbol: "ETH-PERP", Side: "LONG", AvgPrice: "3000", Total: "2", Margin: "600", LiquidationPrice: "2500"},
			{Symbol: "NOPE-PERP", Side: "SHORT", AvgPrice: "1", Total: "1", Margin: "1"},
		},
	}
	v := Of(s, testMarket(), "USDT")
	if v == nil {
		t.Fatal("Of = nil, want a valuation")
	}
	// 0.5·60000 + 2·3000 + 10·120 + 1000 + 0.025 BTC·60000 + 23 USDT
	if want := d("39723"); !v.Equity.Equal(want) {
		t.Errorf("Equity = %s, want %s", v.Equity, want)
	}
	if len(v.Unpriced) != 1 || v.Unpriced[0] != "XYZ" {
		t.Errorf("Unpriced = %v, want [XYZ] (DOGE is zero)", v.Unpriced)
	}
	wantAssets := map[string][2]string{ // price, value
		"BTC": {"60000", "30000"}, "ETH": {"3000", "6000"}, "LTC": {"120", "1200"}, "USDT": {"1", "1000"},
	}
	for _, a := range v.Assets {
		w, priced := wantAssets[a.Asset]
		if !priced {
			if a.Price != nil || a.Value != nil || a.Share != nil {
				t.Errorf("%s: price %v value %v share %v, want all nil", a.Asset, a.Price, a.Value, a.Share)
			}
			continue
		}
		if a.Price == nil || !a.Price.Equal(d(w[0])) || a.Value == nil || !a.Value.Equal(d(w[1])) {
			t.Errorf("%s: price %v value %v, want %s %s", a.Asset, a.Price, a.Value, w[0], w[1])
		}
	}
	if sh := v.Assets[4].Share; sh == nil || !sh.Equal(d("0.0251743322508370465")) {
		t.Errorf("USDT share = %v, want 1000/39723", sh)
	}
	inv, lin, unk := v.Positions[0], v.Positions[1], v.Positions[2]
	if inv.Unrealized == nil || !inv.Unrealized.Equal(d("0.025")) || inv.PnLAsset != "BTC" {
		t.Errorf("inverse PnL = %v %s, want 0.025 BTC", inv.Unrealized, inv.PnLAsset)
	}
	if inv.Mark == nil || !inv.Mark.Equal(d("10000")) || inv.Index == nil || !inv.Index.Equal(d("10010")) {
		t.Errorf("inverse mark %v index %v, want last 10000 and 10010", inv.Mark, inv.Index)
	}
	if inv.UnrealizedPct == nil || !inv.UnrealizedPct.Equal(d("25")) {
		t.Errorf("inverse PnL%% = %v, want 25", inv.UnrealizedPct)
	}
	if inv.LiquidationPct == nil || !inv.LiquidationPct.Equal(d("-30")) {
		t.Errorf("inverse liquidation distance = %v, want -30", inv.LiquidationPct)
	}
	if lin.Unrealized == nil || !lin.Unrealized.Equal(d("23")) || lin.PnLAsset != "USDT" {
		t.Errorf("linear PnL = %v %s, want 23 USDT", lin.Unrealized, lin.PnLAsset)
	}
	if lin.Mark == nil || !lin.Mark.Equal(d("3011.5")) {
		t.Errorf("linear mark = %v, want the quote's Mark 3011.5", lin.Mark)
	}
	if lin.UnrealizedPct == nil || !lin.UnrealizedPct.Equal(d("3.83333333333333333")) {
		t.Errorf("linear PnL%% = %v, want 23/600·100", lin.UnrealizedPct)
	}
	if lin.LiquidationPct == nil || !lin.LiquidationPct.Equal(d("-16.9848912502075378")) {
		t.Errorf("linear liquidation distance = %v", lin.LiquidationPct)
	}
	if unk.Mark != nil || unk.Unrealized != nil || unk.UnrealizedPct != nil {
		t.Errorf("unknown contract: %+v, want nothing known", unk)
	}
}

func TestOfInBTC(t *testing.T) {
	s := &state.Snapshot{Balances: []state.Balance{{Asset: "USDT", Free: "60000", Locked: "0"}, {Asset: "ETH", Free: "1", Locked: "0"}}}
	v := Of(s, testMarket(), "BTC")
	// 60000 · 1/60000 (18 significant digits) + 1 · 0.05
	if want := d("1.050000000000000002"); !v.Equity.Equal(want) {
		t.Errorf("Equity in BTC = %s, want %s", v.Equity, want)
	}
}

func TestOfNoMarket(t *testing.T) {
	s := &state.Snapshot{Balances: []state.Balance{{Asset: "USDT", Free: "1", Locked: "0"}}}
	if v := Of(s, &market.Snapshot{}, "USDT"); v != nil {
		t.Errorf("Of(no market data) = %+v, want nil", v)
	}
	if v := Of(s, nil, "USDT"); v != nil {
		t.Errorf("Of(nil market) = %+v, want nil", v)
	}
}

// TestDivSmallAgreesWithBig: the integer fast path and the big-number
// division give the same quotients.
func TestDivSmallAgreesWithBig(t *testing.T) {
	nums := []string{"1", "3", "7", "-2", "0.5", "61234.56", "0.0013752", "999999999999999999", "123456789012345678",
		"-0.000000001", "100000000000000000", "3.33", "8183.11", "1e-20", "12345e10"}
	for _, a := range nums {
		for _, b := range nums {
			fast, ok := divSmall(d(a), d(b))
			if !ok {
				continue
			}
			lead := func(x decimal.Decimal) int64 { return int64(x.NumDigits()) - 1 + int64(x.Exponent()) }
			q, _ := d(a).QuoRem(d(b), int32(sigDigits+1-(lead(d(a))-lead(d(b)))))
			if slow := roundSig(q, sigDigits); !fast.Equal(slow) {
				t.Errorf("divSmall(%s, %s) = %s, big division %s", a, b, fast, slow)
			}
		}
	}
}

// TestRouteSymbol: the first symbol of each valuation route.
func TestRouteSymbol(t *testing.T) {
	m := &market.Snapshot{Quotes: map[string]market.Quote{
		"ETHBTC": {Last: "0.05"}, "BTCUSDT": {Last: "60000"}, "BHTUSDT": {Last: "0.01"},
	}, Instruments: map[string]market.Instrument{
		"ETHBTC": {Base: "ETH", Quote: "BTC"}, "BTCUSDT": {Base: "BTC", Quote: "USDT"}, "BHTUSDT": {Base: "BHT", Quote: "USDT"},
	}}
	for _, tc := range []struct{ asset, in, want string }{
		{"BTC", "USDT", "BTCUSDT"}, // direct
		{"USDT", "BTC", "BTCUSDT"}, // inverse
		{"ETH", "USDT", "ETHBTC"},  // through BTC
		{"BHT", "BTC", "BHTUSDT"},  // through another bridge
		{"XYZ", "USDT", ""},        // no route
		{"USDT", "USDT", ""},       // itself
	} {
		got, ok := RouteSymbol(m, tc.asset, tc.in)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("RouteSymbol(%s in %s) = %q, %v; want %q", tc.asset, tc.in, got, ok, tc.want)
		}
	}
}
