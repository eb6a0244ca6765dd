package sim

import (
	"time"

	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

// The contract market endpoints: index prices, the contracts list and
// funding rates. A contract's index is the last price of its spot symbol;
// funding is charged every fundingEvery at a seeded rate per interval.

const fundingEvery = 8 * time.Hour

// edp is the average index of the last 10 minutes: the mean close of the
// index symbol's minute bars opened in that time.
func edp(sym *symbol, now int64) decimal.Decimal {
	bars := sym.mkt.Klines("1m", now-10*60_000, now, 10, false)
	if len(bars) == 0 {
		return sym.last()
	}
	var sum int64
	for _, b := range bars {
		sum += b.C
	}
	return sym.mkt.Price(sum).DivRound(decimal.NewFromInt(int64(len(bars))), int32(-sym.tick.Exponent()))
}

func (s *Server) handleIndex(c *call) (any, *apiError) {
	list := s.indexSymbols()
	if name, ok := c.p.str("symbol"); ok {
		var one []*symbol
		for _, sym := range list {
			if sym.name == name {
				one = append(one, sym)
			}
		}
		if len(one) == 0 {
			return nil, badParam(codeBadSymbol, "Invalid symbol.")
		}
		list = one
	}
	index, avg := map[string]string{}, map[string]string{}
	for _, sym := range list {
		index[sym.name] = sym.last().String()
		avg[sym.name] = edp(sym, c.now.UnixMilli()).String()
	}
	return map[string]any{"index": index, "edp": avg}, nil
}

type contractRow struct {
	Symbol            string `json:"symbol"`
	QuoteToken        string `json:"quoteToken"`
	LastPrice         string `json:"lastPrice"`
	Bid               string `json:"bid"`
	Ask               string `json:"ask"`
	High              string `json:"high"`
	Low               string `json:"low"`
	BaseVolume        string `json:"baseVolume"`
	OpenInterest      string `json:"openInterest"`
	IndexPrice        string `json:"indexPrice"`
	Index             string `json:"index"`
	FundingRate       string `json:"fundingRate"`
	NextFundingRate   string `json:"nextFundingRate"`
	NextFundingRateTs string `json:"nextFundingRateTs"`
}

func (s *Server) handleContracts(c *call) (any, *apiError) {
	now := c.now.UnixMilli()
	start := engine.BarStart("1m", now) / fundingEvery.Milliseconds() * fundingEvery.Milliseconds()
	var out []contractRow
	for _, sym := range s.symbolList {
		if !sym.contract {
			continue
		}
		b, m := day(sym, now), sym.mkt
		bid, _ := best(sym, engine.Buy)
		ask, _ := best(sym, engine.Sell)
		next := start + fundingEvery.Milliseconds()
		out = append(out, contractRow{
			Symbol: sym.name, QuoteToken: sym.quote, LastPrice: sym.last().String(), Bid: bid, Ask: ask,
			High: m.Price(b.H).String(), Low: m.Price(b.L).String(), BaseVolume: m.Qty(b.Volume).String(),
			OpenInterest: s.openInterest(sym).String(), IndexPrice: s.symbols[sym.index].last().String(), Index: sym.index,
			FundingRate: s.fundingRate(sym, start).String(), NextFundingRate: s.fundingRate(sym, next).String(),
			NextFundingRateTs: decimal.NewFromInt(next).String(),
		})
	}
	return out, nil
}

type fundingRow struct {
	Symbol        string `json:"symbol"`
	IntervalStart string `json:"intervalStart"`
	IntervalEnd   string `json:"intervalEnd"`
	Rate          string `json:"rate"`
	Index         string `json:"index"`
}

// handleFundingRate answers the current interval (state=current, the
// default) or the past ones (state=past) within from..to, newest first.
func (s *Server) handleFundingRate(c *call) (any, *apiError) {
	var list []*symbol
	if _, ok := c.p.str("symbol"); ok {
		sym, e := s.marketSymbol(c.p, true)
		if e != nil {
			return nil, e
		}
		list = []*symbol{sym}
	} else {
		for _, sym := range s.symbolList {
			if sym.contract {
				list = append(list, sym)
			}
		}
	}
	state, e := c.p.oneOf("state", "current", codeIllegalChars, "Invalid state.", "current", "past")
	if e != nil {
		return nil, e
	}
	n, e := limitParam(c.p, 20, 1000)
	if e != nil {
		return nil, e
	}
	every := fundingEvery.Milliseconds()
	now := c.now.UnixMilli()
	bounds, e := c.p.ints(intParam{"from", 0}, intParam{"to", now})
	if e != nil {
		return nil, e
	}
	from, to := bounds[0], bounds[1]
	var out []fundingRow
	for _, sym := range list {
		idx := s.symbols[sym.index].last().String()
		start := now / every * every
		if state == "current" {
			out = append(out, fundingRow{sym.name, itoa(start), itoa(start + every), s.fundingRate(sym, start).String(), idx})
			continue
		}
		for k := 0; k < n; k++ {
			st := start - int64(k+1)*every
			if st+every > to {
				continue
			}
			if st < from {
				break
			}
			out = append(out, fundingRow{sym.name, itoa(st), itoa(st + every), s.fundingRate(sym, st).String(), idx})
		}
	}
	return out, nil
}

func itoa(n int64) string { return decimal.NewFromInt(n).String() }
