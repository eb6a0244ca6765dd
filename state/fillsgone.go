package state

// Fills the ring dropped (retention) whose other half may still come: an
// event fill lacking a trade id (its myTrades record may come later) and
// a record lacking z (its event without t may come later). A half that
// comes after its fill was dropped is a new fill of the Store (the dump
// is what the ring keeps), but the same execution: the new fill is again
// (Fill.Again: the dropped fill's Seq), and FillScan (alerts, metrics)
// does not count it when it saw that one. The newest max(limit, 1024)
// such dropped fills are remembered; each takes the dropped slot's
// literals as they were (a buffer swap, no copy). Event fills join
// their chain of match keys only when a record first looks (indexGone),
// as in the ring: a stream alone never hashes them.

// goneFill is one dropped half: 64 bytes, one cache line written per
// drop; its chain link, rarely needed, is apart (goneLink).
type goneFill struct {
	gseq   uint64 // its number among the dropped (from 1); 0: empty
	lits   []byte // the fill's literals (those past flQty too)
	ends   [goneLits]int32
	mkt    uint8
	kind   byte   // 'e': event fill lacking t; 'r': record lacking z
	paired bool   // its other half came (it is Again)
	keyed  bool   // its goneLink is set
	seq    uint64 // the dropped fill's seq (Fill.Seq)
}

// goneLits is how many of a fill's literals a goneFill keeps the ends
// of: it reads flOrder, flPrice and flQty; flFee's end is kept too, so
// that the entry stays 64 bytes.
const goneLits = flFee + 1

// goneLink is a keyed entry's match key and place in its chain.
type goneLink struct {
	mkey    uint64 // its match key (kind's chain)
	next    int32  // the previous dropped half of the same match key
	nextSeq uint64 // its gseq; a chain ends at an entry since reused
}

func (g *goneFill) lit(k int) []byte {
	start := int32(0)
	if k > 0 {
		start = g.ends[k-1]
	}
	return g.lits[start:g.ends[k]]
}

// goneRef names a remembered half while its entry holds it.
type goneRef struct {
	n    int32
	gseq uint64
	seq  uint64 // the dropped fill's (goneFill.seq), when pairGone names it
}

// goneBook remembers the dropped halves of one fillBook.
type goneBook struct {
	ring    []goneFill
	links   []goneLink      // of ring's entries, by index
	next    int32           // entry written next: the (added % len(ring))th
	added   uint64          // halves ever remembered
	keys    keyIndex[int32] // match keys (chain heads) → entry
	indexed uint64          // event halves up to this gseq are in their chains
	records int             // unpaired record halves kept
	// claims: the event half an again record (by its fill's seq, or
	// its entry's gseq|goneEntry once dropped) was paired with.
	claims map[uint64]goneRef
	// againOf: an again fill's seq → the seq of the dropped fill it
	// repeats (Fill.Again), while the ring keeps it.
	againOf map[uint64]uint64
}

// goneEntry marks a claims key that is an entry's gseq.
const goneEntry = 1 << 63

// claim records that the fill numbered seq (an again record) was paired
// with the event half r.
func (g *goneBook) claim(seq uint64, r goneRef) {
	if g.claims == nil {
		g.claims = map[uint64]goneRef{}
	}
	g.claims[seq] = r
}

// unclaim forgets and returns the claim under key k (zero if none).
func (g *goneBook) unclaim(k uint64) goneRef {
	r, ok := g.claims[k]
	if ok {
		delete(g.claims, k)
	}
	return r
}

// Remembering the half of fill f, about to be dropped, when it lacks its
// other half: its literals move to the entry, whose old buffer f reuses.
// The usual drop, an event fill lacking t over an entry no record ever
// looked at, only moves the literals (take, inlined in addFill: the fold
// of a known order's fill drops one); any other takes rememberAll.

// take remembers f, an event fill that lacked t at arrival (mkind 'e'),
// when it still lacks it (its record did not complete it), is not again
// and the entry reused is not keyed (neither a record nor paired); false
// for any other (rememberAll forgets a complete one).
func (g *goneBook) take(f *fill) bool {
	r, n := g.ring, int(g.next)
	if n >= len(r) || r[n].keyed || f.again || f.tkey != 0 {
		return false
	}
	g.next++
	g.added++
	e := &r[n] // an event half's (kind 'e') or never written
	e.gseq, e.mkt, e.seq = g.added, f.mkt, f.seq
	e.ends = [goneLits]int32(f.ends[:goneLits])
	e.lits, f.lits = f.lits, e.lits[:0]
	return true
}

