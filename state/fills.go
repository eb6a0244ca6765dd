package state

import (
	"hash/maphash"
	"math"
	"unsafe"

	"bhtop/event"
)

// Fills: every execution of the account is one fill (DESIGN.md 'Trading
// actions and fills'). A fill comes from an order event whose l > 0, or
// from a myTrades record; it is keyed by its order and trade id when the
// trade id is known (a self-trade's two sides share the trade id), else by
// (market, orderId, cumulative z after it), and an event and a record of
// the same trade are one fill.
//
// The fills live in a ring of reusable slots (the newest DefaultFillRetention
// by arrival are kept); each slot keeps its literals back to back in one
// buffer rewritten in place, and two hash indexes (trade key, z key) find
// a fill again, so folding a fill of a known order allocates nothing.

// DefaultFillRetention is how many fills a Store keeps by default.
const DefaultFillRetention = 10000

// WithFillRetention keeps the newest n fills (n >= 1; default
// DefaultFillRetention), by arrival.
func WithFillRetention(n int) Option {
	return func(s *Store) {
		if n >= 1 {
			s.fills.limit = n
		}
	}
}

// TradeSnap is one myTrades record, converted from the REST record.
// Market is MarketSpot or MarketContract; Side is BUY or SELL; MakerKnown
// is false when the record does not say (then an event's m is kept).
type TradeSnap struct {
	Market, Symbol, TradeID, OrderID, Side  string
	Price, Qty, Commission, CommissionAsset string
	Maker, MakerKnown                       bool
	Time                                    int64
	RealizedPnl                             string
}

// The literals kept in fill.lits, in this order.
const (
	flOrder = iota
	flPrice
	flQty
	flFee
	flZ
	flTrade // the two an event's fill mostly lacks come last (addExecFill)
	flPnl
	nFillLits
)

// fill is one execution in a ring slot. take, addFill and addExecFill
// set each field one by one when a slot is reused: a new field must be
// set there too.
type fill struct {
	seq                 uint64 // arrival number; 0: empty slot
	mkt                 uint8
	maker, makerKnown   bool
	again               bool // a record paired with a dropped event half (goneBook)
	time                int64
	symbol, side, asset string
	lits                []byte
	ends                [nFillLits]int32
	tkey, zkey          uint64 // index keys; 0 when not known
	mkey                uint64 // match key of a fill lacking tkey or zkey; 0 when complete at arrival
	mkind               byte   // mkey's chain: 'e' or 'r'
	next                int32  // the previous fill of the same match key (a chain, newest first)
	nextSeq             uint64 // its seq; a chain ends at a slot since reused
	row                 *Fill
}

func (f *fill) lit(k int) []byte {
	start := int32(0)
	if k > 0 {
		start = f.ends[k-1]
	}
	return f.lits[start:f.ends[k]]
}

// setLit replaces literal k, rewriting the buffer in place.
func (f *fill) setLit(k int, v []byte) {
	var buf [320]byte
	var vals [nFillLits][]byte
	tmp := buf[:0]
	for i := range vals {
		x := f.lit(i)
		if i == k {
			x = v
		}
		start := len(tmp)
		tmp = append(tmp, x...)
		vals[i] = tmp[start:len(tmp):len(tmp)]
	}
	f.setLits(vals[:]...)
}

func (f *fill) setLits(vals ...[]byte) { f.lits = packLits(f.lits, f.ends[:], vals...) }

