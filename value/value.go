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
//
// The arithmetic is done on nums (128-bit while the numbers fit, exact
// decimals beyond) and the results become decimals at the end, from one
// block (decBlock): a valuation of 1,000 assets allocates a handful of
// times, not tens of thousands.
func Of(s *state.Snapshot, m *market.Snapshot, in string) *Valuation {
	if m == nil || m.Version == 0 || len(m.Quotes) == 0 {
		return nil
	}
	if s == nil {
		s = &state.Snapshot{}
	}
	v := &Valuation{Asset: in}
	var ix pairIndex // the bridges, indexed once if an asset needs them
	pr := pricer{m: m, in: in, ix: &ix}
	var unpriced []string
	var blk decBlock
	blk.grow(4*len(s.Balances) + 5*len(s.Positions) + 1)
	// One block holds every pointed-to decimal: an asset's price, value and
	// share, a position's mark, index, PnL and its two percentages.
	slab := make([]decimal.Decimal, 3*len(s.Balances)+5*len(s.Positions))
	values := make([]num, len(s.Balances))

	// Balances and PnLs are summed apart, as in Equity.
	equity, pnls := num{}, num{}
	v.Assets = make([]AssetValue, len(s.Balances))
	for i, b := range s.Balances {
		av := &v.Assets[i]
		av.Asset = b.Asset
		total := sumNum(b.Free, b.Locked)
		av.Total = blk.dec(total)
		// Each balance is its own asset: priced once, not cached.
		if p, ok := priceNum(m, b.Asset, in, nil, &ix); ok {
			values[i] = total.mul(p)
			av.Price = blk.ptr(&slab[3*i], p)
			av.Value = blk.ptr(&slab[3*i+1], values[i])
			equity = equity.add(values[i])
		} else if !total.isZero() {
			unpriced = append(unpriced, b.Asset)
		}
	}

	v.Positions = make([]PositionValue, len(s.Positions))
	pslab := slab[3*len(s.Balances):]
	for i := range s.Positions {
		pv := &v.Positions[i]
		pnl, ok := position(pv, &s.Positions[i], m, &blk, pslab[5*i:5*i+5])
		if !ok {
			continue
		}
		if p, ok := pr.price(pv.PnLAsset); ok {
			pnls = pnls.add(pnl.mul(p))
		} else if !pnl.isZero() {
			unpriced = append(unpriced, pv.PnLAsset)
		}
	}
	equity = equity.add(pnls)
	v.Equity = blk.dec(equity)

	// Shares multiply by one reciprocal of the equity: one division for
	// all assets (shares are for display).
	if inv, ok := numOne.quo(equity); ok {
		for i := range v.Assets {
			if av := &v.Assets[i]; av.Value != nil {
				av.Share = blk.ptr(&slab[3*i+2], values[i].mul(inv))
			}
		}
	}
	slices.Sort(unpriced)
	v.Unpriced = slices.Compact(unpriced)
	return v
}

// priced is a cached price route result.
type priced struct {
	p  num
	ok bool
}

// pricer prices assets in one valuation asset, each asset once (the
// positions' few PnL assets).
type pricer struct {
	m    *market.Snapshot
	in   string
	ix   *pairIndex
	seen map[string]priced
}

func (r *pricer) price(asset string) (num, bool) {
	if c, found := r.seen[asset]; found {
		return c.p, c.ok
	}
	if r.seen == nil {
		r.seen = make(map[string]priced, 4)
	}
	p, ok := priceNum(r.m, asset, r.in, nil, r.ix)
	r.seen[asset] = priced{p, ok}
	return p, ok
}

// sumNum adds two decimal literals; a malformed or empty one counts as 0
// (the state only holds literals that decoded as decimals).
func sumNum(a, b string) num {
	x, _ := parseNum(a)
	y, ok := parseNum(b)
	if !ok || y.isZero() {
		return x
	}
	return x.add(y)
}

// position values one contract position p into pv against its
// instrument and quote: mark (the quote's Mark, else its last price),
// index, unrealized PnL and its percentages, each pointing into slab (5
// decimals). Fields stay nil when unknown; ok says whether the PnL is
// known, and pnl is it.
func position(pv *PositionValue, p *state.Position, m *market.Snapshot, blk *decBlock, slab []decimal.Decimal) (pnl num, ok bool) {
	*pv = PositionValue{AccountID: p.AccountID, Symbol: p.Symbol, Side: p.Side}
	q := m.Quotes[p.Symbol]
	mark, ok := markOf(&q)
	if !ok {
		if idx, ok := parseNum(q.Index); ok {
			pv.Index = blk.ptr(&slab[1], idx)
		}
		return num{}, false
	}
	pv.Mark = blk.ptr(&slab[0], mark)
	if idx, ok := parseNum(q.Index); ok {
		pv.Index = blk.ptr(&slab[1], idx)
	}
	if liq, ok := parseNum(p.LiquidationPrice); ok && liq.sign() > 0 {
		if d, ok := distancePct(mark, liq); ok {
			pv.LiquidationPct = blk.ptr(&slab[2], d)
		}
	}
	pnl, pv.PnLAsset, ok = pnlOf(p, mark, m)
	if !ok {
		return num{}, false
	}
	pv.Unrealized = blk.ptr(&slab[3], pnl)
	if margin, ok := parseNum(p.Margin); ok && !margin.isZero() {
		if pct, ok := pnl.mul(numHundred).quo(margin); ok {
			pv.UnrealizedPct = blk.ptr(&slab[4], pct)
		}
	}
	return pnl, true
}
