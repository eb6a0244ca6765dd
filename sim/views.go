package sim

import (
	"hash/fnv"

	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

// The exchange's market views that the quote endpoints and the quote
// WebSocket serve: book levels, 24 h tickers, index and funding figures.

func (x *exchange) levels(sym *symbol, side engine.Side, n int) []pair {
	lv := sym.mkt.Book().Depth(side, n, nil)
	out := make([]pair, len(lv))
	for i, l := range lv {
		out[i] = pair{sym.mkt.Price(l.Price).String(), sym.mkt.Qty(l.Qty).String()}
	}
	return out
}

func (x *exchange) ticker24(sym *symbol, now int64) ticker24 {
	b, m := day(sym, now), sym.mkt
	bid, _ := best(sym, engine.Buy)
	ask, _ := best(sym, engine.Sell)
	return ticker24{
		Time: now, Symbol: sym.name, BestBidPrice: bid, BestAskPrice: ask, LastPrice: sym.last().String(),
		OpenPrice: m.Price(b.O).String(), HighPrice: m.Price(b.H).String(), LowPrice: m.Price(b.L).String(),
		Volume: m.Qty(b.Volume).String(), QuoteVolume: m.QuoteQty(b.QuoteVol).String(),
	}
}

func (x *exchange) spotSymbols() []*symbol {
	var l []*symbol
	for _, sym := range x.symbolList {
		if !sym.contract {
			l = append(l, sym)
		}
	}
	return l
}

// indexSymbols lists the index names of the contracts, in brokerInfo order.
func (x *exchange) indexSymbols() []*symbol {
	var l []*symbol
	seen := map[string]bool{}
	for _, sym := range x.symbolList {
		if sym.contract && !seen[sym.index] {
			seen[sym.index] = true
			l = append(l, x.symbols[sym.index])
		}
	}
	return l
}

// fundingRate is the seeded rate of sym's funding interval starting at
// start: -0.0005 to 0.0005 in steps of 0.00005.
func (x *exchange) fundingRate(sym *symbol, start int64) decimal.Decimal {
	h := fnv.New64a()
	_, _ = h.Write([]byte(sym.name))
	_, _ = h.Write([]byte{byte(start), byte(start >> 8), byte(start >> 16), byte(start >> 24), byte(start >> 32), byte(start >> 40), byte(x.opts.Seed)})
	return decimal.New(int64(h.Sum64()%21)-10, -5).Mul(decimal.NewFromInt(5))
}

// openInterest is the quantity of the long positions of every account.
func (x *exchange) openInterest(sym *symbol) decimal.Decimal {
	var n decimal.Decimal
	for _, a := range x.accounts {
		if p := a.positions[posKey(sym.name, "LONG")]; p != nil {
			n = n.Add(p.total)
		}
	}
	return n
}
