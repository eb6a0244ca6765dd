package sim

import (
	"time"

	"bhtop/sim/engine"
)

// The ticker endpoints and the pairs list. Without a symbol they list the
// spot symbols.

// best is the best price and quantity of a side as decimal strings, "" when
// the side is empty.
func best(sym *symbol, side engine.Side) (price, qty string) {
	p, q, ok := sym.mkt.Book().Best(side)
	if !ok {
		return "", ""
	}
	return sym.mkt.Price(p).String(), sym.mkt.Qty(q).String()
}

// day is the rolling 24 h bar of sym at now.
func day(sym *symbol, now int64) engine.Bar {
	b := sym.mkt.Since(now - (24 * time.Hour).Milliseconds())
	if b.Trades == 0 {
		l := sym.mkt.Last()
		b.O, b.H, b.L, b.C = l, l, l, l
	}
	return b
}

type ticker24 struct {
	Time         int64  `json:"time"`
	Symbol       string `json:"symbol"`
	BestBidPrice string `json:"bestBidPrice"`
	BestAskPrice string `json:"bestAskPrice"`
	LastPrice    string `json:"lastPrice"`
	OpenPrice    string `json:"openPrice"`
	HighPrice    string `json:"highPrice"`
	LowPrice     string `json:"lowPrice"`
	Volume       string `json:"volume"`
	QuoteVolume  string `json:"quoteVolume"`
}

// perSymbol answers one row for the symbol sent, or an array of the spot
// symbols' rows.
func perSymbol[T any](s *Server, c *call, row func(*symbol) T) (any, *apiError) {
	sym, ok, e := s.anySymbol(c.p)
	if e != nil {
		return nil, e
	}
	if ok {
		return row(sym), nil
	}
	spot := s.spotSymbols()
	out := make([]T, len(spot))
	for i, sym := range spot {
		out[i] = row(sym)
	}
	return out, nil
}

func (s *Server) handleTicker24(c *call) (any, *apiError) {
	now := c.now.UnixMilli()
	return perSymbol(s, c, func(sym *symbol) ticker24 { return s.ticker24(sym, now) })
}

type priceRow struct {
	Symbol string `json:"symbol"`
	Price  string `json:"price"`
}

func (s *Server) handleTickerPrice(c *call) (any, *apiError) {
	return perSymbol(s, c, func(sym *symbol) priceRow { return priceRow{sym.name, sym.last().String()} })
}

type bookRow struct {
	Symbol   string `json:"symbol"`
	BidPrice string `json:"bidPrice"`
	BidQty   string `json:"bidQty"`
	AskPrice string `json:"askPrice"`
	AskQty   string `json:"askQty"`
}

func (s *Server) handleBookTicker(c *call) (any, *apiError) {
	return perSymbol(s, c, func(sym *symbol) bookRow {
		r := bookRow{Symbol: sym.name}
		r.BidPrice, r.BidQty = best(sym, engine.Buy)
		r.AskPrice, r.AskQty = best(sym, engine.Sell)
		return r
	})
}

type pairRow struct {
	Symbol     string `json:"symbol"`
	QuoteToken string `json:"quoteToken"`
	BaseToken  string `json:"baseToken"`
}

func (s *Server) handlePairs(*call) (any, *apiError) {
	spot := s.spotSymbols()
	out := make([]pairRow, len(spot))
	for i, sym := range spot {
		out[i] = pairRow{sym.name, sym.quote, sym.base}
	}
	return out, nil
}
