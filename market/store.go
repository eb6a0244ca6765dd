package market

import (
	"maps"
	"slices"
	"time"
)

// Store limits: what a snapshot keeps per symbol.
const (
	MaxTrades  = 60   // newest trades per symbol
	MaxLevels  = 20   // book levels per side
	MaxCandles = 1000 // bars per symbol and interval
)

// Store holds the market as the quote client last saw it. It has no lock
// of its own: one writer at a time calls its methods (the client holding
// its lock; tests and benchmarks directly). Readers never touch it: they
// read the immutable Snapshots Publish hands to the Hub.
type Store struct {
	hub *Hub
	now func() time.Time

	version     uint64
	quotes      map[string]*quoteState
	books       map[string]Book
	trades      map[string][]Trade
	candles     map[string][]Candle
	instruments map[string]Instrument
	health      Health
	hidden      map[string]bool // kept but left out of snapshots (Hide)
	forgotten   map[string]bool // pushes dropped until Expect (Forget)
	charts      chartMarks      // what charts show (chartmarks.go)

	dirty        bool
	movedSyms    []string // quotes changed since the last publication
	dirtyTrades  map[string]bool
	sharedTrades map[string]bool // the tape's array is in a snapshot
	// candlesMoved says a series changed since the last publication;
	// sharedBars counts, per series, the leading bars of its array that
	// a snapshot holds (Bars.older), which must stay as they are.
	candlesMoved bool
	sharedBars   map[string]int
	last         *Snapshot
}

// quoteState is a Quote with the time of its last price, so a late
// ticker never overwrites a newer trade's price.
type quoteState struct {
	Quote
	lastAt  int64
	movedIn uint64 // the publication that will carry its last change
}

// NewStore returns an empty store publishing to hub (nil: a new Hub) on
// the clock now (nil: time.Now).
func NewStore(hub *Hub, now func() time.Time) *Store {
	if hub == nil {
		hub = &Hub{}
	}
	if now == nil {
		now = time.Now
	}
	return &Store{
		hub: hub, now: now,
		quotes: map[string]*quoteState{}, books: map[string]Book{}, trades: map[string][]Trade{},
		candles: map[string][]Candle{}, instruments: map[string]Instrument{}, hidden: map[string]bool{},
		dirtyTrades: map[string]bool{}, sharedTrades: map[string]bool{}, sharedBars: map[string]int{},
		last: &Snapshot{}, charts: newChartMarks(),
	}
}

// Hub is where the store publishes.
func (s *Store) Hub() *Hub { return s.hub }

func (s *Store) nowMs() int64 { return s.now().UnixMilli() }

// quote is the working quote of symbol, made on first use.
func (s *Store) quote(symbol string) *quoteState {
	q := s.quotes[symbol]
	if q == nil {
		q = &quoteState{Quote: Quote{Symbol: symbol}}
		s.quotes[symbol] = q
		s.moved(q)
	}
	return q
}

// touch marks q changed at time t (ms; 0: now).
func (s *Store) touch(q *quoteState, t int64) {
	if t <= 0 {
		t = s.nowMs()
	}
	q.Updated = max(q.Updated, t)
	s.moved(q)
	s.dirty = true
}

// setLast sets the last price of symbol from a trade or ticker at time t,
// unless a newer one is known. A contract's mark is its last price.
func (s *Store) setLast(symbol, price string, t int64) {
	if price == "" {
		return
	}
	q := s.quote(symbol)
	if t > 0 && t < q.lastAt {
		return
	}
	q.Last, q.lastAt = price, max(q.lastAt, t)
	if s.instruments[symbol].Contract {
		q.Mark = price
	}
	s.touch(q, t)
}

// SetInstruments replaces what brokerInfo says of the symbols.
func (s *Store) SetInstruments(ins map[string]Instrument) {
	s.instruments = ins
	for sym, q := range s.quotes {
		if ins[sym].Contract && q.Last != "" && q.Mark != q.Last {
			q.Mark = q.Last
			s.moved(q)
		}
	}
	s.dirty = true
}

// Instruments is what SetInstruments was last given (read-only).
func (s *Store) Instruments() map[string]Instrument { return s.instruments }

// SetHealth records whether market data flows; Since is set when Up
// changes.
func (s *Store) SetHealth(up bool, reason string) {
	if s.health.Up == up && s.health.Reason == reason {
		return
	}
	if s.health.Up != up || s.health.Since == 0 {
		s.health.Since = s.nowMs()
	}
	s.health.Up, s.health.Reason = up, reason
	s.dirty = true
}

// Health is the current health.
func (s *Store) Health() Health { return s.health }

// Forget removes a symbol whose subscription the client cancels, and
// drops the pushes of it that may still be on the way (they would bring
// it back, with no one to remove it again) until Expect.
func (s *Store) Forget(symbol string) {
	s.Remove(symbol)
	if s.forgotten == nil {
		s.forgotten = map[string]bool{}
	}
	s.forgotten[symbol] = true
}

