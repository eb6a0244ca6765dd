package state

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/event"
)

// fillRows builds the fills of a Snapshot: sorted by time, then trade id
// by number (fills without one after those with one, by market, orderId
// and z), each row built once per change.
func (s *Store) fillRows() []Fill {
	b := &s.fills
	b.rows = b.rows[:0]
	for i := range b.ring {
		if f := &b.ring[i]; f.seq != 0 {
			if f.row == nil {
				f.row = f.materialize()
			}
			b.rows = append(b.rows, f)
		}
	}
	slices.SortFunc(b.rows, compareFills)
	out := make([]Fill, len(b.rows))
	for i, f := range b.rows {
		out[i] = *f.row
	}
	clear(b.rows)
	return out
}

func compareFills(a, b *fill) int {
	if c := cmp.Compare(a.time, b.time); c != 0 {
		return c
	}
	ta, tb := a.lit(flTrade), b.lit(flTrade)
	switch {
	case len(ta) == 0 && len(tb) > 0:
		return 1
	case len(ta) > 0 && len(tb) == 0:
		return -1
	case len(ta) > 0:
		if c := event.CompareIDs(string(ta), string(tb)); c != 0 {
			return c
		}
	}
	return cmp.Or(cmp.Compare(a.mkt, b.mkt), event.CompareIDs(string(a.lit(flOrder)), string(b.lit(flOrder))),
		event.CompareDecimal(a.lit(flZ), b.lit(flZ)), cmp.Compare(a.seq, b.seq))
}

// materialize builds the read-model row of f; QuoteQty is price × qty,
// exact.
func (f *fill) materialize() *Fill {
	r := &Fill{Market: marketNames[f.mkt], Symbol: f.symbol, OrderID: string(f.lit(flOrder)),
		TradeID: string(f.lit(flTrade)), Side: f.side, Price: string(f.lit(flPrice)), Qty: string(f.lit(flQty)),
		Commission: string(f.lit(flFee)), CommissionAsset: f.asset, Maker: f.maker, Time: f.time,
		RealizedPnl: string(f.lit(flPnl))}
	p, err1 := decimal.NewFromString(r.Price)
	q, err2 := decimal.NewFromString(r.Qty)
	if err1 == nil && err2 == nil {
		r.QuoteQty = p.Mul(q).String()
	}
	return r
}
