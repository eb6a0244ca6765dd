package actions

import (
	"testing"

	"bhtop/rest"
	"bhtop/state"
)

var ethPerp = rest.ContractSymbol{Symbol: rest.Symbol{Symbol: "ETH-PERP", Status: "TRADING", BaseAsset: "ETH", QuoteAsset: "USDT",
	MinPrice: "0.01", MaxPrice: "10000000", TickSize: "0.01", MinQty: "0.01", MaxQty: "100000", StepSize: "0.01", MinNotional: "5"},
	MarginAsset: "USDT", Multiplier: "1"}

var btcRev = rest.ContractSymbol{Symbol: rest.Symbol{Symbol: "BTC-PERP-REV", Status: "TRADING", BaseAsset: "BTC", QuoteAsset: "USDT",
	MinPrice: "0.5", TickSize: "0.5", MinQty: "1", StepSize: "1"}, Inverse: true, MarginAsset: "BTC"}

func TestCheckContractOrder(t *testing.T) {
	ok := rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "1.5", Price: "3000.25", Leverage: "10"}
	with := func(f func(*rest.ContractOrderRequest)) rest.ContractOrderRequest { r := ok; f(&r); return r }
	tests := []struct {
		name string
		r    rest.ContractOrderRequest
		ref  string
		want string // the failing field; "" passes
	}{
		{"limit input", ok, "", ""},
		{"opponent needs no price", with(func(r *rest.ContractOrderRequest) { r.PriceType, r.Price = "OPPONENT", "" }), "3000", ""},
		{"market", with(func(r *rest.ContractOrderRequest) { r.PriceType, r.Price = "market", "" }), "", ""},
		{"stop", with(func(r *rest.ContractOrderRequest) { r.OrderType, r.TriggerPrice = "STOP", "3100" }), "", ""},
		{"close without leverage", with(func(r *rest.ContractOrderRequest) { r.Side, r.Leverage = "SELL_CLOSE", "" }), "", ""},
		{"bad side", with(func(r *rest.ContractOrderRequest) { r.Side = "BUY" }), "", "side"},
		{"bad order type", with(func(r *rest.ContractOrderRequest) { r.OrderType = "MARKET" }), "", "orderType"},
		{"bad price type", with(func(r *rest.ContractOrderRequest) { r.PriceType = "BEST" }), "", "priceType"},
		{"bad tif", with(func(r *rest.ContractOrderRequest) { r.TimeInForce = "DAY" }), "", "timeInForce"},
		{"input without price", with(func(r *rest.ContractOrderRequest) { r.Price = "" }), "", "price"},
		{"price off tick", with(func(r *rest.ContractOrderRequest) { r.Price = "3000.255" }), "", "price"},
		{"qty off step", with(func(r *rest.ContractOrderRequest) { r.Quantity = "1.505" }), "", "quantity"},
		{"qty below min", with(func(r *rest.ContractOrderRequest) { r.Quantity = "0.001" }), "", "quantity"},
		{"qty exponent", with(func(r *rest.ContractOrderRequest) { r.Quantity = "1e2" }), "", "quantity"},
		{"stop without trigger", with(func(r *rest.ContractOrderRequest) { r.OrderType = "STOP" }), "", "triggerPrice"},
		{"trigger on limit", with(func(r *rest.ContractOrderRequest) { r.TriggerPrice = "3100" }), "", "triggerPrice"},
		{"open without leverage", with(func(r *rest.ContractOrderRequest) { r.Leverage = "" }), "", "leverage"},
		{"leverage too high", with(func(r *rest.ContractOrderRequest) { r.Leverage = "101" }), "", "leverage"},
		{"leverage below 1", with(func(r *rest.ContractOrderRequest) { r.Leverage = "0.5" }), "", "leverage"},
		{"leverage 1", with(func(r *rest.ContractOrderRequest) { r.Leverage = "1" }), "", ""},
		{"close with leverage", with(func(r *rest.ContractOrderRequest) { r.Side = "BUY_CLOSE" }), "", "leverage"},
		{"over", with(func(r *rest.ContractOrderRequest) { r.PriceType, r.Price, r.OverPrice = "OVER", "", "1.5" }), "3000", ""},
		{"over price off tick", with(func(r *rest.ContractOrderRequest) { r.PriceType, r.Price, r.OverPrice = "OVER", "", "1.505" }), "3000", "overPrice"},
		{"over price on input", with(func(r *rest.ContractOrderRequest) { r.OverPrice = "1" }), "", "overPrice"},
		{"notional too small", with(func(r *rest.ContractOrderRequest) { r.Quantity, r.Price = "0.01", "100" }), "", "notional"},
		{"notional at ref", with(func(r *rest.ContractOrderRequest) { r.PriceType, r.Price, r.Quantity = "OPPONENT", "", "0.01" }), "100", "notional"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := CheckContractOrder(ethPerp, tt.r, tt.ref)
			if (tt.want == "") != (len(p) == 0) || (tt.want != "" && !p.Has(tt.want)) {
				t.Errorf("CheckContractOrder = %v, want a problem with %q", p.Err(), tt.want)
			}
		})
	}
	if p := CheckContractOrder(rest.ContractSymbol{}, ok, ""); !p.Has("symbol") {
		t.Errorf("an unknown contract passed: %v", p.Err())
	}
}