// fillBook holds the fills of one Store.
type fillBook struct {
	limit int
	ring  []fill
	next  int // slot written next once the ring is full
	seq   uint64
	byKey keyIndex[int32] // trade keys and z keys → slot: an entry for each fill (findZ, findTrade)
	heads keyIndex[int32] // match keys → the slot of their chain's head
	seed  maphash.Seed
	// keyOr: bits set in every key. Tests set most of them, so that keys
	// collide and the checks of the fills a key names are exercised
	// (FuzzFills); 0 otherwise.
	keyOr   uint64
	salt    uint64 // of seed: mixed into the keys zKey makes of numbers
	records int    // fills in a chain of records ('r'): the only ones an event lacking t pairs with
	// Event fills lacking a trade id join their chain ('e') only when a
	// record first looks in one (indexEvents): those up to seq indexed
	// are in. Until then a stream alone never hashes their match keys.
	indexed uint64
	eager   bool // index each at its arrival, never through addExecFill (tests compare the two ways)
	dirty   bool
	ready   bool // seed and salt are set

	// The z keys of the usual fills are put in byKey only when a fill is
	// looked up there (indexZ): those up to seq zIndexed are in. A fill of
	// an order whose z is above every z of the order's fills kept (its
	// cover: order.fillSig, fillExp) cannot be a repeat, so it is added
	// without a look and its key is never hashed nor put nor dropped
	// (foldExecFill): ~150 instructions of the ~650 a fill took. That holds
	// while every fill with a z kept is covered by its order; those that
	// are not (an event the ordering rules refused, an order dropped while
	// its fills are kept) are wild: wildSeq is the newest, and while one
	// is kept every usual fill is looked up.
	zIndexed, wildSeq uint64

	// Snapshot bookkeeping (fillrows.go): view is the fills of the last
	// snapshot's rows, in order; rebuild says a fill already shown
	// changed (its row must be rebuilt).
	view    []fillRef
	rebuild bool
	// shownSeq is the newest seq at the last snapshot: view holds every
	// fill kept then, so a fill evicted since was shown iff its seq is
	// at most shownSeq; evictedShown counts those.
	shownSeq     uint64
	evictedShown int

	gone goneBook // dropped halves (fillsgone.go)
}

// fillRef names the fill in a slot while the slot still holds it.
type fillRef struct {
	slot int32
	seq  uint64
}

// fillIn is one execution to fold, as byte slices (valid during the call).
// Its literals are in v, as fill keeps them (flOrder, ...): copied as one.
type fillIn struct {
	mkt                 uint8
	v                   [nFillLits][]byte
	symbol, side, asset []byte
	maker, makerKnown   bool
	time                int64
	texts               *order // when not nil, its symbol and side are symbol's and side's text
	idKey               uint64 // numKey(orderID), when idKnown
	idKnown             bool
}

// trimID drops an id's leading zeros (one trade, however written).
func trimID(id []byte) []byte {
	for len(id) > 1 && id[0] == '0' {
		id = id[1:]
	}
	return id
}

// tradeIDOf is t when it names a trade (digits; -1 and absent do not).
func tradeIDOf(t []byte) []byte {
	if event.IsDigits(t) {
		return t
	}
	return nil
}

// positiveDecimal reports whether b is a decimal literal above zero.
func positiveDecimal(b []byte) bool {
	if pos, plain := plainPositive(b); plain { // the usual literal, in one pass
		return pos
	}
	if zerosAndDots(b) { // zero or not a decimal
		return false
	}
	d, ok := event.ParseDec(b)
	return ok && !d.Neg && !d.IsZero()
}

// plainPositive is positiveDecimal of a literal plainDecimal takes
// (plain, then, and pos when a digit is not 0); plain is false for any
// other, and so is pos (foldExecFill returns at once when !pos and plain,
// and goes on when pos: digits and then not a decimal, "1A", are not
// positive).
func plainPositive(b []byte) (pos, plain bool) {
	var or byte // the digits' bits beyond '0'
	i := 0
	for i < len(b) && isDigit(b[i]) {
		or |= b[i] - '0'
		i++
	}
	if i == 0 {
		return false, false
	}
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for i = j; i < len(b) && isDigit(b[i]); i++ {
			or |= b[i] - '0'
		}
		if i == j {
			return false, false
		}
	}
	plain = i == len(b)
	return or != 0 && plain, plain
}

// plainDecimal reports whether b is digits with an optional fraction.
func plainDecimal(b []byte) bool {
	i := 0
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for i = j; i < len(b) && isDigit(b[i]); i++ {
		}
		if i == j {
			return false
		}
	}
	return i == len(b)
}

// zerosAndDots reports whether b holds only '0' and '.' bytes.
func zerosAndDots(b []byte) bool {
	for _, c := range b {
		if c != '0' && c != '.' {
			return false
		}
	}
	return true
}

