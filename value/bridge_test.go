package value

import (
	"testing"

	"bhtop/market"
	"bhtop/state"
)

// TestBridgePricedAsset: an asset with no symbol against the valuation
// asset, nor a route through BTC, is priced through the first other
// bridge (by name) that prices both legs, and valued the same by Price,
// RouteSymbol, Equity, Of and a Valuer: XRP has spot symbols with BNB,
// ETH and KCS (and a contract, which is no bridge); BNB has no USDT
// price, so ETH, the next, prices it: 0.0002 ETH × 3000 = 0.6 USDT. ZZZ,
// paired only with assets that have no price, stays unpriced.
func TestBridgePricedAsset(t *testing.T) {
	m := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{
		"XRPBNB": {Last: "0.001"}, "XRPETH": {Last: "0.0002"}, "KCSXRP": {Last: "4"},
		"ETHUSDT": {Last: "3000"}, "KCSUSDT": {Last: "2"}, "BTCUSDT": {Last: "60000"},
		"ZZZBNB": {Last: "7"}, "XRP-PERP": {Last: "0.5"},
	}, Instruments: map[string]market.Instrument{
		"XRPBNB":   {Symbol: "XRPBNB", Base: "XRP", Quote: "BNB"},
		"XRPETH":   {Symbol: "XRPETH", Base: "XRP", Quote: "ETH"},
		"KCSXRP":   {Symbol: "KCSXRP", Base: "KCS", Quote: "XRP"},
		"ETHUSDT":  {Symbol: "ETHUSDT", Base: "ETH", Quote: "USDT"},
		"KCSUSDT":  {Symbol: "KCSUSDT", Base: "KCS", Quote: "USDT"},
		"BTCUSDT":  {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT"},
		"ZZZBNB":   {Symbol: "ZZZBNB", Base: "ZZZ", Quote: "BNB"},
		"XRP-PERP": {Symbol: "XRP-PERP", Base: "XRP", Quote: "AAA", Contract: true, Multiplier: "1"},
	}}
	s := &state.Snapshot{Balances: []state.Balance{
		{Asset: "USDT", Free: "1", Locked: "0"},
		{Asset: "XRP", Free: "10", Locked: "5"},
		{Asset: "ZZZ", Free: "1", Locked: "0"},
	}}
	if p, ok := Price(m, "XRP", "USDT"); !ok || !p.Equal(d("0.6")) {
		t.Errorf("Price(XRP in USDT) = %s, %v; want 0.6 through ETH", p, ok)
	}
	if sym, ok := RouteSymbol(m, "XRP", "USDT"); !ok || sym != "XRPETH" {
		t.Errorf("RouteSymbol(XRP in USDT) = %q, %v; want XRPETH", sym, ok)
	}
	eq, unp, ok := Equity(s, m, "USDT")
	if !ok || !eq.Equal(d("10")) || len(unp) != 1 || unp[0] != "ZZZ" {
		t.Errorf("Equity = %s %v %v; want 10 (1 + 15 × 0.6), ZZZ unpriced", eq, unp, ok)
	}
	var v Valuer
	for name, val := range map[string]*Valuation{"Of": Of(s, m, "USDT"), "Valuer.Of": v.Of(s, m, "USDT")} {
		if val == nil || !val.Equity.Equal(d("10")) {
			t.Fatalf("%s = %+v, want equity 10", name, val)
		}
		xrp := val.Assets[1]
		if xrp.Price == nil || !xrp.Price.Equal(d("0.6")) || xrp.Value == nil || !xrp.Value.Equal(d("9")) {
			t.Errorf("%s: XRP price %v value %v, want 0.6 and 9", name, xrp.Price, xrp.Value)
		}
		if val.Assets[2].Price != nil || len(val.Unpriced) != 1 || val.Unpriced[0] != "ZZZ" {
			t.Errorf("%s: ZZZ priced %v, unpriced %v; want ZZZ unpriced", name, val.Assets[2].Price, val.Unpriced)
		}
	}
	// Valued in XRP: USDT goes through ETH too (1/3000, to 18 digits, × 1/0.0002).
	if p, ok := Price(m, "USDT", "XRP"); !ok || !p.Equal(d("1.666666666666666665")) {
		t.Errorf("Price(USDT in XRP) = %s, %v; want 1.666666666666666665", p, ok)
	}
}
