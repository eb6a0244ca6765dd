package ui

import (
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/rest"
	"bhtop/value"
)

// quoteLines are the order form's market lines: the symbol's live
// bid, ask and last, the keys that take them as the price, how far the
// entered price is from the last, and a warning when a limit order would
// execute at once (or, as LIMIT_MAKER, be rejected for it).
func (f *orderForm) quoteLines(cx modeCtx) []string {
	st := cx.st
	sym := f.symbol().Symbol
	q, ok := cx.mk.snap.Quotes[sym]
	if !cx.mk.live || sym == "" {
		return nil
	}
	if !ok {
		return []string{"", st.Muted.Render("no market data for " + sym)}
	}
	lines := []string{"", "bid " + st.Buy.Render(orDash(q.Bid)) + "  ask " + st.Sell.Render(orDash(q.Ask)) +
		"  last " + st.Accent.Render(orDash(q.Last))}
	if cx.quotesStale() {
		lines = append(lines, st.Warn.Render(quotesStaleNote))
	}
	if !f.uses(fieldPrice) {
		return lines
	}
	hint := "b bid · a ask · l last take the price (in the Price field)"
	if f.field == fieldPrice {
		hint = "b bid · a ask · l last: take that price"
	}
	lines = append(lines, st.Muted.Render(hint))
	price, ok := dec(f.price)
	if !ok || !price.IsPositive() {
		return lines
	}
	if last, ok := dec(q.Last); ok {
		if d, ok := value.DistancePct(last, price); ok {
			lines = append(lines, "price is "+signed(d.StringFixed(3))+"% from the last")
		}
	}
	side, typ := f.crossSideType()
	if w := crossWarning(side, typ, price, q.Bid, q.Ask); w != "" {
		lines = append(lines, st.Warn.Render("⚠ "+w))
	}
	if f.contract {
		r := f.contractRequest()
		if w := stopWarning(side, &r, q.Last); w != "" {
			lines = append(lines, st.Warn.Render("⚠ "+w))
		}
	}
	return lines
}

// quotesStaleNote says the quotes a form or review shows are the last
// received: market data went down after it flowed.
const quotesStaleNote = "⚠ no market data: quotes may be stale"

// quotesStale reports whether the market's quotes are the last received:
// market data is followed, flowed, and is down now.
func (cx modeCtx) quotesStale() bool {
	ms := cx.mk.snap
	return cx.mk.live && ms != nil && !ms.Health.Up && len(ms.Quotes) > 0
}

// crossSideType is the side (BUY or SELL) and the type crossWarning
// judges the form's order by.
func (f *orderForm) crossSideType() (side, typ string) {
	if !f.contract {
		return formSides[f.side], formTypes[f.typ]
	}
	return contractCross(f.contractRequest())
}

// contractCross is a contract order's side and type for crossWarning:
// BUY_OPEN and BUY_CLOSE buy, SELL_OPEN and SELL_CLOSE sell; a
// LIMIT_MAKER time in force judges as a LIMIT_MAKER, and a STOP, which
// waits for its trigger, has no type (never warned about).
func contractCross(r rest.ContractOrderRequest) (side, typ string) {
	side, _, _ = strings.Cut(r.Side, "_")
	switch {
	case r.OrderType != "LIMIT":
		return side, ""
	case r.TimeInForce == "LIMIT_MAKER":
		return side, "LIMIT_MAKER"
	}
	return side, "LIMIT"
}

// stopWarning says when a contract STOP order's trigger is already
// reached by the last price: a BUY stop triggers once the last is at or
// above its trigger, a SELL stop once it is at or below, so such an
// order executes as soon as it is placed. "" otherwise, or when the last
// is unknown.
func stopWarning(side string, r *rest.ContractOrderRequest, last string) string {
	if r.OrderType != "STOP" {
		return ""
	}
	trig, ok := dec(r.TriggerPrice)
	l, lok := dec(last)
	if !ok || !lok || !l.IsPositive() {
		return ""
	}
	switch {
	case side == "BUY" && l.GreaterThanOrEqual(trig):
		return "trigger " + r.TriggerPrice + " at or below the last " + last + ": this BUY stop triggers at once"
	case side == "SELL" && l.LessThanOrEqual(trig):
		return "trigger " + r.TriggerPrice + " at or above the last " + last + ": this SELL stop triggers at once"
	}
	return ""
}

// crossWarning says what a limit order at price does against the book:
// a BUY at or above the ask and a SELL at or below the bid execute at
// once; a LIMIT_MAKER doing so is rejected. "" when it rests.
func crossWarning(side, typ string, price decimal.Decimal, bid, ask string) string {
	var crosses bool
	var what string
	switch side {
	case "BUY":
		if a, ok := dec(ask); ok && a.IsPositive() && price.GreaterThanOrEqual(a) {
			crosses, what = true, "BUY at or above the ask "+ask
		}
	case "SELL":
		if b, ok := dec(bid); ok && b.IsPositive() && price.LessThanOrEqual(b) {
			crosses, what = true, "SELL at or below the bid "+bid
		}
	}
	switch {
	case !crosses:
		return ""
	case typ == "LIMIT_MAKER":
		return what + ": a LIMIT_MAKER would be rejected"
	case typ == "LIMIT":
		return what + ": executes at once (taker)"
	}
	return ""
}
