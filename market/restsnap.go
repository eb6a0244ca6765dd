package market

import (
	"slices"

	"bhtop/rest"
)

// Folding the quote REST endpoints' answers into the store: the snapshot
// taken for each symbol before (and whenever) the quote socket subscribes.

// InstrumentsOf turns brokerInfo's symbols and contracts into the
// Instruments of a Snapshot, keyed by symbol.
func InstrumentsOf(bi rest.BrokerInfo) map[string]Instrument {
	out := make(map[string]Instrument, len(bi.Symbols)+len(bi.Contracts))
	for _, s := range bi.Symbols {
		out[s.Symbol] = Instrument{Symbol: s.Symbol, Base: s.BaseAsset, Quote: s.QuoteAsset, Multiplier: "1"}
	}
	for _, c := range bi.Contracts {
		ins := Instrument{Symbol: c.Symbol.Symbol, Base: c.BaseAsset, Quote: c.QuoteAsset, Contract: true,
			Inverse: c.Inverse, Multiplier: c.Multiplier, Index: c.Index, MarginAsset: c.MarginAsset}
		if ins.Multiplier == "" {
			ins.Multiplier = "1"
		}
		if ins.Index == "" {
			ins.Index = ins.Base + ins.Quote // BTC-PERP-REV follows BTCUSDT
		}
		if ins.MarginAsset == "" {
			ins.MarginAsset = ins.Quote
			if ins.Inverse {
				ins.MarginAsset = ins.Base
			}
		}
		out[ins.Symbol] = ins
	}
	return out
}

// ApplyTicker24h folds a 24 h ticker. Its best bid and ask are used only
// while no book is known.
func (s *Store) ApplyTicker24h(t rest.Ticker24h) {
	if t.Symbol == "" {
		return
	}
	q := s.quote(t.Symbol)
	q.Open24h, q.High24h, q.Low24h, q.Volume24h = t.Open, t.High, t.Low, t.Volume
	if t.QuoteVolume != "" {
		q.QuoteVolume = t.QuoteVolume
	}
	if _, booked := s.books[t.Symbol]; !booked {
		q.Bid, q.Ask = t.BestBid, t.BestAsk
	}
	s.touch(q, t.Time)
	s.setLast(t.Symbol, t.Last, t.Time)
}

// ApplyBookTicker folds a best bid and ask, unless a book is known.
func (s *Store) ApplyBookTicker(b rest.BookTicker) {
	if b.Symbol == "" {
		return
	}
	if _, booked := s.books[b.Symbol]; booked {
		return
	}
	q := s.quote(b.Symbol)
	q.Bid, q.BidQty, q.Ask, q.AskQty = b.BidPrice, b.BidQty, b.AskPrice, b.AskQty
	s.touch(q, 0)
}

// ApplyDepth replaces symbol's book with a REST depth answer.
func (s *Store) ApplyDepth(symbol string, d rest.Depth) {
	conv := func(ls []rest.PriceLevel) []Level {
		out := make([]Level, 0, min(len(ls), MaxLevels))
		for _, l := range ls[:min(len(ls), MaxLevels)] {
			out = append(out, Level{Price: l.Price, Qty: l.Qty})
		}
		return out
	}
	s.applyBook(symbol, Book{Bids: conv(d.Bids), Asks: conv(d.Asks), Time: d.Time})
}

// ApplyTrades replaces symbol's tape with a REST trades answer.
func (s *Store) ApplyTrades(symbol string, ts []rest.PublicTrade) {
	tape := make([]Trade, len(ts))
	for i, t := range ts {
		tape[i] = Trade{Time: t.Time, Price: t.Price, Qty: t.Qty, BuyerMaker: t.IsBuyerMaker}
	}
	s.applyTrades(symbol, tape, true)
}

// ApplyKlines replaces the bars of symbol at interval.
func (s *Store) ApplyKlines(symbol, interval string, ks []rest.Kline) {
	bars := make([]Candle, len(ks))
	for i, k := range ks {
		bars[i] = Candle{OpenTime: k.OpenTime, Open: k.Open, High: k.High, Low: k.Low, Close: k.Close, Volume: k.Volume}
	}
	slices.SortStableFunc(bars, func(a, b Candle) int { return cmp64(a.OpenTime, b.OpenTime) })
	key := CandleKey(symbol, interval)
	s.candles[key] = bars
	s.charts.history[key] = true
	delete(s.sharedBars, key)
	s.candlesMoved = true
	s.dirty = true
}
