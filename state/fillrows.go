package state

import (
	"cmp"
	"slices"

	"github.com/shopspring/decimal"

	"bhtop/event"
)

// fillRows builds the fills of a Snapshot, sorted by time, then trade id
// by number (fills without one after those with one, then by market,
// orderId and z). prev is the previous snapshot's fills. In the usual
// case (new fills later than every shown one, evicted ones the oldest
// shown) it shares prev's rows: the evicted prefix is sliced off and the
// new rows appended, never writing a row prev shows. Otherwise every row
// is placed again (each built once per change).
func (s *Store) fillRows(prev []Fill) []Fill {
	b := &s.fills
	defer func() {
		b.rebuild = false
		b.shownSeq, b.evictedShown = b.seq, 0
	}()
	live := func(r fillRef) bool { return b.ring[r.slot].seq == r.seq }
	if b.rebuild || len(prev) != len(b.view) {
		return b.allRows()
	}
	k := 0
	for k < len(b.view) && !live(b.view[k]) {
		k++
	}
	if k != b.evictedShown {
		return b.allRows() // evicted from the middle
	}
	var adds []fillRef // the fills added since, still kept: numbered past shownSeq
	for seq := max(b.shownSeq+1, b.seq-min(b.seq, uint64(len(b.ring)))+1); seq <= b.seq; seq++ {
		if r := (fillRef{int32((seq - 1) % uint64(b.limit)), seq}); live(r) {
			adds = append(adds, r)
		}
	}
	slices.SortFunc(adds, b.compareRefs)
	if n := len(b.view); n > k && len(adds) > 0 && b.compareRefs(b.view[n-1], adds[0]) > 0 {
		return b.allRows() // a new fill sorts among the shown ones
	}
	rows := prev[k:] // appends go past prev's rows: prev never sees them
	for _, r := range adds {
		rows = append(rows, *b.row(r.slot))
	}
	b.view = append(b.view[k:], adds...)
	if rows == nil {
		rows = []Fill{}
	}
	return rows
}

// allRows places every kept fill again.
func (b *fillBook) allRows() []Fill {
	b.view = b.view[:0]
	for i := range b.ring {
		if f := &b.ring[i]; f.seq != 0 {
			b.view = append(b.view, fillRef{int32(i), f.seq})
		}
	}
	slices.SortFunc(b.view, b.compareRefs)
	out := make([]Fill, len(b.view))
	for i, r := range b.view {
		out[i] = *b.row(r.slot)
	}
	return out
}

// row is the read-model row of slot i, built once per change.
func (b *fillBook) row(i int32) *Fill {
	f := &b.ring[i]
	if f.row == nil {
		f.row = f.materialize()
		if f.again {
			f.row.Again = b.gone.againOf[f.seq]
		}
	}
	return f.row
}

func (b *fillBook) compareRefs(x, y fillRef) int {
	return compareFills(&b.ring[x.slot], &b.ring[y.slot])
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
		RealizedPnl: string(f.lit(flPnl)), Seq: f.seq}
	p, err1 := decimal.NewFromString(r.Price)
	q, err2 := decimal.NewFromString(r.Qty)
	if err1 == nil && err2 == nil {
		r.QuoteQty = p.Mul(q).String()
	}
	return r
}
