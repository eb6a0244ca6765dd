// Package actions builds and sends the account's trading actions — a
// contract order checked against its filters, the order that closes a
// position, the cancelling of many orders — for the dashboard and
// `bhtop order` alike (no UI here).
package actions

import (
	"errors"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/rest"
)

// FieldError is one field of an order that does not pass a check.
type FieldError struct {
	Field string // symbol, side, orderType, priceType, timeInForce, quantity, price, triggerPrice, overPrice, leverage, notional
	Msg   string
}

func (e FieldError) Error() string { return e.Field + ": " + e.Msg }

// Problems are every check an order failed; nil when it passed.
type Problems []FieldError

func (p Problems) Error() string {
	parts := make([]string, len(p))
	for i, e := range p {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "; ")
}

// Err is p as an error: nil when there is no problem.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// Has reports whether field failed a check.
func (p Problems) Has(field string) bool {
	return slices.ContainsFunc(p, func(e FieldError) bool { return e.Field == field })
}

// filter is one of a symbol's min/max/step filters; zero values are "none".
type filter struct{ lo, hi, step string }

// check returns why v breaks f ("" when it does not). The step counts
// from the minimum, as the service's filters do.
func (f filter) check(v decimal.Decimal) string {
	lo, _ := dec.Parse(f.lo)
	hi, _ := dec.Parse(f.hi)
	step, _ := dec.Parse(f.step)
	switch {
	case lo.IsPositive() && v.LessThan(lo):
		return "below the minimum " + f.lo
	case hi.IsPositive() && v.GreaterThan(hi):
		return "above the maximum " + f.hi
	case step.IsPositive() && !v.Sub(lo).Mod(step).IsZero():
		return "not a multiple of " + f.step
	}
	return ""
}

// CheckContractOrder checks r against the contract's filters and the
// rules of POST /openapi/contract/v1/order (API-FACTS.md): side, order
// type (STOP needs a trigger price), price type (INPUT needs a price),
// time in force, leverage (required to open, refused to close), quantity
// and prices within their filters, and the notional at ref (the price
// the order would fill at; "" for r.Price) not below MIN_NOTIONAL.
func CheckContractOrder(sym rest.ContractSymbol, r rest.ContractOrderRequest, ref string) Problems {
	var p Problems
	bad := func(field, msg string) { p = append(p, FieldError{field, msg}) }
	oneOf := func(field, v, def string, allowed []string) string {
		v = strings.ToUpper(v)
		if v == "" {
			v = def
		}
		if !slices.Contains(allowed, v) {
			bad(field, "want one of "+strings.Join(allowed, ", "))
		}
		return v
	}
	if sym.Symbol.Symbol == "" {
		bad("symbol", "unknown contract")
	} else if sym.Status != "" && sym.Status != "TRADING" {
		bad("symbol", "contract is "+sym.Status)
	}
	oneOf("side", r.Side, "", rest.ContractSides)
	typ := oneOf("orderType", r.OrderType, "LIMIT", rest.ContractOrderTypes)
	pt := oneOf("priceType", r.PriceType, "INPUT", rest.ContractPriceTypes)
	oneOf("timeInForce", r.TimeInForce, "GTC", rest.ContractTIFs)
	prices := filter{sym.MinPrice, sym.MaxPrice, sym.TickSize}
	qty, ok := dec.Positive(r.Quantity)
	if !ok {
		bad("quantity", "want a positive decimal such as 1.5")
	} else if msg := (filter{sym.MinQty, sym.MaxQty, sym.StepSize}).check(qty); msg != "" {
		bad("quantity", msg)
	}
	if r.Price != "" || pt == "INPUT" {
		if price, ok := dec.Positive(r.Price); !ok {
			bad("price", "want a positive decimal (priceType INPUT needs one)")
		} else if msg := prices.check(price); msg != "" {
			bad("price", msg)
		}
	}
	switch {
	case typ == "STOP" && r.TriggerPrice == "":
		bad("triggerPrice", "a STOP order needs a trigger price")
	case typ != "STOP" && r.TriggerPrice != "":
		bad("triggerPrice", "only a STOP order takes a trigger price")
	case r.TriggerPrice != "":
		if tp, ok := dec.Positive(r.TriggerPrice); !ok {
			bad("triggerPrice", "want a positive decimal")
		} else if msg := prices.check(tp); msg != "" {
			bad("triggerPrice", msg)
		}
	}
	if r.OverPrice != "" {
		if pt != "OVER" {
			bad("overPrice", "only priceType OVER takes an over price")
		} else if op, ok := dec.Positive(r.OverPrice); !ok {
			bad("overPrice", "want a positive decimal")
		} else if msg := (filter{step: sym.TickSize}).check(op); msg != "" {
			bad("overPrice", msg)
		}
	}
	switch lev, ok := dec.Positive(r.Leverage); {
	case r.IsClose() && r.Leverage != "":
		bad("leverage", "a closing order takes no leverage (the position's applies)")
	case !r.IsClose() && !ok:
		bad("leverage", "an opening order needs a positive leverage such as 10")
	case !r.IsClose() && lev.LessThan(decimal.NewFromInt(1)):
		bad("leverage", "below the minimum 1")
	case !r.IsClose() && lev.GreaterThan(decimal.NewFromInt(MaxLeverage)):
		bad("leverage", "above the maximum 100")
	}
	if len(p) > 0 {
		return p
	}
	if ref == "" {
		ref = r.Price
	}
	if mn, _ := dec.Parse(sym.MinNotional); mn.IsPositive() && ref != "" {
		if n, err := Notional(sym, r.Quantity, ref); err == nil && n.LessThan(mn) {
			bad("notional", "notional "+n.String()+" below the minimum "+sym.MinNotional)
		}
	}
	return p
}

