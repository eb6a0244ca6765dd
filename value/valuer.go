package value

import (
	"reflect"
	"slices"
	"unsafe"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
)

// Valuer values one account again and again, as a reader does each time
// the market or the state moves, and gives exactly what Equity and Of
// give. It remembers, row by row, the literals it parsed and the quotes
// each price route read: a row whose literals and quotes are unchanged
// (compared as strings; the market store and the state hand the same
// strings on from snapshot to snapshot, so the comparison is mostly a
// pointer check) is not parsed or routed again, and the same pair of
// snapshots asked twice is answered from the last result. Snapshots are
// immutable, so nothing it remembers goes stale unseen. The zero value is
// ready; a Valuer is not safe for concurrent use (each reader keeps its
// own).
type Valuer struct {
	in   string
	ins  unsafe.Pointer // the instruments map the memos were made against
	tick uint64         // grows with every valuation; see priceMemo.tick
	ix   pairIndex      // the bridges of the instruments

	bals   []balMemo
	pos    []posMemo
	prices map[string]*priceMemo // the positions' PnL assets

	// readers lists, by symbol, the rows whose memo read its quote
	// (balance row i as i, position row j as -1-j; stale entries are
	// harmless). When the market says which quotes moved since the last
	// valuation (market.Snapshot.MovedSince), only those rows are
	// checked; otherwise checkAll has every row compare its quotes.
	readers  map[string][]int
	nreaders int
	checkAll bool

	// The last answer, for the same snapshots asked again.
	s   *state.Snapshot
	m   *market.Snapshot
	eq  decimal.Decimal
	unp []string
	val *Valuation
}

// priceMemo is one asset's price route as last computed: the quotes it
// read and its result. It holds while those quotes' last prices do.
type priceMemo struct {
	deps []dep
	p    num
	ok   bool
	done bool   // computed at least once
	tick uint64 // the valuation that last checked it
}

// balMemo is one balance row: the literals it was parsed from, its
// total, its price route and its value (total × price).
type balMemo struct {
	asset, free, locked string
	total, value        num
	price               priceMemo
	stale               bool   // a quote it read moved
	gen                 uint64 // the valuation that last made it
}

// posMemo is one position row: the literals and the quote prices its
// PnL was computed from, the PnL and the price route of its asset.
type posMemo struct {
	acct, sym, side, avg, qty, margin, liq string
	mark, last, index                      string // the quote's fields it read
	gen                                    uint64 // the valuation that made it
	pnl                                    num
	asset                                  string
	ok, done, stale                        bool
	price                                  *priceMemo
}

// get is the price of asset in in against m, its bridges found in ix:
// the remembered one when every quote its route read has the same last
// price in m.
func (pm *priceMemo) get(m *market.Snapshot, asset, in string, ix *pairIndex) (num, bool) {
	if pm.done && sameDeps(m, pm.deps) {
		return pm.p, pm.ok
	}
	pm.deps = pm.deps[:0]
	pm.p, pm.ok = priceNum(m, asset, in, &pm.deps, ix)
	pm.done = true
	return pm.p, pm.ok
}

// sameDeps reports whether every quote in deps has the same last price
// in m.
func sameDeps(m *market.Snapshot, deps []dep) bool {
	for i := range deps {
		if m.Quotes[deps[i].sym].Last != deps[i].last {
			return false
		}
	}
	return true
}

// mapID is the identity of a map (nil for a nil map).
func mapID(m map[string]market.Instrument) unsafe.Pointer {
	return reflect.ValueOf(m).UnsafePointer()
}

// begin starts a valuation in in against m: memos made in another asset
// or against other instruments (which routes and PnLs read) are dropped;
// the rows that read a quote moved since the last valuation are marked
// stale, or all are checked when the market cannot say.
func (v *Valuer) begin(m *market.Snapshot, in string) {
	v.tick++
	if id := mapID(m.Instruments); v.in != in || v.ins != id || v.prices == nil {
		v.in, v.ins = in, id
		v.bals, v.pos = v.bals[:0], v.pos[:0]
		v.prices = map[string]*priceMemo{}
		v.readers, v.nreaders = map[string][]int{}, 0
		return
	}
	v.checkAll = !m.MovedSince(v.m, func(sym string) {
		for _, r := range v.readers[sym] {
			switch {
			case r >= 0 && r < len(v.bals):
				v.bals[r].stale = true
			case r < 0 && -1-r < len(v.pos):
				v.pos[-1-r].stale = true
			}
		}
	})
}

// read records that row r's memo read symbol's quote.
func (v *Valuer) read(sym string, r int) {
	v.readers[sym] = append(v.readers[sym], r)
	v.nreaders++
}

