package value

import (
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// Part is one account of a Sum: its name, its state, the market it is
// valued against and its valuation (nil without market data). Unknown
// says its state was never synced from a REST snapshot (a wrong key, a
// stream that never went live): nothing of it is known, so nothing of it
// is counted.
type Part struct {
	Name    string
	State   *state.Snapshot
	Market  *market.Snapshot
	Val     *Valuation
	Unknown bool
}

// Total is several accounts' equity in one asset. Unpriced lists, sorted,
// the assets left out: those of the parts' Unpriced, a part's valuation
// asset with no route to Asset, and every balance of a part with no
// valuation at all (no market data). Missing lists, in the parts' order,
// the names of the parts none of whose equity is in Equity: Unknown ones,
// those without a valuation and those whose valuation asset has no route
// to Asset. Nothing is ever counted as 0.
type Total struct {
	Asset    string
	Equity   decimal.Decimal
	Unpriced []string
	Missing  []string
}

// Sum adds the parts' equities in asset in: a part valued in another
// asset is converted at that asset's price in the part's market.
func Sum(in string, parts []Part) Total {
	t := Total{Asset: in, Equity: decimal.Zero, Unpriced: []string{}, Missing: []string{}}
	add := func(a string) {
		if !slices.Contains(t.Unpriced, a) {
			t.Unpriced = append(t.Unpriced, a)
		}
	}
	for _, p := range parts {
		if Left(p, in) != "" {
			t.Missing = append(t.Missing, p.Name)
		}
		if p.Unknown {
			continue
		}
		if p.Val == nil {
			if p.State != nil {
				for _, b := range p.State.Balances {
					if !sumNum(b.Free, b.Locked).isZero() {
						add(b.Asset)
					}
				}
			}
			continue
		}
		for _, a := range p.Val.Unpriced {
			add(a)
		}
		if p.Val.Asset == in {
			t.Equity = t.Equity.Add(p.Val.Equity)
			continue
		}
		if px, ok := Price(p.Market, p.Val.Asset, in); ok {
			t.Equity = t.Equity.Add(p.Val.Equity.Mul(px))
		} else {
			add(p.Val.Asset)
		}
	}
	slices.Sort(t.Unpriced)
	return t
}

// Left says why none of p's equity can be in a Sum in asset in ("" when
// it can): its state is unknown, it has no valuation (no market data), or
// its valuation asset has no price in in.
func Left(p Part, in string) string {
	switch {
	case p.Unknown:
		return "no snapshot yet"
	case p.Val == nil:
		return "no market data"
	case p.Val.Asset != in:
		if _, ok := Price(p.Market, p.Val.Asset, in); !ok {
			return "no price " + p.Val.Asset + "→" + in
		}
	}
	return ""
}

// UnrealizedIn sums v's positions' unrealized PnL in v's asset (each
// converted from its PnL asset at m's price); ok is false when one is
// unknown or has no price route.
func UnrealizedIn(v *Valuation, m *market.Snapshot) (pnl decimal.Decimal, ok bool) {
	if v == nil {
		return decimal.Zero, false
	}
	pnl = decimal.Zero
	for _, p := range v.Positions {
		if p.Unrealized == nil {
			return pnl, false
		}
		if p.PnLAsset == v.Asset {
			pnl = pnl.Add(*p.Unrealized)
			continue
		}
		px, ok := Price(m, p.PnLAsset, v.Asset)
		if !ok {
			return pnl, false
		}
		pnl = pnl.Add(p.Unrealized.Mul(px))
	}
	return pnl, true
}