func TestNotionalAndMargin(t *testing.T) {
	n, err := Notional(ethPerp, "1.5", "3000.25")
	if err != nil || n.String() != "4500.375" {
		t.Errorf("linear notional = %s, %v; want 4500.375", n, err)
	}
	m, err := Margin(n, "10")
	if err != nil || m.String() != "450.0375" {
		t.Errorf("margin = %s, %v; want 450.0375", m, err)
	}
	n, _ = Notional(btcRev, "100", "61230")
	if n.String() != "0.00163319" {
		t.Errorf("inverse notional = %s, want 100/61230 to 8 places", n)
	}
	if m, _ := Margin(n, "3"); m.String() != "0.00054440" && m.String() != "0.0005444" {
		t.Errorf("inverse margin = %s, want rounded up to 8 places", m)
	}
	x10 := ethPerp
	x10.Multiplier = "0.1"
	if n, _ := Notional(x10, "2", "3000"); n.String() != "600" {
		t.Errorf("notional with multiplier 0.1 = %s, want 600", n)
	}
	if MarginAsset(btcRev) != "BTC" || MarginAsset(rest.ContractSymbol{Symbol: rest.Symbol{QuoteAsset: "USDT"}}) != "USDT" ||
		MarginAsset(rest.ContractSymbol{Symbol: rest.Symbol{BaseAsset: "ETH"}, Inverse: true}) != "ETH" {
		t.Error("MarginAsset")
	}
	if _, err := Margin(n, "0"); err == nil {
		t.Error("Margin at leverage 0 did not fail")
	}
}

func TestCloseOrder(t *testing.T) {
	long := state.Position{Symbol: "ETH-PERP", Side: "LONG", Total: "3", Available: "2"}
	r, err := CloseOrder(long, "")
	if err != nil || r.Side != "SELL_CLOSE" || r.Quantity != "2" || r.PriceType != "OPPONENT" || r.Leverage != "" || !r.IsClose() {
		t.Errorf("CloseOrder(long) = %+v, %v; want SELL_CLOSE 2 OPPONENT", r, err)
	}
	short := state.Position{Symbol: "ETH-PERP", Side: "SHORT", Total: "3", Available: "3"}
	if r, err := CloseOrder(short, "1.5"); err != nil || r.Side != "BUY_CLOSE" || r.Quantity != "1.5" {
		t.Errorf("CloseOrder(short, 1.5) = %+v, %v", r, err)
	}
	for _, q := range []string{"4", "0", "-1", "x"} {
		if _, err := CloseOrder(short, q); err == nil {
			t.Errorf("CloseOrder(short, %q) passed", q)
		}
	}
	if _, err := CloseOrder(state.Position{Side: "LONG", Available: "0"}, ""); err == nil {
		t.Error("closing nothing available passed")
	}
	if _, err := FindPosition([]state.Position{long, {Symbol: "X", Side: "SHORT", Total: "0"}}, "X", "short"); err == nil {
		t.Error("FindPosition found a zero position")
	}
	if p, err := FindPosition([]state.Position{long}, "ETH-PERP", "long"); err != nil || p.Available != "2" {
		t.Errorf("FindPosition = %+v, %v", p, err)
	}
}

func TestReviewAndFeeTotals(t *testing.T) {
	open := rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "2", PriceType: "OPPONENT", Leverage: "4"}
	rv, p := ReviewContractOrder(ethPerp, open, "3000")
	if len(p) != 0 || !rv.Known || rv.Notional.String() != "6000" || rv.Margin.String() != "1500" || rv.Asset != "USDT" {
		t.Errorf("review = %+v, %v; want 6000 notional, 1500 margin in USDT", rv, p.Err())
	}
	if rv, _ := ReviewContractOrder(ethPerp, open, ""); rv.Known {
		t.Errorf("an OPPONENT order without a reference price was valued: %+v", rv)
	}
	cl := rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "SELL_CLOSE", Quantity: "2", Price: "3000"}
	if rv, p := ReviewContractOrder(ethPerp, cl, ""); len(p) != 0 || !rv.Margin.IsZero() || rv.Notional.String() != "6000" {
		t.Errorf("close review = %+v, %v", rv, p.Err())
	}
	got := FeeTotals([]state.Fill{{Commission: "0.1", CommissionAsset: "USDT"}, {Commission: "0.25", CommissionAsset: "USDT"},
		{Commission: "0.00001", CommissionAsset: "BTC"}, {Commission: "1"}})
	if len(got) != 2 || got[0].Asset != "BTC" || got[1].Total.String() != "0.35" {
		t.Errorf("FeeTotals = %+v", got)
	}
}
