package ui

import (
	"github.com/shopspring/decimal"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// The order form's contract side: sides BUY_OPEN … SELL_CLOSE, order
// type LIMIT or STOP (with a trigger price), price type, time in force
// and leverage (not for closes), checked with actions.CheckContractOrder
// and valued with actions.ReviewContractOrder.

// contractUses reports whether a field applies to the contract order the
// form describes.
func (f *orderForm) contractUses(field int) bool {
	r := f.contractRequest()
	switch field {
	case fieldLeverage:
		return !r.IsClose()
	case fieldPrice:
		return r.PriceType == "INPUT"
	case fieldOver:
		return r.PriceType == "OVER"
	case fieldTrigger:
		return r.OrderType == "STOP"
	}
	return true
}

// cycleContract changes a contract choice field with wrap.
func (f *orderForm) cycleContract(wrap func(i, n int) int) {
	switch f.field {
	case fieldSide:
		f.cside = wrap(f.cside, len(rest.ContractSides))
	case fieldType:
		f.ctyp = wrap(f.ctyp, len(rest.ContractOrderTypes))
	case fieldPriceType:
		f.ptype = wrap(f.ptype, len(rest.ContractPriceTypes))
	case fieldTIF:
		f.ctif = wrap(f.ctif, len(rest.ContractTIFs))
	}
}

// contractSymbol is the chosen contract (zero when none are loaded).
func (f *orderForm) contractSymbol() rest.ContractSymbol {
	if f.csym < 0 || f.csym >= len(f.contracts) {
		return rest.ContractSymbol{}
	}
	return f.contracts[f.csym]
}

// contractRequest is the contract order the form describes; fields that
// do not apply are left empty.
func (f *orderForm) contractRequest() rest.ContractOrderRequest {
	r := rest.ContractOrderRequest{
		Symbol:      f.contractSymbol().Symbol.Symbol,
		Side:        rest.ContractSides[f.cside],
		OrderType:   rest.ContractOrderTypes[f.ctyp],
		PriceType:   rest.ContractPriceTypes[f.ptype],
		TimeInForce: rest.ContractTIFs[f.ctif],
		Quantity:    f.qty,
	}
	if !r.IsClose() {
		r.Leverage = f.lev
	}
	if r.PriceType == "INPUT" {
		r.Price = f.price
	}
	if r.PriceType == "OVER" {
		r.OverPrice = f.over
	}
	if r.OrderType == "STOP" {
		r.TriggerPrice = f.trigger
	}
	return r
}

// problemFields maps actions' field names to the form's fields; the
// others are shown under the form.
var problemFields = map[string]int{
	"symbol": fieldSymbol, "side": fieldSide, "orderType": fieldType, "priceType": fieldPriceType,
	"timeInForce": fieldTIF, "leverage": fieldLeverage, "quantity": fieldQty, "price": fieldPrice,
	"triggerPrice": fieldTrigger, "overPrice": fieldOver,
}

// validateContract checks the contract order and values it at ref (the
// price it would fill at: the typed price for INPUT, else the best
// opposite price when the market knows it). ok is false when it may not
// go to review.
func (f *orderForm) validateContract(ref string) (actions.Review, bool) {
	f.errs = [numFields]string{}
	f.general = nil
	f.checked = true
	if miss := f.searchMiss(); miss != "" {
		f.errs[fieldSymbol] = miss
		return actions.Review{}, false
	}
	r := f.contractRequest()
	for _, name := range []string{"quantity", "price", "leverage", "triggerPrice", "overPrice"} {
		fld := problemFields[name]
		if f.uses(fld) {
			if e := amountWhole(*f.amount(fld)); e != "" {
				f.errs[fld] = name + ": " + e // named as the checks' own marks are
			}
		}
	}
	if r.PriceType == "OVER" && f.over == "" && f.errs[fieldOver] == "" {
		f.errs[fieldOver] = "an OVER order needs the amount over the best opposite price"
	}
	rv, probs := actions.ReviewContractOrder(f.contractSymbol(), r, ref)
	for _, p := range probs {
		if fld, ok := problemFields[p.Field]; ok && f.errs[fld] == "" {
			f.errs[fld] = p.Field + ": " + p.Msg
		} else if !ok {
			f.general = append(f.general, p.Error())
		}
	}
	for _, e := range f.errs {
		if e != "" {
			return rv, false
		}
	}
	return rv, len(f.general) == 0
}

// contractRef is the price a contract order would fill at, for its
// review: the typed price for INPUT, else the best opposite price (the
// ask for a buy, the bid for a sell) or the last, "" when unknown; for
// OVER that price plus the over price (a buy; less it for a sell).
func (m *Model) contractRef(r rest.ContractOrderRequest) string {
	if r.PriceType == "INPUT" {
		return r.Price
	}
	q := m.mk.snap.Quotes[r.Symbol]
	opp := q.Ask
	sell := r.Side == "SELL_OPEN" || r.Side == "SELL_CLOSE"
	if sell {
		opp = q.Bid
	}
	for _, p := range []string{opp, q.Last, q.Mark} {
		d, err := decimal.NewFromString(p)
		if err != nil || !d.IsPositive() {
			continue
		}
		if r.PriceType != "OVER" {
			return p
		}
		over, err := decimal.NewFromString(r.OverPrice)
		if err != nil {
			return p
		}
		if sell {
			over = over.Neg()
		}
		if d = d.Add(over); !d.IsPositive() {
			return ""
		}
		return d.String()
	}
	return ""
}

// contractReviewLines say what a contract order is worth: its notional
// and the margin it needs (a closing order frees margin instead), and the
// free balance of the margin asset (masked with privacy on).
func contractReviewLines(rv actions.Review, r *rest.ContractOrderRequest, s *state.Snapshot, privacy bool) []string {
	if !rv.Known {
		return []string{"notional: at the market price (not known here)"}
	}
	lines := []string{"notional " + rv.Notional.String() + " " + rv.Asset}
	if r.IsClose() {
		return append(lines, "margin: none needed (a closing order frees margin)")
	}
	line := "margin needed " + rv.Margin.String() + " " + rv.Asset + " at " + r.Leverage + "x"
	if s != nil {
		free := freeOf(s, rv.Asset)
		shown := free.String()
		if privacy {
			shown = hidden
		}
		line += " (free " + shown + ")"
		if free.LessThan(rv.Margin) {
			line += " ⚠ more than free"
		}
	}
	return append(lines, line)
}
