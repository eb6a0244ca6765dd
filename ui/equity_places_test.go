package ui

import (
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/value"
)

// TestEquityShownAtTheAssetsPlaces: an equity with an inverse contract's
// PnL converted at a price has some 33 significant digits; the header
// shows it at the valuation asset's places (cents for USDT, eight for
// BTC), the value itself is kept whole.
func TestEquityShownAtTheAssetsPlaces(t *testing.T) {
	pnl := decimal.NewFromInt(1).DivRound(decimal.RequireFromString("61000"), 18).
		Sub(decimal.NewFromInt(1).DivRound(decimal.RequireFromString("61020.5"), 18))
	eq := decimal.RequireFromString("1234.5").Add(pnl.Mul(decimal.RequireFromString("61020.5")))
	if n := len(eq.Coefficient().String()); n < 20 {
		t.Fatalf("equity %s has %d digits; the test wants a long one", eq, n)
	}
	for _, tt := range []struct{ asset, want string }{
		{"USDT", "1234.50 USDT"},
		{"BTC", "1234.50033607 BTC"},
	} {
		v := &value.Valuation{Asset: tt.asset, Equity: eq}
		if got := equityTexts(v, nil).equity; got != tt.want {
			t.Errorf("equity %s in %s shown as %q, want %q", eq, tt.asset, got, tt.want)
		}
		if !v.Equity.Equal(eq) {
			t.Errorf("the valuation's equity changed to %s", v.Equity)
		}
	}
}