// reindex rebuilds readers from the memos when stale entries have piled
// up (rows recomputed many times).
func (v *Valuer) reindex() {
	if v.nreaders <= 4*(len(v.bals)+len(v.pos))+64 {
		return
	}
	clear(v.readers)
	v.nreaders = 0
	for i := range v.bals {
		for _, d := range v.bals[i].price.deps {
			v.read(d.sym, i)
		}
	}
	for j := range v.pos {
		v.read(v.pos[j].sym, -1-j)
	}
}

// balance is balance row i of b valued: its total, its price (ok) and
// total × price.
func (v *Valuer) balance(i int, b *state.Balance, m *market.Snapshot) (total, value num, price num, ok bool) {
	if i == len(v.bals) {
		v.bals = append(v.bals, balMemo{})
	}
	bm := &v.bals[i]
	same := bm.price.done && bm.asset == b.Asset && bm.free == b.Free && bm.locked == b.Locked
	if same && !bm.stale && (!v.checkAll || sameDeps(m, bm.price.deps)) {
		// Unmoved (the market said so), or its quotes compared equal.
		return bm.total, bm.value, bm.price.p, bm.price.ok
	}
	// The symbols row i is indexed under (when its memo was made).
	var old [8]string
	n0 := len(bm.price.deps)
	for j := range min(n0, len(old)) {
		old[j] = bm.price.deps[j].sym
	}
	if !same {
		*bm = balMemo{asset: b.Asset, free: b.Free, locked: b.Locked, total: sumNum(b.Free, b.Locked), price: priceMemo{deps: bm.price.deps[:0]}}
	}
	bm.stale, bm.price.done, bm.gen = false, false, v.tick
	bm.price.get(m, b.Asset, v.in, &v.ix)
	bm.value = num{}
	if bm.price.ok {
		bm.value = bm.total.mul(bm.price.p)
	}
	deps := bm.price.deps
	indexed := len(deps) == n0 && n0 <= len(old)
	for j := 0; indexed && j < n0; j++ {
		indexed = deps[j].sym == old[j]
	}
	if !indexed {
		for _, d := range deps {
			v.read(d.sym, i)
		}
	}
	return bm.total, bm.value, bm.price.p, bm.price.ok
}

// position is the unrealized PnL of position row i against m, the asset
// it is in and that asset's price route; ok is false when unknown (no
// mark or instrument).
func (v *Valuer) position(i int, p *state.Position, m *market.Snapshot) (pm *posMemo, ok bool) {
	if i == len(v.pos) {
		v.pos = append(v.pos, posMemo{})
	}
	pm = &v.pos[i]
	same := pm.done && pm.sym == p.Symbol && pm.side == p.Side && pm.avg == p.AvgPrice && pm.qty == p.Total &&
		pm.acct == p.AccountID && pm.margin == p.Margin && pm.liq == p.LiquidationPrice
	if same && !pm.stale && !v.checkAll {
		return pm, pm.ok
	}
	q := m.Quotes[p.Symbol]
	if !same || pm.mark != q.Mark || pm.last != q.Last || pm.index != q.Index {
		if !same || pm.sym != p.Symbol { // else row i is indexed under its symbol already
			v.read(p.Symbol, -1-i)
		}
		*pm = posMemo{acct: p.AccountID, sym: p.Symbol, side: p.Side, avg: p.AvgPrice, qty: p.Total, margin: p.Margin,
			liq: p.LiquidationPrice, mark: q.Mark, last: q.Last, index: q.Index, done: true, gen: v.tick}
		if mark, ok := markOf(&q); ok {
			pm.pnl, pm.asset, pm.ok = pnlOf(p, mark, m)
		}
		if pm.ok {
			pm.price = v.prices[pm.asset]
			if pm.price == nil {
				pm.price = &priceMemo{}
				v.prices[pm.asset] = pm.price
			}
		}
	}
	pm.stale = false
	return pm, pm.ok
}

// assetPrice is the price of a PnL asset, checked once per valuation.
func (v *Valuer) assetPrice(pr *priceMemo, asset string, m *market.Snapshot) (num, bool) {
	if pr.tick != v.tick {
		pr.tick = v.tick
		return pr.get(m, asset, v.in, &v.ix)
	}
	return pr.p, pr.ok
}

// Equity is Equity(s, m, in), reusing what did not change since the
// Valuer's last valuation.
func (v *Valuer) Equity(s *state.Snapshot, m *market.Snapshot, in string) (equity decimal.Decimal, unpriced []string, ok bool) {
	if m == nil || m.Version == 0 || len(m.Quotes) == 0 {
		return decimal.Decimal{}, nil, false
	}
	if s == nil {
		s = &state.Snapshot{}
	}
	if !v.same(s, m, in) {
		eq := v.pass(s, m, in)
		v.eq, v.val = eq.dec(), nil
	}
	return v.eq, slices.Clone(v.unp), true
}