// foldExecFill records the execution an order event reports (l > 0),
// whether or not the ordering rules applied the event itself; o is the
// order it was applied to, nil when refused; p is x's prep, nil when
// none.
func (s *Store) foldExecFill(m uint8, x *event.ExecView, o *order, p *prep) {
	if p != nil {
		if p.flags&prepLPos == 0 {
			return
		}
	} else if pos, plain := plainPositive(x.LastQty); !pos && (plain || !positiveDecimal(x.LastQty)) { // (positiveDecimal's first case at once)
		return
	}
	b := &s.fills
	// The usual new fill (its order applied, no trade id, no record to
	// pair with, not seen before) is added straight from x: what foldFill
	// and addFill would do with its fillIn.
	usual := false
	if p != nil {
		usual = p.flags&prepUsual != 0
	} else {
		usual = usualFill(x)
	}
	if o != nil && usual && b.records == 0 && b.gone.records == 0 && b.ready && !b.eager {
		var sig uint64 // z's value (decValue's), when known
		var exp int64
		known := false
		if p != nil {
			if p.flags&prepZ != 0 {
				sig, exp, known = p.zSig, int64(p.zExp), true
			}
		} else if x.ZScale != 0 { // z's number from the decoder
			sig, exp = scaledDec(x.ZNum, int(x.ZScale)-1)
			known = true
		} else if len(x.CumQty) <= 19 {
			var plain bool
			sig, exp, known, plain = shortDecValue(x.CumQty)
			known = known && plain
		}
		if known && b.wildSeq+uint64(len(b.ring)) <= b.seq {
			mant := alignDec(sig)
			if o.fillSeq == 0 && sig != 0 || zAbove(exp, mant, o.fillExp, o.fillMant) {
				// Above every z of the order's fills, none wild: no fill
				// kept has this z. Added without its key (indexZ puts it
				// when needed).
				s.addExecFill(m, x, o, p, 0, -1)
				o.fillSeq, o.fillExp, o.fillMant = b.seq, exp, mant
				return
			}
		}
		if b.zIndexed != b.seq {
			b.indexZ()
		}
		var zk uint64
		if known && o.key != 0 { // (o.key is p.idKey when p is not nil)
			zk = b.zKeyMix(m, o.key, sig, exp)
		} else {
			zk = b.zKeyOf(m, o.key, x.OrderID, x.CumQty)
		}
		if _, at, ok := b.byKey.find(zk); !ok {
			s.addExecFill(m, x, o, p, zk, at)
			// indexZ ran up to the fill before and this one is put with
			// its key: the next fill need not call indexZ for it (while
			// a wild fill is kept, every usual fill comes this way).
			b.zIndexed = b.seq
			if known {
				b.cover(o, b.seq, sig, exp)
			} else {
				b.coverLit(o, b.seq, x.CumQty)
			}
			return
		}
	}
	var in fillIn // set field by field: a composite literal is built aside and copied
	in.mkt, in.maker, in.makerKnown, in.time, in.texts = m, x.Maker, true, x.EventTime, o
	in.v[flOrder], in.v[flTrade], in.v[flPrice], in.v[flQty] = x.OrderID, tradeIDOf(x.TradeID), x.LastPrice, x.LastQty
	in.v[flFee], in.v[flZ] = x.Commission, x.CumQty
	in.symbol, in.side, in.asset = x.Symbol, x.Side, x.CommissionAsset
	if o != nil { // the order's key: its id is x.OrderID
		in.idKey, in.idKnown = o.key, true
	} else if p != nil {
		in.idKey, in.idKnown = p.idKey, true
	}
	if string(in.asset) == "null" {
		in.asset = nil
	}
	if string(in.v[flFee]) == "null" {
		in.v[flFee] = nil
	}
	if len(x.TradeTime) > 0 { // (T is optional: mostly absent)
		if t, ok := event.ParseTime(x.TradeTime); ok && t > 0 {
			in.time = t
		}
	}
	s.foldFill(&in)
}

// usualFill reports whether the fill x reports has what addExecFill
// takes: z, no trade id, a fee (n not null).
func usualFill(x *event.ExecView) bool {
	return x.CumQty != nil && !event.IsDigits(x.TradeID) && string(x.Commission) != "null"
}

// ApplyTrades folds myTrades records: a record of a fill already known
// (by trade id, or an event fill of the same order, quantity and price
// that had no trade id) completes it; any other is a new fill.
func (s *Store) ApplyTrades(recs []TradeSnap) {
	for i := range recs {
		r := &recs[i]
		if !event.IsDigits([]byte(r.OrderID)) || !positiveDecimal([]byte(r.Qty)) {
			continue
		}
		m := uint8(mSpot)
		if r.Market == MarketContract {
			m = mContract
		}
		in := fillIn{mkt: m, v: [nFillLits][]byte{flOrder: []byte(r.OrderID), flTrade: tradeIDOf([]byte(r.TradeID)),
			flPrice: []byte(r.Price), flQty: []byte(r.Qty), flFee: []byte(r.Commission), flPnl: []byte(r.RealizedPnl)},
			symbol: []byte(r.Symbol), side: []byte(r.Side), asset: []byte(r.CommissionAsset),
			maker: r.Maker, makerKnown: r.MakerKnown, time: r.Time}
		s.foldFill(&in)
	}
}

