package sim

import (
	"bhtop/sim/engine"
)

// The quote REST endpoints of API-FACTS.md 'Market data': views of the
// engine's books, tapes and klines. Security NONE; a symbol the endpoint
// does not know is -1121.

// marketSymbol reads the mandatory symbol of a spot (contract false) or
// contract endpoint.
func (s *Server) marketSymbol(p params, contract bool) (*symbol, *apiError) {
	return s.symbol(p, contract)
}

// anySymbol reads an optional symbol of either market; ok is false when
// none was sent.
func (s *Server) anySymbol(p params) (sym *symbol, ok bool, e *apiError) {
	name, ok := p.str("symbol")
	if !ok {
		return nil, false, nil
	}
	if sym = s.symbols[name]; sym == nil {
		return nil, true, badParam(codeBadSymbol, "Invalid symbol.")
	}
	return sym, true, nil
}

// limitParam reads limit: def when absent, at most max, at least 1.
func limitParam(p params, def, most int64) (int, *apiError) {
	n, e := p.int64("limit", def)
	if e != nil {
		return 0, e
	}
	if n <= 0 {
		n = def
	}
	return int(min(n, most)), nil
}

type pair = [2]string

// symbolLimit reads the symbol of one market (contract) and then limit
// (def when absent, at most most), in the order the service checks them.
func (s *Server) symbolLimit(c *call, contract bool, def, most int64) (*symbol, int, *apiError) {
	sym, e := s.marketSymbol(c.p, contract)
	if e != nil {
		return nil, 0, e
	}
	n, e := limitParam(c.p, def, most)
	return sym, n, e
}

func (s *Server) depth(c *call, contract bool) (any, *apiError) {
	sym, n, e := s.symbolLimit(c, contract, 100, 100)
	if e != nil {
		return nil, e
	}
	return map[string]any{
		"time": c.now.UnixMilli(), "bids": s.levels(sym, engine.Buy, n), "asks": s.levels(sym, engine.Sell, n),
	}, nil
}

func (s *Server) handleDepth(c *call) (any, *apiError)         { return s.depth(c, false) }
func (s *Server) handleContractDepth(c *call) (any, *apiError) { return s.depth(c, true) }

type publicTrade struct {
	Price        string `json:"price"`
	Qty          string `json:"qty"`
	Time         int64  `json:"time"`
	IsBuyerMaker bool   `json:"isBuyerMaker"`
}

// trades answers the recent trades, oldest first.
func (s *Server) trades(c *call, contract bool) (any, *apiError) {
	sym, n, e := s.symbolLimit(c, contract, 60, 60)
	if e != nil {
		return nil, e
	}
	tr := sym.mkt.Trades(nil, n)
	out := make([]publicTrade, len(tr))
	for i, t := range tr {
		out[len(tr)-1-i] = publicTrade{sym.mkt.Price(t.Price).String(), sym.mkt.Qty(t.Qty).String(), t.Time, t.BuyerMaker}
	}
	return out, nil
}

func (s *Server) handleTrades(c *call) (any, *apiError)               { return s.trades(c, false) }
func (s *Server) handleContractPublicTrades(c *call) (any, *apiError) { return s.trades(c, true) }

// klineRow is one kline as the quote API writes it: [openTime, open,
// high, low, close, volume, closeTime, quoteVolume, trades, takerBuyBase,
// takerBuyQuote].
func klineRow(m *engine.Market, b engine.Bar) []any {
	return []any{
		b.Open, m.Price(b.O).String(), m.Price(b.H).String(), m.Price(b.L).String(), m.Price(b.C).String(),
		m.Qty(b.Volume).String(), b.Close, m.QuoteQty(b.QuoteVol).String(), b.Trades,
		m.Qty(b.TakerBuyVol).String(), m.QuoteQty(b.TakerBuyQ).String(),
	}
}

func interval(p params) (string, *apiError) {
	iv, e := p.required("interval")
	if e != nil {
		return "", e
	}
	if !engine.ValidInterval(iv) {
		return "", badParam(codeBadInterval, "Invalid interval.")
	}
	return iv, nil
}

// klineQuery is a market's klines query: its default limit and the names
// of its time bounds (contract klines have no start).
type klineQuery struct {
	def      int64
	from, to string
}

var (
	spotKlines     = klineQuery{def: 500, from: "startTime", to: "endTime"}
	contractKlines = klineQuery{def: 1000, to: "to"}
)

func (s *Server) handleKlines(c *call) (any, *apiError) { return s.klines(c, false, spotKlines) }
func (s *Server) handleContractKlines(c *call) (any, *apiError) {
	return s.klines(c, true, contractKlines)
}

// klines answers the bars of interval from the start bound (the newest
// ones when it is absent) up to the end bound (default now).
func (s *Server) klines(c *call, contract bool, q klineQuery) (any, *apiError) {
	sym, e := s.marketSymbol(c.p, contract)
	if e != nil {
		return nil, e
	}
	iv, e := interval(c.p)
	if e != nil {
		return nil, e
	}
	n, e := limitParam(c.p, q.def, 1000)
	if e != nil {
		return nil, e
	}
	var from int64
	var first bool // a start was sent: the bars from it, not the newest
	if q.from != "" {
		if from, e = c.p.int64(q.from, 0); e != nil {
			return nil, e
		}
		_, first = c.p.str(q.from)
	}
	to, e := c.p.int64(q.to, c.now.UnixMilli())
	if e != nil {
		return nil, e
	}
	return klineRows(sym.mkt, sym.mkt.Klines(iv, from, to, n, first)), nil
}

func klineRows(m *engine.Market, bars []engine.Bar) [][]any {
	out := make([][]any, len(bars))
	for i, b := range bars {
		out[i] = klineRow(m, b)
	}
	return out
}