// rememberAll remembers any fill: f may be complete, a record, an
// again fill (its claim moves to its entry), and the entry reused may
// be in a chain.
func (b *fillBook) rememberAll(f *fill) {
	var claim goneRef
	if f.again {
		claim = b.gone.unclaim(f.seq)
		delete(b.gone.againOf, f.seq)
	}
	var kind byte
	switch {
	case f.tkey == 0:
		kind = 'e'
	case f.mkind == 'r' && len(f.lit(flZ)) == 0:
		kind = 'r'
	default:
		return
	}
	g := &b.gone
	if g.ring == nil {
		g.ring, g.links = make([]goneFill, b.goneCap()), make([]goneLink, b.goneCap())
		for n := range g.ring {
			g.ring[n].kind = 'e' // as take leaves it
		}
	}
	if int(g.next) == len(g.ring) {
		g.next = 0
	}
	n := g.next
	g.next++
	e := &g.ring[n]
	if e.keyed { // (records are)
		g.keys.dropIf(g.links[n].mkey, n)
		if e.kind == 'r' && !e.paired {
			g.records--
		}
		if e.kind == 'r' && len(g.claims) > 0 {
			g.unclaim(e.gseq | goneEntry)
		}
	}
	g.added++
	lits := e.lits
	*e = goneFill{gseq: g.added, seq: f.seq, mkt: f.mkt, kind: kind, lits: f.lits, ends: [goneLits]int32(f.ends[:goneLits])}
	if claim.gseq != 0 {
		g.claim(e.gseq|goneEntry, claim)
	}
	f.lits = lits[:0]
	if f.mkey != 0 || kind == 'r' { // a record's (take passes over keyed entries only), or an event half's when the ring indexed it: indexGone chains it
		g.links[n], e.keyed = goneLink{mkey: f.mkey}, true
	}
	if kind == 'r' {
		g.records++
		g.chain(n)
	}
}

// markAgain marks the fill just added again: the other half of the
// dropped one r, which a record claims.
func (b *fillBook) markAgain(r goneRef, record bool) {
	g := &b.gone
	b.ring[(b.seq-1)%uint64(b.limit)].again = true
	if g.againOf == nil {
		g.againOf = map[uint64]uint64{}
	}
	g.againOf[b.seq] = r.seq
	if record {
		g.claim(b.seq, r)
	}
}

// goneCap is how many dropped halves are remembered: as many as the ring
// keeps, and at least 1024.
func (b *fillBook) goneCap() int { return max(b.limit, 1024) }

// chain makes entry n, whose mkey is set, the head of its chain.
func (g *goneBook) chain(n int32) {
	l := &g.links[n]
	if j, ok := g.keys.swap(l.mkey, n); ok {
		l.next, l.nextSeq = j, g.ring[j].gseq
	}
}

// indexGone puts the dropped event halves remembered since the last call
// into their chains, oldest first.
func (b *fillBook) indexGone() {
	g := &b.gone
	from := max(g.indexed+1, g.added-min(g.added, uint64(len(g.ring)))+1)
	for seq := from; seq <= g.added; seq++ {
		n := int32((seq - 1) % uint64(b.goneCap()))
		e := &g.ring[n]
		if e.gseq != seq || e.kind != 'e' {
			continue
		}
		if !e.keyed {
			mkey, _ := b.matchKeys(e.mkt, e.lit(flOrder), e.lit(flQty), e.lit(flPrice))
			g.links[n], e.keyed = goneLink{mkey: mkey}, true
		}
		g.chain(n)
	}
	g.indexed = g.added
}

// pairGone reports whether in is the other half of a dropped one (the
// oldest unpaired of kind in the chain of key with in's order, quantity
// and price; a record that was again, paired with another dropped half,
// only when no other is), which it then pairs, and names it.
func (b *fillBook) pairGone(in *fillIn, kind byte, key uint64) (goneRef, bool) {
	g := &b.gone
	n, ok := g.keys.get(key)
	if !ok {
		return goneRef{}, false
	}
	found, again, seq := int32(-1), int32(-1), g.ring[n].gseq
	for seq != 0 {
		e := &g.ring[n]
		if e.gseq != seq {
			break // reused: the rest of the chain is gone too
		}
		if !e.paired && e.kind == kind && e.mkt == in.mkt && string(e.lit(flOrder)) == string(in.v[flOrder]) &&
			sameByValue(e.lit(flQty), in.v[flQty]) && sameByValue(e.lit(flPrice), in.v[flPrice]) {
			if _, claimed := g.claims[e.gseq|goneEntry]; claimed && kind == 'r' {
				again = n
			} else {
				found = n
			}
		}
		n, seq = g.links[n].next, g.links[n].nextSeq
	}
	if found < 0 { // an again record only when no other is remembered (as matchHalf)
		found = again
	}
	if found < 0 {
		return goneRef{}, false
	}
	e := &g.ring[found]
	e.paired = true
	if kind == 'r' {
		g.records--
		if c := g.unclaim(e.gseq | goneEntry); c.gseq != 0 { // an again record met its own event: the event half it claimed is another's
			b.unpairGone(c)
			return goneRef{}, false // and this event is counted
		}
	}
	return goneRef{found, e.gseq, e.seq}, true
}

// unpairGone undoes the pairing of the event half r (when still kept): a
// record paired with it met its own event, with another z.
func (b *fillBook) unpairGone(r goneRef) {
	if e := &b.gone.ring[r.n]; e.gseq == r.gseq && r.gseq != 0 {
		e.paired = false
	}
}
