package ui

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/actions"
	"bhtop/rest"
)

// TestFormValidation checks the order form against the symbol's filters
// and the free balances of testSnapshot (BTC 1.23456789, USDT 10250.75,
// ETH 12.5) before anything may be sent.
func TestFormValidation(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		sym, side, typ        int
		qty, price            string
		ok                    bool
		wantErr, wantNotional string
	}{
		{name: "valid buy", qty: "0.01", price: "60000", ok: true, wantNotional: "600"},
		{name: "no quantity", qty: "", price: "60000", wantErr: "quantity is required"},
		{name: "zero quantity", qty: "0", price: "60000", wantErr: "quantity must be above zero"},
		{name: "below min qty", qty: "0.00001", price: "60000", wantErr: "quantity below the minimum 0.0001"},
		{name: "above max qty", qty: "1001", price: "60000", wantErr: "quantity above the maximum 1000"},
		{name: "off step", qty: "0.00015", price: "60000", wantErr: "quantity not a multiple of 0.0001"},
		{name: "off tick", qty: "0.01", price: "60000.005", wantErr: "price not a multiple of 0.01"},
		{name: "below min price", qty: "1", price: "0.001", wantErr: "price below the minimum 0.01"},
		{name: "below min notional", qty: "0.0001", price: "100", wantErr: "notional 0.01 below the minimum 10"},
		{name: "buy over free quote", qty: "1", price: "60000", wantErr: "needs 60000 USDT, free 10250.75"},
		{name: "sell over free base", side: 1, qty: "2", price: "60000", wantErr: "needs 2 BTC, free 1.23456789"},
		{name: "sell within free base", side: 1, qty: "1", price: "60000", ok: true, wantNotional: "60000"},
		{name: "market needs no price", typ: 1, qty: "0.01", price: "", ok: true},
		{name: "market sell over free", typ: 1, side: 1, qty: "5", wantErr: "needs 5 BTC"},
		{name: "limit maker has a price", typ: 2, qty: "0.01", price: "", wantErr: "price is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &orderForm{symbols: testSymbols(), sym: tc.sym, side: tc.side, typ: tc.typ, qty: tc.qty, price: tc.price}
			notional, ok := f.validate(testSnapshot())
			msgs := strings.Join(append(f.errs[:], f.general...), "|")
			if ok != tc.ok {
				t.Fatalf("validate(%+v) ok = %v, want %v (messages %q)", tc, ok, tc.ok, msgs)
			}
			if tc.wantErr != "" && !strings.Contains(msgs, tc.wantErr) {
				t.Errorf("validate(%+v) messages = %q, want %q", tc, msgs, tc.wantErr)
			}
			if ok && notional != tc.wantNotional {
				t.Errorf("validate(%+v) notional = %q, want %q", tc, notional, tc.wantNotional)
			}
		})
	}
}

// TestFormRequest: what the form sends for each type (no TIF for MARKET
// and LIMIT_MAKER, no price for MARKET), exactly as typed.
func TestFormRequest(t *testing.T) {
	for _, tc := range []struct {
		typ        int
		tif, price string
		wantType   string
	}{
		{0, "GTC", "60000.10", "LIMIT"},
		{1, "", "", "MARKET"},
		{2, "", "60000.10", "LIMIT_MAKER"},
	} {
		f := &orderForm{symbols: testSymbols(), typ: tc.typ, qty: "0.0100", price: "60000.10"}
		r := f.request()
		if r.Type != tc.wantType || r.TimeInForce != tc.tif || r.Price != tc.price || r.Quantity != "0.0100" || r.Symbol != "BTCUSDT" || r.Side != "BUY" {
			t.Errorf("request(type %d) = %+v, want type %s tif %q price %q qty 0.0100", tc.typ, r, tc.wantType, tc.tif, tc.price)
		}
	}
}

// TestContractReviewPrivacy: with privacy on, the contract review's free
// balance of the margin asset is masked; the warning that the margin is
// more than free stays.
func TestContractReviewPrivacy(t *testing.T) {
	rv := actions.Review{Notional: decimal.RequireFromString("300000"), Margin: decimal.RequireFromString("30000"), Asset: "USDT", Known: true}
	r := &rest.ContractOrderRequest{Side: "BUY_OPEN", Leverage: "10"}
	got := strings.Join(contractReviewLines(rv, r, testSnapshot(), true), "\n")
	if strings.Contains(got, "10250.75") || !strings.Contains(got, "(free "+hidden+") ⚠ more than free") {
		t.Errorf("privacy review:\n%s", got)
	}
}
