// Package state folds user-stream events and REST snapshots into one exact
// picture of the account, under DESIGN.md's ordering rules.
package state

import (
	"unsafe"

	"bhtop/event"
)

// Store is the account state owned by one writer goroutine: it is not safe
// for concurrent use. Readers get immutable copies from Snapshot (hand them
// out with a Hub). The zero value is not usable; call NewStore.
type Store struct {
	dec       event.Decoder
	retention int
	tombCap   int
	report    func(kind event.Kind, reason string, raw []byte)

	markets [2]market // index mContract, mSpot (the dump's sort order)

	// closed-order retention: a list in order of first closing
	closedHead, closedTail *order
	closedCount            int

	// order rows bookkeeping for Snapshot (see orderRows)
	added       []*order // orders made since the last Snapshot
	changed     []*order // orders whose row was dropped since the last Snapshot
	dropped     []*order // orders evicted since the last Snapshot or compaction
	gone        []rowKey // keys of evicted orders whose rows the last Snapshot shows
	free        []*order // dropped orders to reuse
	ordersDirty bool

	acct     *acctState
	acctRow  *Account
	balances map[string]*balance
	balDirty bool

	positions []*position
	posDirty  bool

	pending   []Pending
	pendDirty bool
	fills     fillBook
	stats     Stats
	lastEvent int64
	version   uint64
	prev      *Snapshot
	interned  map[string]string
	recent    [64]string // interned texts by textSlot: most lookups end here
	slab      litSlab    // buffers of new orders' and fills' literals
	orderSlab []order    // new orders not yet used, allocated 64 at a time

	newSyms, newAssets []string // noted since TakeNewSymbols (newsymbols.go)
}

// Option changes a Store made by NewStore.
type Option func(*Store)

// DefaultRetention is how many closed orders a Store keeps by default.
const DefaultRetention = 10000

// MinTombstones is the fewest dropped-order tombstones a Store keeps.
const MinTombstones = 100000

// WithRetention keeps at most n closed orders (n >= 0); the one that
// closed earliest is dropped first. The default is DefaultRetention.
func WithRetention(n int) Option {
	return func(s *Store) {
		if n >= 0 {
			s.retention = n
		}
	}
}

// WithTombstones keeps the last n tombstones of dropped orders; values
// below MinTombstones are raised to it.
func WithTombstones(n int) Option {
	return func(s *Store) { s.tombCap = max(n, MinTombstones) }
}

// WithReport calls fn for each malformed element and each unknown event
// type, with the reason and the element's raw text (valid only during the
// call). fn runs on the writer's goroutine and must be quick.
func WithReport(fn func(kind event.Kind, reason string, raw []byte)) Option {
	return func(s *Store) { s.report = fn }
}

// NewStore returns an empty store.
func NewStore(opts ...Option) *Store {
	s := &Store{retention: DefaultRetention, tombCap: MinTombstones, balances: map[string]*balance{}, interned: map[string]string{}}
	s.fills.limit = DefaultFillRetention
	for _, o := range opts {
		o(s)
	}
	return s
}

// ApplyFrame decodes one text frame and folds every event in it, counting
// stats. Heartbeats are handed to onPing with N's exact bytes (valid only
// during the call); onPing may be nil.
func (s *Store) ApplyFrame(frame []byte, onPing func(n []byte)) {
	evs := s.dec.Decode(frame)
	for i := range evs {
		ev := &evs[i]
		if k := ev.Kind; k == event.KindExecution || k == event.KindContractExecution { // applyPrep's first case, one call less
			s.foldOrder(execMarket(k), &ev.Exec, nil, foldEvent)
			continue
		}
		s.applyPrep(ev, nil, onPing)
	}
}

// ApplyEvents folds events decoded elsewhere (event.Decoder.DecodeKeep on
// another goroutine) exactly as ApplyFrame folds the events of a frame:
// decoding may run ahead of folding, in parallel.
func (s *Store) ApplyEvents(evs []event.Event, onPing func(n []byte)) {
	for i := range evs {
		s.applyPrep(&evs[i], nil, onPing)
	}
}

// applyPrep folds ev; p is what PrepareEvents prepared of it, nil when
// nothing was.
func (s *Store) applyPrep(ev *event.Event, p *prep, onPing func([]byte)) {
	if k := ev.Kind; k == event.KindExecution || k == event.KindContractExecution { // the usual event first
		s.foldOrder(execMarket(k), &ev.Exec, p, foldEvent) // counts it, folds its fill
		return
	}
	switch ev.Kind {
	case event.KindMalformed:
		s.stats.Malformed++
		if s.report != nil {
			s.report(ev.Kind, ev.Reason, ev.Raw)
		}
		return
	case event.KindPing:
		if onPing != nil {
			onPing(ev.Ping)
		}
		return
	case event.KindUnknown:
		s.stats.UnknownType++
		if s.report != nil {
			s.report(ev.Kind, "unknown event type", ev.Raw)
		}
		return
	}
	s.stats.Events++
	s.stats.ByType[typeIndex(ev.Kind)]++
	var ok bool
	var e int64
	switch ev.Kind {
	case event.KindAccount:
		ok, e = s.applyAccount(&ev.Account), ev.Account.EventTime
	case event.KindPosition:
		s.applyPosition(&ev.Position)
		ok = true
	}
	s.counted(ok, e)
}