// MaxLeverage is the highest leverage an opening order may ask for.
const MaxLeverage = 100

// Notional is the value of qty at price in the contract's margin asset:
// qty × multiplier × price for a linear contract, qty × multiplier / price
// for an inverse one (contracts of multiplier quote units each; 8
// decimals). The multiplier is the contract's contractMultiplier, 1 when
// brokerInfo gives none.
func Notional(sym rest.ContractSymbol, qty, price string) (decimal.Decimal, error) {
	q, err := decimal.NewFromString(qty)
	if err != nil {
		return decimal.Decimal{}, errors.New("quantity: not a decimal")
	}
	if m, ok := dec.Positive(sym.Multiplier); ok {
		q = q.Mul(m)
	}
	p, err := decimal.NewFromString(price)
	if err != nil || !p.IsPositive() {
		return decimal.Decimal{}, errors.New("price: not a positive decimal")
	}
	if sym.Inverse {
		return q.DivRound(p, 8), nil
	}
	return q.Mul(p), nil
}

// Margin is the initial margin an opening order of notional n needs at
// leverage lev (n / lev, rounded up to 8 decimals), in MarginAsset(sym).
func Margin(n decimal.Decimal, lev string) (decimal.Decimal, error) {
	l, ok := dec.Positive(lev)
	if !ok {
		return decimal.Decimal{}, errors.New("leverage: not a positive decimal")
	}
	m := n.Div(l)
	if r := m.RoundUp(8); !r.Equal(m) {
		return r, nil
	}
	return m, nil
}

// MarginAsset is the asset a contract's margin and notional are counted
// in: its marginToken, else the base asset of an inverse contract and the
// quote asset of a linear one.
func MarginAsset(sym rest.ContractSymbol) string {
	switch {
	case sym.MarginAsset != "":
		return sym.MarginAsset
	case sym.Inverse:
		return sym.BaseAsset
	}
	return sym.QuoteAsset
}

// CheckFilter returns why v breaks the filter with minimum lo, maximum hi
// and increment step (counted from lo), "" when it does not; an empty or
// zero bound is no bound. Spot and contract orders use the same rule.
func CheckFilter(v decimal.Decimal, lo, hi, step string) string {
	return filter{lo, hi, step}.check(v)
}
