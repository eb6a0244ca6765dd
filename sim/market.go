package sim

import (
	"math/rand/v2"
	"time"

	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

// symbol is one tradable symbol with its filters and its market (book,
// tape and simulated traders). Contract symbols settle in marginAsset;
// inverse ones (BTC-PERP-REV) count quantity in contracts of one quote
// unit each.
type symbol struct {
	name, base, quote  string
	tick, step         decimal.Decimal
	minQty, maxQty     decimal.Decimal
	minPrice, maxPrice decimal.Decimal
	minNotional        decimal.Decimal
	contract, inverse  bool
	marginAsset        string
	index              string // contracts: the spot symbol that is its index
	multiplier         decimal.Decimal
	swing              int            // largest price move per market step, in ticks
	mkt                *engine.Market // book, tape and klines
	flow               *engine.Flow   // the simulated other traders
	open               []*order       // resting orders, in placement order (closed ones compacted away)
	compacted          int            // len(open) after the last compaction
	stops              []*order       // STOP orders waiting for their trigger
}

// last is the price of the symbol's last trade.
func (sym *symbol) last() decimal.Decimal { return sym.mkt.Price(sym.mkt.Last()) }

type symbolSpec struct {
	name, base, quote, tick, step, minQty, maxQty, minNotional, price string
	contract, inverse                                                 bool
	margin, index                                                     string
}

var symbolSpecs = []symbolSpec{
	{"BTCUSDT", "BTC", "USDT", "0.01", "0.000001", "0.0001", "100", "10", "61234.56", false, false, "", ""},
	{"ETHUSDT", "ETH", "USDT", "0.01", "0.0001", "0.001", "10000", "10", "3012.34", false, false, "", ""},
	{"ETHBTC", "ETH", "BTC", "0.000001", "0.001", "0.001", "100000", "0.0001", "0.049183", false, false, "", ""},
	{"LTCUSDT", "LTC", "USDT", "0.01", "0.001", "0.01", "100000", "10", "84.21", false, false, "", ""},
	{"LTCBTC", "LTC", "BTC", "0.0000001", "0.01", "0.01", "100000", "0.0001", "0.0013752", false, false, "", ""},
	{"XRPUSDT", "XRP", "USDT", "0.0001", "0.1", "1", "10000000", "5", "0.5231", false, false, "", ""},
	{"BHTUSDT", "BHT", "USDT", "0.00001", "1", "1", "10000000", "5", "0.01437", false, false, "", ""},
	{"BTC-PERP-REV", "BTC", "USDT", "0.5", "1", "1", "1000000", "0", "61230", true, true, "BTC", "BTCUSDT"},
	{"ETH-PERP", "ETH", "USDT", "0.01", "0.01", "0.01", "100000", "0", "3011.5", true, false, "USDT", "ETHUSDT"},
}

// History the markets start with: one trade every historyEvery over the
// last historySpan, so charts and 24 h tickers are full from the start.
const (
	historySpan  = 26 * time.Hour
	historyEvery = 30 * time.Second
)

func (x *exchange) initMarkets() {
	x.symbols = map[string]*symbol{}
	x.eng = engine.New()
	flowRnd := rand.New(rand.NewPCG(uint64(x.opts.Seed), 0x51ed270b27a4c3f1))
	now := x.nowMs()
	for _, sp := range symbolSpecs {
		sym := &symbol{
			name: sp.name, base: sp.base, quote: sp.quote,
			tick: decimal.RequireFromString(sp.tick), step: decimal.RequireFromString(sp.step),
			minQty: decimal.RequireFromString(sp.minQty), maxQty: decimal.RequireFromString(sp.maxQty),
			minNotional: decimal.RequireFromString(sp.minNotional),
			contract:    sp.contract, inverse: sp.inverse, marginAsset: sp.margin, index: sp.index,
			multiplier: decimal.NewFromInt(1),
		}
		price := decimal.RequireFromString(sp.price)
		sym.minPrice = sym.tick
		sym.maxPrice = decimal.NewFromInt(10_000_000)
		// about 0.05% of the price per step
		sym.swing = max(int(price.Mul(decimal.RequireFromString("0.0005")).Div(sym.tick).IntPart()), 1)
		sym.mkt = x.eng.Add(sym.name, sym.tick, sym.step, price.Div(sym.tick).IntPart())
		unit := sym.mkt.Lots(minQty(sym).Mul(decimal.NewFromInt(10)))
		if sym.inverse {
			unit = max(unit, 50)
		}
		sym.flow = engine.NewFlow(sym.mkt, rand.New(rand.NewPCG(flowRnd.Uint64(), flowRnd.Uint64())), int64(sym.swing), unit)
		sym.flow.Backfill(now-historySpan.Milliseconds(), now, historyEvery.Milliseconds())
		x.symbols[sym.name] = sym
		x.symbolList = append(x.symbolList, sym)
	}
	for _, sym := range x.symbolList {
		x.applyTrades(sym, sym.flow.Step(now, 0), now)
	}
}

// marketStep moves every market one step: the simulated traders walk,
// quote and trade, filling the resting orders they cross.
func (x *exchange) marketStep() {
	now := x.nowMs()
	dt := x.opts.MarketInterval
	if dt <= 0 {
		dt = 500 * time.Millisecond
	}
	takers := max(x.opts.MarketActivity, 0) * dt.Seconds()
	for _, sym := range x.symbolList {
		x.applyTrades(sym, sym.flow.Step(now, takers), now)
		x.triggerStops(sym, now)
	}
	x.flushAccounts(now)
}

// applyTrades settles the account orders on either side of each trade:
// the resting one as maker, the incoming one as taker, at the trade's
// price, quantity and time.
func (x *exchange) applyTrades(sym *symbol, trades []engine.Trade, now int64) {
	for i := range trades {
		tr := &trades[i]
		qty, price := sym.mkt.Qty(tr.Qty), sym.mkt.Price(tr.Price)
		if tr.Maker != nil && tr.Maker.Ref != nil {
			x.fill(tr.Maker.Ref.(*order), qty, price, true, now, tr.ID, orderID(tr.Taker))
		}
		if tr.Taker != nil && tr.Taker.Ref != nil {
			x.fill(tr.Taker.Ref.(*order), qty, price, false, now, tr.ID, orderID(tr.Maker))
		}
	}
}

// crossTo moves a symbol's market to price, filling the resting orders
// the move crosses with at most liquidity in all ("0": no cap). Tests
// drive the market with it.
func (x *exchange) crossTo(name, price, liquidity string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	sym := x.symbols[name]
	now := x.nowMs()
	m := sym.mkt
	trades := sym.flow.MoveTo(m.Ticks(decimal.RequireFromString(price)), m.Lots(decimal.RequireFromString(liquidity)), now)
	x.applyTrades(sym, trades, now)
	x.triggerStops(sym, now)
	x.flushAccounts(now)
}

// quoteBook replaces the simulated maker's quotes of a symbol by one bid
// and one ask of qty each, so a test knows the prices a marketable order
// gets.
func (x *exchange) quoteBook(name, bid, ask, qty string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	sym := x.symbols[name]
	now := x.nowMs()
	m := sym.mkt
	trades := sym.flow.Quote(m.Ticks(decimal.RequireFromString(bid)), m.Ticks(decimal.RequireFromString(ask)), m.Lots(decimal.RequireFromString(qty)), now)
	x.applyTrades(sym, trades, now)
	x.flushAccounts(now)
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

// orderID is the id of the order behind an engine order: the account
// order's id, else the simulated trader's engine id.
func orderID(eo *engine.Order) uint64 {
	if eo == nil {
		return 0
	}
	if o, ok := eo.Ref.(*order); ok {
		return o.id
	}
	return eo.ID
}
