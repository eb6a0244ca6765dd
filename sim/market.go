package sim

import (
	"time"

	"github.com/shopspring/decimal"
)

// symbol is one tradable symbol with its filters and its synthetic market
// price. Contract symbols settle in marginAsset; inverse ones (BTC-PERP-REV)
// count quantity in contracts of one quote unit each.
type symbol struct {
	name, base, quote  string
	tick, step         decimal.Decimal
	minQty, maxQty     decimal.Decimal
	minPrice, maxPrice decimal.Decimal
	minNotional        decimal.Decimal
	contract, inverse  bool
	marginAsset        string
	price              decimal.Decimal // last market price, a multiple of tick
	swing              int             // largest price move per market step, in ticks
	open               []*order        // resting orders, in placement order (closed ones compacted away)
	compacted          int             // len(open) after the last compaction
}

type symbolSpec struct {
	name, base, quote, tick, step, minQty, maxQty, minNotional, price string
	contract, inverse                                                 bool
	margin                                                            string
}

var symbolSpecs = []symbolSpec{
	{"BTCUSDT", "BTC", "USDT", "0.01", "0.000001", "0.0001", "100", "10", "61234.56", false, false, ""},
	{"ETHUSDT", "ETH", "USDT", "0.01", "0.0001", "0.001", "10000", "10", "3012.34", false, false, ""},
	{"ETHBTC", "ETH", "BTC", "0.000001", "0.001", "0.001", "100000", "0.0001", "0.049183", false, false, ""},
	{"LTCUSDT", "LTC", "USDT", "0.01", "0.001", "0.01", "100000", "10", "84.21", false, false, ""},
	{"LTCBTC", "LTC", "BTC", "0.0000001", "0.01", "0.01", "100000", "0.0001", "0.0013752", false, false, ""},
	{"XRPUSDT", "XRP", "USDT", "0.0001", "0.1", "1", "10000000", "5", "0.5231", false, false, ""},
	{"BHTUSDT", "BHT", "USDT", "0.00001", "1", "1", "10000000", "5", "0.01437", false, false, ""},
	{"BTC-PERP-REV", "BTC", "USDT", "0.5", "1", "1", "1000000", "0", "61230", true, true, "BTC"},
	{"ETH-PERP", "ETH", "USDT", "0.01", "0.01", "0.01", "100000", "0", "3011.5", true, false, "USDT"},
}

func (s *Server) initMarkets() {
	s.symbols = map[string]*symbol{}
	for _, sp := range symbolSpecs {
		sym := &symbol{
			name: sp.name, base: sp.base, quote: sp.quote,
			tick: decimal.RequireFromString(sp.tick), step: decimal.RequireFromString(sp.step),
			minQty: decimal.RequireFromString(sp.minQty), maxQty: decimal.RequireFromString(sp.maxQty),
			minNotional: decimal.RequireFromString(sp.minNotional),
			contract:    sp.contract, inverse: sp.inverse, marginAsset: sp.margin,
			price: decimal.RequireFromString(sp.price),
		}
		sym.minPrice = sym.tick
		sym.maxPrice = decimal.NewFromInt(10_000_000)
		// about 0.05% of the price per step
		sym.swing = int(sym.price.Mul(decimal.RequireFromString("0.0005")).Div(sym.tick).IntPart())
		if sym.swing < 1 {
			sym.swing = 1
		}
		s.symbols[sym.name] = sym
		s.symbolList = append(s.symbolList, sym)
	}
}

// walk moves the symbol's price a seeded random number of ticks, never
// below 100 ticks.
func (s *Server) walk(sym *symbol) {
	k := s.rnd.IntN(2*sym.swing+1) - sym.swing
	p := sym.price.Add(sym.tick.Mul(decimal.NewFromInt(int64(k))))
	if floor := sym.tick.Mul(decimal.NewFromInt(100)); p.LessThan(floor) {
		p = floor
	}
	sym.price = p
}