// execMarket is the market of an order update of kind k.
func execMarket(k event.Kind) uint8 {
	if k == event.KindContractExecution {
		return mContract
	}
	return mSpot
}

// counted counts an event the ordering rules applied (ok; e its E) or
// found stale.
func (s *Store) counted(ok bool, e int64) {
	if ok {
		s.stats.Applied++
		if e > s.lastEvent {
			s.lastEvent = e
		}
	} else {
		s.stats.Stale++
	}
}

// typeIndex is the index in Stats.ByType of an event kind (one of the four).
func typeIndex(k event.Kind) int {
	switch k {
	case event.KindAccount:
		return 0
	case event.KindExecution:
		return 1
	case event.KindContractExecution:
		return 2
	}
	return 3
}

// CountMalformed counts a frame that never reached ApplyFrame as
// malformed (a binary WebSocket frame, a bad journal record).
// ApplyFrame(nil, nil) does the same: an empty frame is malformed.
func (s *Store) CountMalformed() { s.stats.Malformed++ }

// Stats returns the counters so far.
func (s *Store) Stats() Stats { return s.stats }

// maxInterned bounds the table of interned texts.
const maxInterned = 4096

// setText is setStr for short texts that repeat across orders (symbols,
// sides, types, statuses, leverage): they are interned, so a new order
// does not allocate them again.
func (s *Store) setText(dst *string, b []byte) {
	if *dst != string(b) { // small enough to inline: most texts are the same again
		s.newText(dst, b)
	}
}

// sameText is a == string(b) for a and b of the same length. A text of 4
// to 16 bytes (the usual symbol, type, status) is compared by two loads
// of each that may overlap, with no call to memequal.
func sameText(a string, b []byte) bool {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.SliceData(b))
	switch {
	case uint(n-4) > 12: // under 4 or over 16 bytes
		return a == string(b)
	case n >= 8:
		return *(*uint64)(p) == *(*uint64)(q) && *(*uint64)(unsafe.Add(p, n-8)) == *(*uint64)(unsafe.Add(q, n-8))
	}
	return *(*uint32)(p) == *(*uint32)(q) && *(*uint32)(unsafe.Add(p, n-4)) == *(*uint32)(unsafe.Add(q, n-4))
}

// wordsDiff is 0 when a == string(b), for a and b of the same length n
// (4 <= n <= 16: the usual symbol and type), and nonzero when not: two
// loads of each that may overlap, no call and no branch but on n, so that
// foldOrder ORs the differences of all its texts and tests once.
func wordsDiff(a string, b []byte) uint64 {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if n >= 8 {
		return (*(*uint64)(p) ^ *(*uint64)(q)) | (*(*uint64)(unsafe.Add(p, n-8)) ^ *(*uint64)(unsafe.Add(q, n-8)))
	}
	return uint64((*(*uint32)(p) ^ *(*uint32)(q)) | (*(*uint32)(unsafe.Add(p, n-4)) ^ *(*uint32)(unsafe.Add(q, n-4))))
}

// shortDiff is wordsDiff of a text of 2 to 7 bytes (the usual side, time
// in force and leverage).
func shortDiff(a string, b []byte) uint64 {
	n := len(b)
	p, q := unsafe.Pointer(unsafe.StringData(a)), unsafe.Pointer(unsafe.SliceData(b))
	if n >= 4 {
		return uint64((*(*uint32)(p) ^ *(*uint32)(q)) | (*(*uint32)(unsafe.Add(p, n-4)) ^ *(*uint32)(unsafe.Add(q, n-4))))
	}
	return uint64((*(*uint16)(p) ^ *(*uint16)(q)) | (*(*uint16)(unsafe.Add(p, n-2)) ^ *(*uint16)(unsafe.Add(q, n-2))))
}

// newText is setText of a text that differs from *dst.
func (s *Store) newText(dst *string, b []byte) {
	if len(b) == 0 {
		*dst = ""
		return
	}
	slot := &s.recent[textSlot(b)]
	if *slot == string(b) {
		*dst = *slot
		return
	}
	v, ok := s.interned[string(b)]
	if !ok {
		v = string(b)
		if len(s.interned) < maxInterned && len(v) <= 64 {
			s.interned[v] = v
		}
	}
	if len(v) <= 64 {
		*slot = v
	}
	*dst = v
}

// textSlot places a nonempty text in Store.recent: by its length and its
// first and last bytes, which tell the usual few symbols, sides, types
// and statuses apart without hashing them.
func textSlot(b []byte) int {
	return (len(b)*5 + int(b[0])*3 + int(b[len(b)-1])) & 63
}
