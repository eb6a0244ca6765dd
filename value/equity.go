package value

import (
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// Equity is Of's Equity and Unpriced alone: what the header, the metrics
// and the alerts on equity need. It builds no row and no decimal but the
// result, so it costs a fraction of Of. ok is false where Of returns nil
// (no market data).
func Equity(s *state.Snapshot, m *market.Snapshot, in string) (equity decimal.Decimal, unpriced []string, ok bool) {
	if m == nil || m.Version == 0 || len(m.Quotes) == 0 {
		return decimal.Decimal{}, nil, false
	}
	if s == nil {
		s = &state.Snapshot{}
	}
	// The balances and the PnLs are summed apart: PnLs valued through
	// a division carry many decimals, and the balances' sum many integer
	// digits; together they may pass 128 bits, and once one sum does, each
	// addition to it allocates. Exact sums do not depend on the order.
	eq, pnls := num{}, num{}
	var ix pairIndex // the bridges, indexed once if an asset needs them
	for i := range s.Balances {
		b := &s.Balances[i]
		total := sumNum(b.Free, b.Locked)
		if p, ok := priceNum(m, b.Asset, in, nil, &ix); ok {
			eq = eq.add(total.mul(p))
		} else if !total.isZero() {
			unpriced = append(unpriced, b.Asset)
		}
	}
	pr := pricer{m: m, in: in, ix: &ix}
	for i := range s.Positions {
		p := &s.Positions[i]
		q := m.Quotes[p.Symbol]
		mark, ok := markOf(&q)
		if !ok {
			continue
		}
		pnl, asset, ok := pnlOf(p, mark, m)
		if !ok {
			continue
		}
		if price, ok := pr.price(asset); ok {
			pnls = pnls.add(pnl.mul(price))
		} else if !pnl.isZero() {
			unpriced = append(unpriced, asset)
		}
	}
	eq = eq.add(pnls)
	slices.Sort(unpriced)
	return eq.dec(), slices.Compact(unpriced), true
}

// markOf is the mark price of a quote: its Mark, else its last price;
// ok is false when neither is a positive decimal.
func markOf(q *market.Quote) (num, bool) {
	mark, ok := parseNum(q.Mark)
	if !ok {
		mark, ok = parseNum(q.Last)
	}
	if !ok || mark.sign() <= 0 {
		return num{}, false
	}
	return mark, true
}

// pnlOf is the unrealized PnL of position p at mark against its
// instrument, and the asset it is in (the quote asset of a linear
// contract, the margin asset of an inverse one); ok is false (and asset
// "") when unknown.
func pnlOf(p *state.Position, mark num, m *market.Snapshot) (pnl num, asset string, ok bool) {
	ins, known := m.Instruments[p.Symbol]
	if !known {
		return num{}, "", false
	}
	qty, ok1 := parseNum(p.Total)
	avg, ok2 := parseNum(p.AvgPrice)
	mult, ok3 := parseNum(ins.Multiplier)
	if !ok3 || mult.isZero() {
		mult = numOne
	}
	if !ok1 || !ok2 {
		return num{}, "", false
	}
	pnl, ok = unrealized(p.Side, qty, avg, mark, mult, ins.Inverse)
	if !ok {
		return num{}, "", false
	}
	asset = ins.Quote
	if ins.Inverse {
		asset = ins.MarginAsset
		if asset == "" {
			asset = ins.Base
		}
	}
	return pnl, asset, true
}