// foldFill folds one execution: merged into the fill it repeats, or added.
// A fill is found by its trade id, or by (market, orderId, z) when it
// came in an order event (a repeat may carry t or not). An event lacking
// t and a record (which has no z) of the same order, quantity and price
// pair up through matchHalf.
func (s *Store) foldFill(in *fillIn) {
	b := &s.fills
	if !b.ready {
		b.seed = maphash.MakeSeed()
		b.salt = maphash.Bytes(b.seed, []byte("z"))
		b.ready = true
	}
	if b.zIndexed != b.seq {
		b.indexZ()
	}
	if in.v[flZ] != nil && !in.idKnown {
		in.idKey, in.idKnown = numKey(in.v[flOrder]), true
	}
	var tk, zk uint64
	if in.v[flTrade] != nil {
		tk = b.tradeKey(in.mkt, in.v[flOrder], in.v[flTrade])
		if i, ok := b.findTrade(tk, in); ok {
			if in.v[flZ] != nil {
				zk = b.zKeyOf(in.mkt, in.idKey, in.v[flOrder], in.v[flZ])
			}
			s.mergeFill(i, in, tk, zk)
			b.claimZ(in, b.ring[i].seq)
			return
		}
	}
	zat := -1 // where zk goes in byKey, until the index changes
	if in.v[flZ] != nil {
		zk = b.zKeyOf(in.mkt, in.idKey, in.v[flOrder], in.v[flZ])
		i, at, ok := b.findZ(zk, in)
		if ok {
			s.mergeFill(i, in, tk, zk) // (its z is in's: claimed already)
			return
		}
		zat = at
	}
	var me, mr uint64 // match keys, once needed
	switch {
	case tk != 0 && zk == 0: // a record: its event may have come without t
		me, mr = b.matchKeys(in.mkt, in.v[flOrder], in.v[flQty], in.v[flPrice])
		b.indexEvents()
		zat = -1 // (zk is 0 here)
		if i, ok := b.matchHalf(in, 'e', me); ok {
			s.mergeFill(i, in, tk, 0)
			return
		}
		b.indexGone()
		if gone, ok := b.pairGone(in, 'e', me); ok {
			s.addFill(in, tk, zk, mr, zat)
			b.markAgain(gone, true)
			return
		}
	case tk == 0 && zk != 0: // an event without t: its record may be here
		if b.records == 0 && b.gone.records == 0 {
			break // no chain of records to look in
		}
		_, mr = b.matchKeys(in.mkt, in.v[flOrder], in.v[flQty], in.v[flPrice])
		if i, ok := b.matchHalf(in, 'r', mr); ok {
			s.mergeFill(i, in, 0, zk)
			b.claimZ(in, b.ring[i].seq)
			return
		}
		if gone, ok := b.pairGone(in, 'r', mr); ok {
			s.addFill(in, tk, zk, mr, zat)
			b.markAgain(gone, false)
			b.claimZ(in, b.seq)
			return
		}
	case tk == 0:
		return // neither key: nothing to tell it apart by
	}
	s.addFill(in, tk, zk, mr, zat)
	if zk != 0 {
		b.claimZ(in, b.seq)
	}
}

// claimZ notes that the fill numbered seq has in's z (when in has one):
// the fill of an event its order applied is covered by that order, any
// other is wild (fillBook.wildSeq).
func (b *fillBook) claimZ(in *fillIn, seq uint64) {
	switch {
	case in.v[flZ] == nil:
	case in.texts != nil: // the order the event was applied to
		b.coverLit(in.texts, seq, in.v[flZ])
	default:
		b.wildSeq = max(b.wildSeq, seq)
	}
}

// cover counts the fill numbered seq, of z (sig, exp) (decValue's),
// among order o's: its cover grows to z. The fill of a dropped order is
// wild (orphan).
func (b *fillBook) cover(o *order, seq, sig uint64, exp int64) {
	if o.removed {
		b.wildSeq = max(b.wildSeq, seq)
		return
	}
	exp, mant := zRank(sig, exp)
	if o.fillSeq == 0 || zAbove(exp, mant, o.fillExp, o.fillMant) {
		o.fillExp, o.fillMant = exp, mant
	}
	o.fillSeq = max(o.fillSeq, seq)
}

