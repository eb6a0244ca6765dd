package actions

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/rest"
	"bhtop/state"
)

// Review is what the review of a contract order shows: its notional and,
// for an opening order, the initial margin it needs, both in Asset.
// Known is false when there is no price to value it at (a non-INPUT order
// without a reference price).
type Review struct {
	Notional decimal.Decimal
	Margin   decimal.Decimal // zero for a closing order (it frees margin)
	Asset    string
	Known    bool
}

// ReviewContractOrder checks r (CheckContractOrder) and values it at ref
// (the price it would fill at; "" for r.Price).
func ReviewContractOrder(sym rest.ContractSymbol, r rest.ContractOrderRequest, ref string) (Review, Problems) {
	p := CheckContractOrder(sym, r, ref)
	rv := Review{Asset: MarginAsset(sym)}
	if len(p) > 0 {
		return rv, p
	}
	if ref == "" {
		ref = r.Price
	}
	n, err := Notional(sym, r.Quantity, ref)
	if err != nil {
		return rv, nil
	}
	rv.Notional, rv.Known = n, true
	if !r.IsClose() {
		rv.Margin, _ = Margin(n, r.Leverage)
	}
	return rv, nil
}

// FeeTotal is the sum of the commissions paid in one asset.
type FeeTotal struct {
	Asset string
	Total decimal.Decimal
}

// FeeTotals sums the fills' commissions per asset, sorted by asset
// (fills without a commission asset are left out).
func FeeTotals(fills []state.Fill) []FeeTotal {
	sums := map[string]decimal.Decimal{}
	for _, f := range fills {
		if f.CommissionAsset == "" {
			continue
		}
		if c, ok := dec.Parse(f.Commission); ok {
			sums[f.CommissionAsset] = sums[f.CommissionAsset].Add(c)
		}
	}
	out := make([]FeeTotal, 0, len(sums))
	for a, t := range sums {
		out = append(out, FeeTotal{a, t})
	}
	slices.SortFunc(out, func(a, b FeeTotal) int { return cmp.Compare(a.Asset, b.Asset) })
	return out
}
