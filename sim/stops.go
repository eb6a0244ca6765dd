package sim

import (
	"slices"

	"github.com/shopspring/decimal"
)

// Contract STOP orders wait off the book until the last price reaches
// their trigger price (a buy at or above it, a sell at or below), then
// execute as the LIMIT order (or priceType MARKET order) they describe.

// typedPrice is the limit price of a contract order whose priceType is
// not INPUT (API-FACTS.md): OPPONENT the best opposite price, QUEUE the
// best same-side price, OVER the best opposite price plus overPrice
// (minus for a sell), MARKET the 5 % band around the last price. An empty
// book side falls back to the band.
func (s *Server) typedPrice(p params, sym *symbol, side, priceType string) (decimal.Decimal, *apiError) {
	book := sym.mkt.Book()
	es := engineSide(side)
	best := func(bookSide bool) (decimal.Decimal, bool) {
		bs := es
		if bookSide {
			bs = 1 - es
		}
		t, _, ok := book.Best(bs)
		return sym.mkt.Price(t), ok
	}
	var price decimal.Decimal
	ok := false
	switch priceType {
	case "OPPONENT":
		price, ok = best(true)
	case "QUEUE":
		price, ok = best(false)
	case "OVER":
		over, _, e := p.decimal("overPrice")
		if e != nil {
			return decimal.Zero, e
		}
		if price, ok = best(true); ok {
			if side == "BUY" {
				price = price.Add(over)
			} else {
				price = decimal.Max(price.Sub(over), sym.tick)
			}
		}
	}
	if !ok {
		price = bandPrice(sym, side)
	}
	return price, nil
}

// triggerStops executes the STOP orders of sym that its last price has
// reached.
func (x *exchange) triggerStops(sym *symbol, now int64) {
	if len(sym.stops) == 0 {
		return
	}
	last := sym.last()
	var due []*order
	kept := sym.stops[:0]
	for _, o := range sym.stops {
		if !o.isOpen() {
			continue
		}
		if (o.side == "BUY" && last.GreaterThanOrEqual(o.trigger)) || (o.side == "SELL" && last.LessThanOrEqual(o.trigger)) {
			due = append(due, o)
			continue
		}
		kept = append(kept, o)
	}
	clear(sym.stops[len(kept):])
	sym.stops = kept
	for _, o := range due {
		if o.priceType == "MARKET" {
			o.price = bandPrice(sym, o.side)
		}
		x.execute(o, now)
	}
}

// dropStop forgets a STOP order that closed before its trigger.
func (x *exchange) dropStop(o *order) {
	if !o.stop {
		return
	}
	if i := slices.Index(o.sym.stops, o); i >= 0 {
		o.sym.stops = slices.Delete(o.sym.stops, i, i+1)
	}
}