// Expect takes the pushes of a symbol again, before it is subscribed.
func (s *Store) Expect(symbol string) { delete(s.forgotten, symbol) }

// Remove forgets a symbol that is no longer watched or touched.
func (s *Store) Remove(symbol string) {
	if _, had := s.quotes[symbol]; had {
		s.movedSyms = append(s.movedSyms, symbol)
	}
	delete(s.quotes, symbol)
	delete(s.books, symbol)
	delete(s.hidden, symbol)
	s.charts.forget(symbol)
	if _, had := s.trades[symbol]; had {
		delete(s.trades, symbol)
		delete(s.sharedTrades, symbol)
		s.dirtyTrades[symbol] = true
	}
	for k := range s.candles {
		if len(k) > len(symbol) && k[:len(symbol)+1] == symbol+"@" {
			delete(s.candles, k)
			delete(s.sharedBars, k)
			s.candlesMoved = true
		}
	}
	s.dirty = true
}

// ApplyPush folds one decoded data push into the store.
func (s *Store) ApplyPush(p *Push) {
	if p.Kind != FramePush {
		return
	}
	sym := func(i int) string {
		if i < len(p.Symbols) && p.Symbols[i] != "" {
			return p.Symbols[i]
		}
		return p.Symbol
	}
	// A forgotten symbol's late pushes are dropped (a length check while
	// no symbol was ever dropped).
	gone := func(sym string) bool { return len(s.forgotten) > 0 && s.forgotten[sym] }
	switch p.Topic {
	case TopicRealtimes:
		for i := range p.Tickers {
			if sym := sym(i); !gone(sym) {
				s.applyTicker(sym, &p.Tickers[i])
			}
		}
	case TopicTrade:
		if !gone(p.Symbol) {
			s.applyTrades(p.Symbol, p.Trades, p.First)
		}
	case TopicKline:
		for i := range p.Candles {
			if sym := sym(i); !gone(sym) {
				s.applyCandle(CandleKey(sym, p.Interval), p.Candles[i])
			}
		}
	case TopicDepth:
		for i := range p.Books {
			if sym := sym(i); !gone(sym) {
				s.applyBook(sym, p.Books[i])
			}
		}
	}
}

func (s *Store) applyTicker(symbol string, t *Ticker) {
	q := s.quote(symbol)
	q.Open24h, q.High24h, q.Low24h = t.Open, t.High, t.Low
	q.Volume24h, q.QuoteVolume = t.Volume, t.QuoteVol
	s.touch(q, t.Time)
	s.setLast(symbol, t.Close, t.Time)
}

// applyTrades adds trades to symbol's tape (a first push replaces it),
// kept in time order, and takes the newest one's price as the last.
func (s *Store) applyTrades(symbol string, ts []Trade, first bool) {
	if symbol == "" {
		return
	}
	// A published snapshot shares the tape's array up to its length:
	// appending is safe, changing what is there needs a copy first.
	tape := s.trades[symbol]
	if first {
		tape = tape[:0]
		if s.sharedTrades[symbol] {
			tape = nil
		}
		delete(s.sharedTrades, symbol)
	}
	for _, t := range ts {
		i := len(tape)
		for i > 0 && tape[i-1].Time > t.Time {
			i--
		}
		if i < len(tape) && s.sharedTrades[symbol] {
			tape = slices.Clone(tape)
			delete(s.sharedTrades, symbol)
		}
		tape = slices.Insert(tape, i, t)
	}
	if len(tape) > 2*MaxTrades {
		if s.sharedTrades[symbol] {
			// Room to grow to the next trim without another copy.
			tape = append(make([]Trade, 0, 2*MaxTrades+1), tape[len(tape)-MaxTrades:]...)
			delete(s.sharedTrades, symbol)
		} else {
			tape = append(tape[:0], tape[len(tape)-MaxTrades:]...)
		}
	}
	s.trades[symbol] = tape
	s.dirtyTrades[symbol] = true
	s.dirty = true
	if n := len(tape); n > 0 {
		s.setLast(symbol, tape[n-1].Price, tape[n-1].Time)
	}
}