// marketStep walks every price and fills resting orders the price has
// crossed, partly or fully, at their own price (as maker).
func (s *Server) marketStep() {
	now := s.nowMs()
	for _, sym := range s.symbolList {
		s.walk(sym)
		s.fillCrossed(sym, now, decimal.Zero)
	}
	s.flushAccounts(now)
}

// fillCrossed fills the resting orders of sym that its price crosses. A
// positive liquidity caps the total quantity filled (tests use it to make
// partial fills); zero means random partial or full fills.
func (s *Server) fillCrossed(sym *symbol, now int64, liquidity decimal.Decimal) {
	kept := sym.open[:0]
	for _, o := range sym.open {
		if !o.isOpen() {
			continue
		}
		if o.crossedBy(sym.price) {
			rem := o.qty.Sub(o.executed)
			q := rem
			switch {
			case liquidity.IsPositive():
				q = decimal.Min(rem, liquidity)
				liquidity = liquidity.Sub(q)
			case s.rnd.IntN(3) != 0:
				q = rem.Div(decimal.NewFromInt(2)).Div(sym.step).Floor().Mul(sym.step)
				if !q.IsPositive() {
					q = rem
				}
			}
			if q.IsPositive() {
				s.fill(o, q, o.price, true, now)
			}
		}
		if o.isOpen() {
			kept = append(kept, o)
		}
	}
	clear(sym.open[len(kept):])
	sym.open = kept
	sym.compacted = len(kept)
}

// crossTo sets a symbol's price and fills what it crosses, with at most
// liquidity filled (zero: random amounts). Tests drive the market with it.
func (s *Server) crossTo(name, price, liquidity string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sym := s.symbols[name]
	sym.price = decimal.RequireFromString(price)
	now := s.nowMs()
	s.fillCrossed(sym, now, decimal.RequireFromString(liquidity))
	s.flushAccounts(now)
}

func (s *Server) runMarket() {
	defer s.wg.Done()
	t := time.NewTicker(s.opts.MarketInterval)
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-t.C:
			s.locked(s.marketStep)
		}
	}
}

func (s *Server) handlePing(*call) (any, *apiError) { return struct{}{}, nil }

func (s *Server) handleTime(c *call) (any, *apiError) {
	return map[string]int64{"serverTime": c.now.UnixMilli()}, nil
}

func (s *Server) handleBrokerInfo(c *call) (any, *apiError) {
	lim := s.opts.RateLimits
	type m = map[string]any
	syms := make([]m, 0, len(s.symbolList))
	var contracts []m
	for _, sym := range s.symbolList {
		row := m{
			"symbol": sym.name, "status": "TRADING", "baseAsset": sym.base, "quoteAsset": sym.quote,
			"baseAssetPrecision": sym.step.String(), "quotePrecision": sym.tick.String(),
			"filters": []m{
				{"filterType": "PRICE_FILTER", "minPrice": sym.minPrice.String(), "maxPrice": sym.maxPrice.String(), "tickSize": sym.tick.String()},
				{"filterType": "LOT_SIZE", "minQty": sym.minQty.String(), "maxQty": sym.maxQty.String(), "stepSize": sym.step.String()},
				{"filterType": "MIN_NOTIONAL", "minNotional": sym.minNotional.String()},
			},
		}
		if sym.contract {
			row["inverse"] = sym.inverse
			row["marginToken"] = sym.marginAsset
			contracts = append(contracts, row)
			continue
		}
		syms = append(syms, row)
	}
	return m{
		"timezone":   "UTC",
		"serverTime": c.now.UnixMilli(),
		"rateLimits": []m{
			{"rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "limit": lim.WeightPerMinute},
			{"rateLimitType": "ORDER", "interval": "SECOND", "limit": lim.OrdersPerSecond},
			{"rateLimitType": "ORDER", "interval": "DAY", "limit": lim.OrdersPerDay},
		},
		"brokerFilters": []m{},
		"symbols":       syms,
		"contracts":     contracts,
	}, nil
}