// coverLit is cover of a z literal; one decValue cannot take (over 19
// significant digits) makes the cover unbounded: each later fill of the
// order is looked up.
func (b *fillBook) coverLit(o *order, seq uint64, z []byte) {
	if sig, exp, ok := decValue(z); ok || o.removed {
		b.cover(o, seq, sig, exp)
		return
	}
	o.fillExp, o.fillMant = math.MaxInt64, math.MaxUint64
	o.fillSeq = max(o.fillSeq, seq)
}

// orphan notes that order o is dropped: its fills kept are wild (an
// order of its id made again starts with no cover). So is a fill folded
// into o after: an order that closes with retention 0 is dropped in its
// own fold (evict), before its fill is folded. o's cover is made
// unbounded, so no such fill is added without a look, and cover makes
// it wild.
func (b *fillBook) orphan(o *order) {
	b.wildSeq = max(b.wildSeq, o.fillSeq)
	o.fillSeq, o.fillExp, o.fillMant = max(o.fillSeq, 1), math.MaxInt64, math.MaxUint64
}

// alignDec is the significant digits sig (decValue's, at most 19)
// aligned on the left in 19 digits: two decimals of one adjusted
// exponent compare as their aligned digits (0 for 0).
func alignDec(sig uint64) uint64 {
	if sig == 0 {
		return 0
	}
	return sig * pow10[19-decDigits(sig)]
}

// zRank is what zAbove compares of the decimal (sig, exp) (decValue's):
// its adjusted exponent, math.MinInt64 for 0 (below any other), and its
// digits aligned (alignDec).
func zRank(sig uint64, exp int64) (int64, uint64) {
	if sig == 0 {
		return math.MinInt64, 0
	}
	return exp, alignDec(sig)
}

// zAbove reports whether a decimal of adjusted exponent exp and aligned
// digits mant (zRank) is above the one of (wexp, wmant) by magnitude;
// (math.MaxInt64, math.MaxUint64) is above all.
func zAbove(exp int64, mant uint64, wexp int64, wmant uint64) bool {
	return mant != 0 && (exp > wexp || exp == wexp && mant > wmant)
}

// indexZ puts in byKey the z keys of the fills added since the last call
// without theirs (foldExecFill), oldest first: byKey is then what putting
// each at its arrival would have made of the fills kept.
func (b *fillBook) indexZ() {
	for seq := max(b.zIndexed+1, b.seq-uint64(len(b.ring))+1); seq <= b.seq; seq++ {
		i := int32((seq - 1) % uint64(b.limit))
		f := &b.ring[i]
		if f.seq != seq || f.zkey != 0 || f.ends[flZ] == f.ends[flFee] { // (no z: a record)
			continue
		}
		f.zkey = b.zKey(f.mkt, f.lit(flOrder), f.lit(flZ))
		b.byKey.add(f.zkey, i)
	}
	b.zIndexed = b.seq
}

// isTrade reports whether slot i holds in's order's execution of the
// trade in names.
func (b *fillBook) isTrade(i int32, in *fillIn) bool {
	f := &b.ring[i]
	return f.seq != 0 && f.mkt == in.mkt && f.tkey != 0 && string(trimID(f.lit(flTrade))) == string(trimID(in.v[flTrade])) &&
		string(trimID(f.lit(flOrder))) == string(trimID(in.v[flOrder]))
}

// isZ reports whether slot i holds the execution of (market, orderId, z).
func (b *fillBook) isZ(i int32, in *fillIn) bool {
	f := &b.ring[i]
	return f.seq != 0 && f.mkt == in.mkt && f.zkey != 0 && string(f.lit(flOrder)) == string(in.v[flOrder]) &&
		event.CompareDecimal(f.lit(flZ), in.v[flZ]) == 0
}

