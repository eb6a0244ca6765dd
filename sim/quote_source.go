package sim

import (
	"net/http"
	"strconv"

	"bhtop/sim/engine"
	"bhtop/sim/quotews"
)

// quoteSource shows the simulator's markets to the quote socket
// (quotews.Source); every method takes the exchange lock.
type quoteSource struct{ s *Server }

// depthLevels is how many levels a side a depth push carries.
const depthLevels = 300

func (q quoteSource) sym(name string) *symbol { return q.s.symbols[name] }

func (q quoteSource) Known(name string) bool { return q.sym(name) != nil }

func (q quoteSource) ValidInterval(iv string) bool { return engine.ValidInterval(iv) }

type realtime struct {
	T  string `json:"t"`  // time, ms
	S  string `json:"s"`  // symbol
	C  string `json:"c"`  // close: the last price
	H  string `json:"h"`  // high
	L  string `json:"l"`  // low
	O  string `json:"o"`  // open
	V  string `json:"v"`  // volume, base asset
	QV string `json:"qv"` // quote volume
}

func (q quoteSource) Realtime(name string) (any, uint64) {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sym := q.sym(name)
	now := s.nowMs()
	b, m := day(sym, now), sym.mkt
	return realtime{
		T: strconv.FormatInt(now, 10), S: name, C: sym.last().String(), H: m.Price(b.H).String(), L: m.Price(b.L).String(),
		O: m.Price(b.O).String(), V: m.Qty(b.Volume).String(), QV: m.QuoteQty(b.QuoteVol).String(),
	}, m.TradeCount()
}

type tradePush struct {
	V string `json:"v"` // trade id
	T int64  `json:"t"` // time, ms
	P string `json:"p"` // price
	Q string `json:"q"` // quantity
	M bool   `json:"m"` // true: the buyer was the maker
}

func (q quoteSource) Trades(name string, after uint64, most int) ([]any, uint64) {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	m := q.sym(name).mkt
	tr := m.TradesAfter(nil, after, most)
	newest := after
	if len(tr) > 0 {
		newest = tr[0].ID
	}
	var out []any
	for i := len(tr) - 1; i >= 0; i-- {
		t := tr[i]
		out = append(out, tradePush{strconv.FormatUint(t.ID, 10), t.Time, m.Price(t.Price).String(), m.Qty(t.Qty).String(), t.BuyerMaker})
	}
	return out, newest
}

type klinePush struct {
	T int64  `json:"t"` // bar open time, ms
	S string `json:"s"` // symbol
	C string `json:"c"` // close
	H string `json:"h"` // high
	L string `json:"l"` // low
	O string `json:"o"` // open
	V string `json:"v"` // volume
}

func (q quoteSource) Kline(name, iv string) any {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sym := q.sym(name)
	m := sym.mkt
	now := s.nowMs()
	start := engine.BarStart(iv, now)
	bars := m.Klines(iv, start, now, 1, false)
	if len(bars) == 0 {
		l := m.Price(m.Last()).String()
		return klinePush{start, name, l, l, l, l, "0"}
	}
	b := bars[0]
	return klinePush{b.Open, name, m.Price(b.C).String(), m.Price(b.H).String(), m.Price(b.L).String(), m.Price(b.O).String(), m.Qty(b.Volume).String()}
}

type depthPush struct {
	S string      `json:"s"` // symbol
	T int64       `json:"t"` // time, ms
	V string      `json:"v"` // book version
	B [][2]string `json:"b"` // bids, high to low
	A [][2]string `json:"a"` // asks, low to high
}

func (q quoteSource) Depth(name string) (any, uint64) {
	s := q.s
	s.mu.Lock()
	defer s.mu.Unlock()
	sym := q.sym(name)
	v := sym.mkt.Version()
	return depthPush{name, s.nowMs(), strconv.FormatUint(v, 10), s.levels(sym, engine.Buy, depthLevels), s.levels(sym, engine.Sell, depthLevels)}, v
}

// serveQuoteStream serves /openapi/quote/ws/v1, or refuses it (404) under
// Options.NoMarketData.
func (s *Server) serveQuoteStream(w http.ResponseWriter, r *http.Request) {
	if s.opts.NoMarketData {
		s.refuseUpgrade(w, errf(http.StatusNotFound, codeUnknown, "Unknown path %s %s.", r.Method, r.URL.Path))
		return
	}
	s.quotes.Serve(w, r)
}

func (s *Server) newQuotes() *quotews.Server {
	return quotews.New(quoteSource{s}, quotews.Options{Idle: s.opts.QuoteIdle, Now: s.Now}, s.ctx.Done())
}
