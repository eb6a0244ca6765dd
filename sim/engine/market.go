package engine

import (
	"math"

	"github.com/shopspring/decimal"
)

// Engine holds the markets of an exchange and the trade id sequence they
// share (ids are unique across symbols and exceed 2^53, as the service's).
type Engine struct {
	markets   map[string]*Market
	list      []*Market
	nextTrade uint64
	nextOrder uint64
}

// New returns an engine with no markets.
func New() *Engine {
	return &Engine{markets: map[string]*Market{}, nextTrade: 1_230_000_000_000_000_000}
}

// Market is one symbol: its book, tape and klines, and the tick and lot
// sizes that turn its integers into decimals.
type Market struct {
	Symbol     string
	Tick, Step decimal.Decimal
	eng        *Engine
	book       *Book
	tape       tape
	bars       bars
	last       int64 // price of the last trade, ticks
	version    uint64
	trades     []Trade // reused by Match
}

// Add creates the market of symbol with its tick and lot size and a
// starting last price (ticks).
func (e *Engine) Add(symbol string, tick, step decimal.Decimal, last int64) *Market {
	m := &Market{Symbol: symbol, Tick: tick, Step: step, eng: e, book: newBook(), last: last}
	e.markets[symbol] = m
	e.list = append(e.list, m)
	return m
}

// Market returns the market of symbol, nil when unknown.
func (e *Engine) Market(symbol string) *Market { return e.markets[symbol] }

// Markets lists the markets in the order they were added.
func (e *Engine) Markets() []*Market { return e.list }

// NewOrder returns an order with a fresh engine id (not yet on a book).
func (e *Engine) NewOrder(side Side, price, qty int64, ref any) *Order {
	e.nextOrder++
	return &Order{ID: e.nextOrder, Side: side, Price: price, Qty: qty, Ref: ref}
}

// Book is the market's order book.
func (m *Market) Book() *Book { return m.book }

// Last is the price of the last trade in ticks.
func (m *Market) Last() int64 { return m.last }

// Version counts the changes to the book (orders entering, leaving or
// trading).
func (m *Market) Version() uint64 { return m.version }

// TradeCount is the number of trades printed since the start.
func (m *Market) TradeCount() uint64 { return m.tape.total }

// Ticks converts a price to ticks (truncating off-grid prices).
func (m *Market) Ticks(p decimal.Decimal) int64 { return p.Div(m.Tick).IntPart() }

// Lots converts a quantity to lots (truncating).
func (m *Market) Lots(q decimal.Decimal) int64 { return q.Div(m.Step).IntPart() }

// Price converts ticks to a decimal price.
func (m *Market) Price(ticks int64) decimal.Decimal { return m.Tick.Mul(decimal.NewFromInt(ticks)) }

// Qty converts lots to a decimal quantity.
func (m *Market) Qty(lots int64) decimal.Decimal { return m.Step.Mul(decimal.NewFromInt(lots)) }

// QuoteQty converts a ticks×lots sum to a decimal amount of the quote.
func (m *Market) QuoteQty(v u128) decimal.Decimal {
	return decimal.NewFromBigInt(v.Big(), 0).Mul(m.Tick).Mul(m.Step)
}

// MarketPrice is the limit of a market order of side: no limit at all.
func MarketPrice(side Side) int64 {
	if side == Buy {
		return math.MaxInt64
	}
	return 0
}

// Match trades o against the other side of the book while it crosses,
// best price first and oldest order first at each price, at the resting
// orders' prices. It returns the trades (valid until the next call that
// matches) and leaves o.Qty as what is left; o is not rested.
func (m *Market) Match(o *Order, now int64) []Trade {
	m.trades = m.trades[:0]
	opp := m.book.side(other(o.Side))
	for o.Qty > 0 {
		l := opp.best()
		if l == nil || !crosses(o.Side, o.Price, l.price) {
			break
		}
		mk := l.orders[0]
		q := min(o.Qty, mk.Qty)
		mk.Qty -= q
		l.total -= q
		o.Qty -= q
		if mk.Qty == 0 {
			opp.remove(mk)
		}
		m.trades = append(m.trades, m.print(l.price, q, mk.Side == Buy, now, mk, o))
	}
	return m.trades
}

// print records a trade on the tape and the klines.
func (m *Market) print(price, qty int64, buyerMaker bool, now int64, maker, taker *Order) Trade {
	m.eng.nextTrade++
	tr := Trade{ID: m.eng.nextTrade, Time: now, Price: price, Qty: qty, BuyerMaker: buyerMaker, Maker: maker, Taker: taker}
	m.tape.add(tr)
	m.bars.add(&tr)
	m.last = price
	m.version++
	return tr
}

// Rest puts o (with what is left of it) on the book.
func (m *Market) Rest(o *Order) {
	if o.Qty <= 0 || o.lvl != nil {
		return
	}
	m.book.side(o.Side).add(o)
	m.version++
}

// Cancel takes o off the book; nothing when it is not resting.
func (m *Market) Cancel(o *Order) {
	if o.lvl == nil {
		return
	}
	m.book.side(o.Side).remove(o)
	m.version++
}

// Take fills qty of the resting order o out of turn, as if a taker had
// come for it alone, and prints the trade at o's price. The simulator's
// background activity uses it to fill its own orders.
func (m *Market) Take(o *Order, qty int64, now int64) Trade {
	qty = min(qty, o.Qty)
	o.Qty -= qty
	if l := o.lvl; l != nil {
		l.total -= qty
		if o.Qty == 0 {
			m.book.side(o.Side).remove(o)
		}
	}
	return m.print(o.Price, qty, o.Side == Buy, now, o, nil)
}

// Print records a trade between two simulated traders at price (ticks),
// off the book: history before the start, and moves tests make.
func (m *Market) Print(price, qty int64, buyerMaker bool, now int64) Trade {
	return m.print(price, qty, buyerMaker, now, nil, nil)
}

// Trades appends up to n trades of the tape, newest first.
func (m *Market) Trades(dst []Trade, n int) []Trade { return m.tape.newest(dst, n, 0) }

// TradesAfter appends up to n trades of the tape with ids above after,
// newest first (ids grow with time).
func (m *Market) TradesAfter(dst []Trade, after uint64, n int) []Trade {
	return m.tape.newest(dst, n, after)
}

// Klines returns bars of interval iv (see bars.klines).
func (m *Market) Klines(iv string, from, to int64, limit int, first bool) []Bar {
	return m.bars.klines(iv, from, to, limit, first)
}

// Since aggregates the trades of the minute bars opened after from.
func (m *Market) Since(from int64) Bar { return m.bars.since(from) }