// matchHalf finds the oldest fill in the chain of kind ('e': event
// fills without a trade id, 'r': records, which have no z) with in's
// order, quantity and price that still lacks what in brings. An event
// fill paired with a dropped record (again) has its record: it is passed
// over (a record of an execution alike is another execution's); a record
// paired with a dropped event half is taken only when no other is (it
// may meet its own event).
func (b *fillBook) matchHalf(in *fillIn, kind byte, key uint64) (int32, bool) {
	i, ok := b.heads.get(key)
	if !ok {
		return 0, false
	}
	found, again, seq := int32(-1), int32(-1), b.ring[i].seq
	for seq != 0 {
		f := &b.ring[i]
		if f.seq != seq {
			break // reused: the rest of the chain is older still, gone too
		}
		lacks := f.tkey == 0
		if kind == 'r' {
			lacks = len(f.lit(flZ)) == 0
		}
		if lacks && f.mkt == in.mkt && string(f.lit(flOrder)) == string(in.v[flOrder]) &&
			sameByValue(f.lit(flQty), in.v[flQty]) && sameByValue(f.lit(flPrice), in.v[flPrice]) {
			switch {
			case !f.again:
				found = i
			case kind == 'r': // an again record may meet its own event (mergeFill)
				again = i
			} // an again event has its record (dropped): another record is another execution
		}
		i, seq = f.next, f.nextSeq
	}
	if found < 0 { // a record paired with a dropped half only when no other is here
		found = again
	}
	return found, found >= 0
}

// mergeFill completes fill i with what in adds (trade id, z, maker, PnL,
// fee asset). A repeat that adds nothing changes nothing.
func (s *Store) mergeFill(i int32, in *fillIn, tk, zk uint64) {
	b := &s.fills
	f := &b.ring[i]
	changed := false
	if f.tkey == 0 && tk != 0 {
		f.setLit(flTrade, in.v[flTrade])
		f.tkey = tk
		b.byKey.add(tk, i)
		changed = true
	}
	if len(f.lit(flZ)) == 0 && len(in.v[flZ]) > 0 {
		f.setLit(flZ, in.v[flZ])
		changed = true
		if f.again { // a record that met its own event: the dropped half it paired with is another's
			b.unpairGone(b.gone.unclaim(f.seq))
			delete(b.gone.againOf, f.seq)
			f.again = false
		}
	}
	if f.zkey == 0 && zk != 0 {
		f.zkey = zk
		b.byKey.add(zk, i)
	}
	if !f.makerKnown && in.makerKnown {
		f.maker, f.makerKnown, changed = in.maker, true, true
	}
	if len(f.lit(flPnl)) == 0 && len(in.v[flPnl]) > 0 {
		f.setLit(flPnl, in.v[flPnl])
		changed = true
	}
	if f.asset == "" && len(in.asset) > 0 {
		s.setText(&f.asset, in.asset)
		changed = true
	}
	if changed {
		f.row = nil
		b.dirty, b.rebuild = true, true
	}
}

// addFill stores a new fill, evicting the oldest by arrival when full;
// mr is in's record match key when already known (else 0); zat is where
// byKey.find placed zk, not there (-1 when not known).
func (s *Store) addFill(in *fillIn, tk, zk, mr uint64, zat int) {
	b := &s.fills
	i, f, zPut := b.take(zk, zat)
	f.mkt, f.maker, f.makerKnown, f.time, f.tkey = in.mkt, in.maker, in.makerKnown, in.time, tk
	if in.texts != nil { // the order's texts, just set from the same event: no lookup
		f.symbol, f.side = in.texts.symbol, in.texts.side
	} else {
		s.setText(&f.symbol, in.symbol)
		s.setText(&f.side, in.side)
	}
	s.setText(&f.asset, in.asset)
	f.lits = s.slab.packFill(f.lits, &f.ends, &in.v)
	if tk != 0 {
		b.byKey.add(tk, i)
	}
	if zk != 0 && !zPut {
		b.byKey.add(zk, i)
	}
	switch {
	case tk == 0:
		f.mkind = 'e' // its match key waits for indexEvents
	case len(in.v[flZ]) == 0:
		if mr == 0 {
			_, mr = b.matchKeys(in.mkt, in.v[flOrder], in.v[flQty], in.v[flPrice])
		}
		f.mkey, f.mkind = mr, 'r'
		b.records++
		b.chain(i)
	}
	b.added1()
}

