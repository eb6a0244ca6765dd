package sim

import (
	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

// Market orders and contract priceType MARKET are limit orders this far
// from the last price (API-FACTS.md: the last price × (1 ± 5 %)).
var marketBand = decimal.RequireFromString("0.05")

// bandPrice is the limit of a market order of side: the last price moved
// 5 % against the order, on the tick grid and never below one tick.
func bandPrice(sym *symbol, side string) decimal.Decimal {
	last := sym.last()
	if side == "BUY" {
		return last.Mul(decimal.NewFromInt(1).Add(marketBand)).Div(sym.tick).Floor().Mul(sym.tick)
	}
	p := last.Mul(decimal.NewFromInt(1).Sub(marketBand)).Div(sym.tick).Ceil().Mul(sym.tick)
	return decimal.Max(p, sym.tick)
}

func engineSide(side string) engine.Side {
	if side == "BUY" {
		return engine.Buy
	}
	return engine.Sell
}

// wouldTake reports whether o would trade at once on its symbol's book.
func (o *order) wouldTake() bool {
	return o.sym.mkt.Book().Crosses(engineSide(o.side), o.sym.mkt.Ticks(o.price))
}

// immediate reports whether the order must not rest: IOC, FOK, and market
// orders.
func (o *order) immediate() bool {
	return o.tif == "IOC" || o.tif == "FOK" || o.typ == "MARKET" || o.priceType == "MARKET"
}

// execute matches a registered order against its book as taker, then
// rests what is left (GTC), or cancels it, or rejects the order when an
// immediate one found nothing (or, fill-or-kill, not enough).
func (x *exchange) execute(o *order, now int64) {
	m := o.sym.mkt
	eo := x.eng.NewOrder(engineSide(o.side), m.Ticks(o.price), m.Lots(o.qty.Sub(o.executed)), o)
	if o.tif == "FOK" && m.Book().Available(eo.Side, eo.Price) < eo.Qty {
		x.reject(o, now)
		return
	}
	x.applyTrades(o.sym, m.Match(eo, now), now)
	if eo.Qty == 0 || !o.isOpen() {
		return
	}
	switch {
	case !o.immediate():
		m.Rest(eo)
		o.eo = eo
	case o.executed.IsZero():
		x.reject(o, now)
	default:
		x.cancel(o, now)
	}
}
