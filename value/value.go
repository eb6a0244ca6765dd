// Package value prices an account against the market: its equity in one
// asset and the unrealized PnL of its contract positions. It is pure (a
// state snapshot and a market snapshot in, numbers out) and exact: decimals
// only, divisions to 18 significant digits (DESIGN.md 'Market context').
package value

import (
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// AssetValue is one balance valued in the valuation asset. Price and Value
// are nil when the asset has no price route: it is unpriced, never worth 0.
type AssetValue struct {
	Asset string
	Total decimal.Decimal  // free + locked
	Price *decimal.Decimal // of one unit, in the valuation asset
	Value *decimal.Decimal // Total × Price
	Share *decimal.Decimal // Value × (1/Equity, to 18 significant digits), 0..1; nil when unpriced or equity is 0
}

// PositionValue is one contract position against its mark price. Every
// pointer is nil when unknown (no mark, no instrument).
type PositionValue struct {
	AccountID string
	Symbol    string
	Side      string
	Mark      *decimal.Decimal
	Index     *decimal.Decimal
	// Unrealized is the PnL in PnLAsset: the quote asset of a linear
	// contract, the margin asset of an inverse one.
	Unrealized *decimal.Decimal
	PnLAsset   string
	// UnrealizedPct is Unrealized as a percentage of the position's margin.
	UnrealizedPct *decimal.Decimal
	// LiquidationPct is how far the mark must move, in %, to reach the
	// liquidation price.
	LiquidationPct *decimal.Decimal
}

// Valuation is an account valued in Asset. Equity sums the priced assets
// and the positions' unrealized PnL valued the same way; Unpriced lists,
// sorted, the assets with a balance but no price route.
type Valuation struct {
	Asset     string
	Equity    decimal.Decimal
	Unpriced  []string
	Assets    []AssetValue    // sorted by asset
	Positions []PositionValue // in the snapshot's order
}

// Of values the account s against the market m in asset in. It returns nil
// when m holds no market data at all (Version 0 or no quotes).
func Of(s *state.Snapshot, m *market.Snapshot, in string) *Valuation {
	if m == nil || m.Version == 0 || len(m.Quotes) == 0 {
		return nil
	}
	if s == nil {
		s = &state.Snapshot{}
	}
	v := &Valuation{Asset: in, Equity: decimal.Zero}
	pr := pricer{m: m, in: in, seen: make(map[string]priced, len(s.Balances)+4)}
	unpriced := map[string]bool{}

	v.Assets = make([]AssetValue, len(s.Balances))
	// One block holds every asset's price, value and share (the
	// pointers of AssetValue point into it).
	slab := make([]decimal.Decimal, 3*len(s.Balances))
	for i, b := range s.Balances {
		av := &v.Assets[i]
		av.Asset = b.Asset
		av.Total = sum(b.Free, b.Locked)
		if p, ok := pr.price(b.Asset); ok {
			slab[3*i], slab[3*i+1] = p, av.Total.Mul(p)
			av.Price, av.Value = &slab[3*i], &slab[3*i+1]
			v.Equity = v.Equity.Add(slab[3*i+1])
		} else if !av.Total.IsZero() {
			unpriced[b.Asset] = true
		}
	}

	v.Positions = make([]PositionValue, len(s.Positions))
	for i := range s.Positions {
		pv := &v.Positions[i]
		*pv = position(&s.Positions[i], m)
		if pv.Unrealized == nil {
			continue
		}
		if p, ok := pr.price(pv.PnLAsset); ok {
			v.Equity = v.Equity.Add(pv.Unrealized.Mul(p))
		} else if !pv.Unrealized.IsZero() {
			unpriced[pv.PnLAsset] = true
		}
	}

	// Shares multiply by one reciprocal of the equity: one division for
	// all assets (shares are for display).
	if inv, ok := div(one, v.Equity); ok {
		for i := range v.Assets {
			av := &v.Assets[i]
			if av.Value == nil {
				continue
			}
			slab[3*i+2] = av.Value.Mul(inv)
			av.Share = &slab[3*i+2]
		}
	}
	for a := range unpriced {
		v.Unpriced = append(v.Unpriced, a)
	}
	slices.Sort(v.Unpriced)
	return v
}

// priced is a cached price route result.
type priced struct {
	p  decimal.Decimal
	ok bool
}

// pricer prices assets in one valuation asset, each asset once.
type pricer struct {
	m    *market.Snapshot
	in   string
	seen map[string]priced
}

func (r *pricer) price(asset string) (decimal.Decimal, bool) {
	if c, found := r.seen[asset]; found {
		return c.p, c.ok
	}
	p, ok := Price(r.m, asset, r.in)
	r.seen[asset] = priced{p, ok}
	return p, ok
}

// sum adds two decimal literals; a malformed or empty one counts as 0
// (the state only holds literals that decoded as decimals).
func sum(a, b string) decimal.Decimal {
	x, _ := parse(a)
	y, ok := parse(b)
	if !ok || y.IsZero() {
		return x
	}
	return x.Add(y)
}

// position values one contract position against its instrument and
// quote: mark (the quote's Mark, else its last price), index, unrealized
// PnL and its percentages. Fields stay nil when unknown.
func position(p *state.Position, m *market.Snapshot) PositionValue {
	pv := PositionValue{AccountID: p.AccountID, Symbol: p.Symbol, Side: p.Side}
	q := m.Quotes[p.Symbol]
	mark, ok := parse(q.Mark)
	if !ok {
		mark, ok = parse(q.Last)
	}
	if ok && mark.IsPositive() {
		pv.Mark = &mark
	}
	if idx, ok := parse(q.Index); ok {
		pv.Index = &idx
	}
	if pv.Mark == nil {
		return pv
	}
	if liq, ok := parse(p.LiquidationPrice); ok && liq.IsPositive() {
		if d, ok := DistancePct(mark, liq); ok {
			pv.LiquidationPct = &d
		}
	}
	ins, known := m.Instruments[p.Symbol]
	if !known {
		return pv
	}
	qty, ok1 := parse(p.Total)
	avg, ok2 := parse(p.AvgPrice)
	mult, ok3 := parse(ins.Multiplier)
	if !ok3 || mult.IsZero() {
		mult = one
	}
	if !ok1 || !ok2 {
		return pv
	}
	pnl, ok := Unrealized(p.Side, qty, avg, mark, mult, ins.Inverse)
	if !ok {
		return pv
	}
	pv.Unrealized = &pnl
	pv.PnLAsset = ins.Quote
	if ins.Inverse {
		pv.PnLAsset = ins.MarginAsset
		if pv.PnLAsset == "" {
			pv.PnLAsset = ins.Base
		}
	}
	if margin, ok := parse(p.Margin); ok && !margin.IsZero() {
		if pct, ok := div(pnl.Mul(hundred), margin); ok {
			pv.UnrealizedPct = &pct
		}
	}
	return pv
}