// addExecFill is addFill of the execution an update of order o reports,
// without a trade id: zk is its z key, not in byKey, whose find gave
// zat; p is x's prep, nil when none.
func (s *Store) addExecFill(m uint8, x *event.ExecView, o *order, p *prep, zk uint64, zat int) {
	b := &s.fills
	i, f, zPut := b.take(zk, zat)
	f.mkt, f.maker, f.makerKnown, f.time, f.tkey = m, x.Maker, true, x.EventTime, 0
	if p != nil {
		if p.flags&prepT != 0 {
			f.time = p.tTime
		}
	} else if len(x.TradeTime) > 0 {
		if t, ok := event.ParseTime(x.TradeTime); ok && t > 0 {
			f.time = t
		}
	}
	f.symbol, f.side = o.symbol, o.side
	asset := x.CommissionAsset
	if string(asset) == "null" {
		asset = nil
	}
	if len(f.asset) != len(asset) || len(asset) > 0 && !sameText(f.asset, asset) { // (setText, the usual asset compared inline)
		s.newText(&f.asset, asset)
	}
	if p != nil && p.flags&prepPacked != 0 {
		f.lits = s.slab.packedLits(f.lits, p.fillLits(), int(p.fillLen))
		*(*[flTrade]int32)(f.ends[:]) = p.fillEnds
	} else if !packExecFill(&f.lits, &f.ends, x) {
		f.lits = s.slab.packAt(f.lits, f.ends[:flTrade], unsafe.Pointer(x), execFillOffs[:])
	}
	f.ends[flTrade], f.ends[flPnl] = f.ends[flZ], f.ends[flZ] // none
	// zk 0: indexZ puts it when needed.
	if zk != 0 && !zPut {
		b.byKey.add(zk, i)
	}
	f.mkind = 'e' // its match key waits for indexEvents
	b.added1()
}

// packExecFill is packAt of the literals of the fill x reports (but for
// the trade id and PnL) into *buf, unrolled as packOrder: when the order
// id has at most 32 bytes, each other literal at most 16, and *buf room
// for them all (the usual fill), each is copied by putLit and only
// *buf's length is set (no write barrier); false (nothing done) for any
// other, then packAt. packAt's loop over offsets and sizes took ~180
// instructions a fill, this ~60.
func packExecFill(buf *[]byte, ends *[nFillLits]int32, x *event.ExecView) bool {
	e0 := len(x.OrderID)
	e1 := e0 + len(x.LastPrice)
	e2 := e1 + len(x.LastQty)
	e3 := e2 + len(x.Commission)
	e4 := e3 + len(x.CumQty)
	if e0 > 32 || len(x.LastPrice)|len(x.LastQty)|len(x.Commission)|len(x.CumQty) > 16 || cap(*buf)-litRoom < e4 {
		return false
	}
	d, s := unsafe.Pointer(unsafe.SliceData(*buf)), unsafe.Pointer(unsafe.SliceData(x.OrderID))
	if e0 > 16 { // an id of 17 to 32 digits (a contract's are 18): its first 16 bytes, then the rest
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, 8)) = *(*uint64)(s), *(*uint64)(unsafe.Add(s, 8))
		putLit(unsafe.Add(d, 16), unsafe.Add(s, 16), e0-16)
	} else {
		putLit(d, s, e0)
	}
	putLit(unsafe.Add(d, e0), unsafe.Pointer(unsafe.SliceData(x.LastPrice)), e1-e0)
	putLit(unsafe.Add(d, e1), unsafe.Pointer(unsafe.SliceData(x.LastQty)), e2-e1)
	putLit(unsafe.Add(d, e2), unsafe.Pointer(unsafe.SliceData(x.Commission)), e3-e2)
	putLit(unsafe.Add(d, e3), unsafe.Pointer(unsafe.SliceData(x.CumQty)), e4-e3)
	ends[flOrder], ends[flPrice], ends[flQty], ends[flFee], ends[flZ] = int32(e0), int32(e1), int32(e2), int32(e3), int32(e4)
	*buf = (*buf)[:e4]
	return true
}

// take readies the slot of a new fill, evicting the oldest by arrival
// when the ring is full: every field set but the texts, the literals
// (whose buffer is reused) and mkt, maker, makerKnown, time and tkey; zk
// is its z key (0: none), zat where byKey.find placed it (-1: not
// known); zPut says whether zk was put there. Fill seq is in slot
// (seq-1) % limit.
//
// The usual drop (an event fill lacking t, in no chain, whose z key was
// never put in byKey (indexZ), over an entry no record looked at) only
// moves the literals to the dropped halves (goneBook.take), inline; any
// other eviction is takeEvict's. Taking it apart as a tail call leaves
// nothing live across a call on the usual path, so nothing is spilled.
func (b *fillBook) take(zk uint64, zat int) (int32, *fill, bool) {
	if len(b.ring) < b.limit {
		return b.takeNew(zk, zat)
	}
	i := int32(b.next)
	f := &b.ring[i]
	g := &b.gone
	n := g.next
	if f.mkind != 'e' || f.tkey|f.mkey|f.zkey != 0 || f.again || int(n) >= len(g.ring) || g.ring[n].keyed {
		return b.takeEvict(zk, zat)
	}
	// zk goes where find saw its place (nothing is dropped here).
	zPut := zk != 0 && b.byKey.putAt(zat, zk, i)
	g.next++
	g.added++
	e := &g.ring[n]
	e.gseq, e.mkt, e.seq = g.added, f.mkt, f.seq
	e.ends = [goneLits]int32(f.ends[:goneLits])
	e.lits, f.lits = f.lits, e.lits[:0]
	b.reuse(f, zk)
	return i, f, zPut
}