// same says whether s and m in in are what the last valuation valued.
func (v *Valuer) same(s *state.Snapshot, m *market.Snapshot, in string) bool {
	return s == v.s && m == v.m && in == v.in && mapID(m.Instruments) == v.ins && v.tick > 0
}

// pass brings every row's memo up to s and m in in and sums the equity;
// it leaves the unpriced assets in v.unp and the snapshots in v.s, v.m.
func (v *Valuer) pass(s *state.Snapshot, m *market.Snapshot, in string) num {
	v.begin(m, in)
	var unpriced []string
	eq, pnls := num{}, num{}
	for i := range s.Balances {
		b := &s.Balances[i]
		total, value, _, ok := v.balance(i, b, m)
		if ok {
			eq = eq.add(value)
		} else if !total.isZero() {
			unpriced = append(unpriced, b.Asset)
		}
	}
	v.bals = v.bals[:len(s.Balances)]
	for i := range s.Positions {
		pm, ok := v.position(i, &s.Positions[i], m)
		if !ok {
			continue
		}
		if price, ok := v.assetPrice(pm.price, pm.asset, m); ok {
			pnls = pnls.add(pm.pnl.mul(price))
		} else if !pm.pnl.isZero() {
			unpriced = append(unpriced, pm.asset)
		}
	}
	v.pos = v.pos[:len(s.Positions)]
	v.reindex()
	slices.Sort(unpriced)
	v.s, v.m, v.unp = s, m, slices.Compact(unpriced)
	return eq.add(pnls)
}

// Of is Of(s, m, in), reusing what did not change since the Valuer's
// last valuation: a row whose memo still holds keeps the previous
// valuation's decimals (they are immutable), and only the shares of
// equity are made anew. The same snapshots asked again give the same
// *Valuation; callers must not modify it.
func (v *Valuer) Of(s *state.Snapshot, m *market.Snapshot, in string) *Valuation {
	if m == nil || m.Version == 0 || len(m.Quotes) == 0 {
		return nil
	}
	if s == nil {
		s = &state.Snapshot{}
	}
	if v.same(s, m, in) && v.val != nil {
		return v.val
	}
	prev, prevTick := v.val, v.tick
	equity := v.pass(s, m, in)
	if v.tick != prevTick+1 || v.tick == 1 {
		prev = nil
	}
	// A row made before this pass was made (and valued) by the last one.
	kept := func(gen uint64) bool { return prev != nil && gen != v.tick }

	val := &Valuation{Asset: in, Unpriced: slices.Clone(v.unp)}
	// The block holds the shares and the decimals of the rows made anew.
	// The slab holds the pointed-to decimals of those rows (a price and a
	// value, or a position's five) and every share.
	need := len(s.Balances)
	for i := range v.bals {
		if !kept(v.bals[i].gen) || i >= len(prev.Assets) {
			need += 2
		}
	}
	for i := range v.pos {
		if !kept(v.pos[i].gen) || i >= len(prev.Positions) {
			need += 5
		}
	}
	var blk decBlock
	blk.grow(need + len(s.Balances) + 1)
	slab := make([]decimal.Decimal, need)
	take := func(n int) []decimal.Decimal { d := slab[:n:n]; slab = slab[n:]; return d }
	shares := take(len(s.Balances))
	val.Assets = make([]AssetValue, len(s.Balances))
	for i := range s.Balances {
		av, bm := &val.Assets[i], &v.bals[i]
		if kept(bm.gen) && i < len(prev.Assets) {
			*av = prev.Assets[i]
			av.Share = nil
			continue
		}
		av.Asset = bm.asset
		av.Total = blk.dec(bm.total)
		if bm.price.ok {
			d := take(2)
			av.Price = blk.ptr(&d[0], bm.price.p)
			av.Value = blk.ptr(&d[1], bm.value)
		}
	}
	val.Positions = make([]PositionValue, len(s.Positions))
	for i := range s.Positions {
		if kept(v.pos[i].gen) && i < len(prev.Positions) {
			val.Positions[i] = prev.Positions[i]
			continue
		}
		position(&val.Positions[i], &s.Positions[i], m, &blk, take(5))
	}
	val.Equity = blk.dec(equity)
	if inv, ok := numOne.quo(equity); ok {
		for i := range val.Assets {
			if av := &val.Assets[i]; av.Value != nil {
				av.Share = blk.ptr(&shares[i], v.bals[i].value.mul(inv))
			}
		}
	}
	v.eq, v.val = val.Equity, val
	return val
}