// applyCandle puts the bar in its place: the current bar replaces the one
// with its open time, a new one is appended. Published bars stay as they
// are: changing one of them, or trimming, works on a copy.
func (s *Store) applyCandle(key string, c Candle) {
	bars := s.candles[key]
	n := len(bars)
	switch {
	case n > 0 && bars[n-1] == c:
		return // the service pushes the current bar every second: unchanged, nothing to publish
	case n > 0 && bars[n-1].OpenTime == c.OpenTime:
		bars = s.ownBars(key, bars, n-1)
		bars[n-1] = c
	case n == 0 || bars[n-1].OpenTime < c.OpenTime:
		if n == cap(bars) {
			delete(s.sharedBars, key) // append makes a new array: nothing of it is published
		}
		bars = append(bars, c)
	default:
		i, found := slices.BinarySearchFunc(bars, c.OpenTime, func(b Candle, t int64) int { return cmp64(b.OpenTime, t) })
		bars = s.ownBars(key, bars, i)
		if found {
			bars[i] = c
		} else {
			bars = slices.Insert(bars, i, c)
		}
	}
	if len(bars) > MaxCandles+MaxCandles/2 {
		if keep := bars[len(bars)-MaxCandles:]; s.sharedBars[key] > 0 {
			bars = slices.Clone(keep)
			delete(s.sharedBars, key)
		} else {
			bars = append(bars[:0], keep...)
		}
	}
	s.candles[key] = bars
	s.candlesMoved = true
	s.dirty = true
}

// ownBars returns bars (the series key's), copied first when bar i or a
// later one is in a published snapshot, so that it may be changed from i on.
func (s *Store) ownBars(key string, bars []Candle, i int) []Candle {
	if i >= s.sharedBars[key] {
		return bars
	}
	delete(s.sharedBars, key)
	return slices.Clone(bars)
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// applyBook replaces symbol's book with its top levels and sets the best
// bid and ask.
func (s *Store) applyBook(symbol string, b Book) {
	if len(b.Bids) > MaxLevels {
		b.Bids = slices.Clip(b.Bids[:MaxLevels])
	}
	if len(b.Asks) > MaxLevels {
		b.Asks = slices.Clip(b.Asks[:MaxLevels])
	}
	s.books[symbol] = b
	q := s.quote(symbol)
	q.Bid, q.BidQty, q.Ask, q.AskQty = "", "", "", ""
	if len(b.Bids) > 0 {
		q.Bid, q.BidQty = b.Bids[0].Price, b.Bids[0].Qty
	}
	if len(b.Asks) > 0 {
		q.Ask, q.AskQty = b.Asks[0].Price, b.Asks[0].Qty
	}
	s.touch(q, b.Time)
}

// SetIndex sets the index price of every followed contract whose index
// symbol is in index (contract/index's answer, keyed by index symbol).
func (s *Store) SetIndex(index map[string]string) {
	for sym, ins := range s.instruments {
		if !ins.Contract {
			continue
		}
		q, followed := s.quotes[sym]
		if v, ok := index[ins.Index]; ok && followed && q.Index != v {
			q.Index = v
			s.touch(q, 0)
		}
	}
}

// Version is the version of the last published snapshot.
func (s *Store) Version() uint64 { return s.version }

// Publish hands a new snapshot to the hub when anything changed since the
// last one, and returns the latest snapshot. Maps are rebuilt (the
// candles' only when a series changed); trade tapes and all but the
// newest bar of each series are shared with the store, which copies one
// before changing what a snapshot holds (applyTrades, applyCandle).
func (s *Store) Publish() *Snapshot {
	if !s.dirty {
		return s.last
	}
	s.version++
	prev := s.last
	snap := &Snapshot{
		Version:     s.version,
		Quotes:      make(map[string]Quote, len(s.quotes)),
		Books:       maps.Clone(s.books),
		Trades:      make(map[string][]Trade, len(s.trades)),
		Candles:     prev.Candles,
		Instruments: s.instruments,
		Health:      s.health,
		BarsWait:    s.charts.publish(prev.BarsWait),
		moves:       s.logMoves(),
	}
	for sym, q := range s.quotes {
		if !s.hidden[sym] {
			snap.Quotes[sym] = q.Quote
		}
	}
	for sym := range s.hidden {
		delete(snap.Books, sym)
	}
	for sym, tape := range s.trades {
		if s.hidden[sym] {
			continue
		}
		if !s.dirtyTrades[sym] && prev.Trades[sym] != nil {
			snap.Trades[sym] = prev.Trades[sym]
			continue
		}
		n := len(tape)
		snap.Trades[sym] = tape[max(0, n-MaxTrades):n:n]
		s.sharedTrades[sym] = true
	}
	if s.candlesMoved || snap.Candles == nil {
		snap.Candles = make(map[string]Bars, len(s.candles))
		for k, bars := range s.candles {
			if len(s.hidden) > 0 && s.hidden[keySymbol(k)] && !s.charts.charted[keySymbol(k)] {
				continue // (a chart's symbol shows its bars while hidden)
			}
			snap.Candles[k] = NewBars(bars[max(0, len(bars)-MaxCandles):])
			s.sharedBars[k] = max(0, len(bars)-1)
		}
	}
	clear(s.dirtyTrades)
	s.candlesMoved = false
	s.dirty = false
	s.last = snap
	s.hub.Publish(snap)
	return snap
}