// takeEvict is take of a full ring whose oldest fill is not the usual
// drop: its keys are dropped and it is remembered when it lacks its
// other half (evict).
func (b *fillBook) takeEvict(zk uint64, zat int) (i int32, f *fill, zPut bool) {
	i = int32(b.next)
	f = &b.ring[i]
	// zk goes in first, where find saw its place: the evicted fill's keys
	// dropped below shift entries, which could leave a hole before it.
	zPut = zk != 0 && b.byKey.putAt(zat, zk, i)
	b.evict(f, i)
	b.reuse(f, zk)
	return i, f, zPut
}

// reuse numbers slot b.next's fill f, just evicted, as the new fill of
// z key zk, and moves b.next on.
func (b *fillBook) reuse(f *fill, zk uint64) {
	if b.next++; b.next == b.limit {
		b.next = 0
	}
	if f.seq <= b.shownSeq && f.seq != 0 {
		b.evictedShown++
	}
	b.seq++
	// Field by field (a composite literal would be built aside and
	// copied).
	f.seq, f.zkey, f.mkey, f.mkind, f.next, f.nextSeq, f.again = b.seq, zk, 0, 0, 0, 0, false
	if f.row != nil {
		f.row = nil
	}
}

// takeNew is take while the ring is not yet full: a new slot.
func (b *fillBook) takeNew(zk uint64, zat int) (i int32, f *fill, zPut bool) {
	i = int32(len(b.ring))
	zPut = zk != 0 && b.byKey.putAt(zat, zk, i)
	b.ring = append(b.ring, fill{})
	b.seq++
	f = &b.ring[i]
	f.seq, f.zkey = b.seq, zk
	return i, f, zPut
}

// evict forgets fill f of slot i, about to be reused (take): its keys,
// and it is remembered when it lacks its other half (fillsgone.go).
func (b *fillBook) evict(f *fill, i int32) {
	if f.tkey != 0 {
		b.byKey.dropIf(f.tkey, i)
	}
	b.byKey.dropIf(f.zkey, i)
	if f.mkey != 0 {
		b.heads.dropIf(f.mkey, i)
	}
	if f.mkind == 'r' {
		b.records--
	}
	if f.mkind != 0 && (f.mkind != 'e' || !b.gone.take(f)) {
		b.rememberAll(f)
	}
}

// added1 notes a new fill for the next snapshot: the fills added since
// the last are those numbered past shownSeq (fillRows).
func (b *fillBook) added1() {
	if b.eager {
		b.indexEvents()
	}
	b.dirty = true
}

// chain makes fill i, whose mkey is set, the head of its match key's
// chain.
func (b *fillBook) chain(i int32) {
	f := &b.ring[i]
	if j, ok := b.heads.swap(f.mkey, i); ok {
		f.next, f.nextSeq = j, b.ring[j].seq
	}
}

// indexEvents puts the event fills lacking a trade id that arrived since
// the last call into their chains, oldest first: the chains are then
// what adding each at its arrival would have made of the fills still
// kept (a chain is walked only until a fill no longer kept).
func (b *fillBook) indexEvents() {
	from := max(b.indexed+1, b.seq-uint64(len(b.ring))+1)
	for seq := from; seq <= b.seq; seq++ {
		i := int32((seq - 1) % uint64(b.limit))
		f := &b.ring[i]
		if f.seq != seq || f.mkind != 'e' || f.mkey != 0 {
			continue
		}
		f.mkey, _ = b.matchKeys(f.mkt, f.lit(flOrder), f.lit(flQty), f.lit(flPrice))
		b.chain(i)
	}
	b.indexed = b.seq
}
