package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"bhtop/rest"
	"bhtop/state"
)

// The order form: pick a symbol from brokerInfo, a side, a type and a
// time in force, type a quantity and a price. Everything is checked
// against the symbol's filters and the free balance before the review
// step; nothing is sent from the form itself.

// Form fields, in tab order.
const (
	fieldSymbol = iota
	fieldSide
	fieldType
	fieldTIF
	fieldQty
	fieldPrice
	numFields
)

var (
	formSides = []string{"BUY", "SELL"}
	formTypes = []string{"LIMIT", "MARKET", "LIMIT_MAKER"}
	formTIFs  = []string{"GTC", "IOC", "FOK"}
)

// orderForm is the form's state. It is copied with the model, so it holds
// values only.
type orderForm struct {
	loading bool
	loadErr string
	symbols []rest.Symbol
	sym     int
	search  string
	side    int
	typ     int
	tif     int
	qty     string
	price   string
	field   int
	errs    [numFields]string
	general []string // balance and notional problems
	checked bool     // validation ran since the last edit
}

// uses reports whether a field applies to the current order type.
func (f *orderForm) uses(field int) bool {
	switch field {
	case fieldTIF:
		return formTypes[f.typ] == "LIMIT"
	case fieldPrice:
		return formTypes[f.typ] != "MARKET"
	}
	return true
}

// step moves the focus to the next (d=1) or previous (d=-1) used field.
func (f *orderForm) step(d int) {
	for range numFields {
		f.field = (f.field + d + numFields) % numFields
		if f.uses(f.field) {
			return
		}
	}
}

// cycle changes a choice field by d.
func (f *orderForm) cycle(d int) {
	wrap := func(i, n int) int { return ((i+d)%n + n) % n }
	switch f.field {
	case fieldSymbol:
		if len(f.symbols) > 0 {
			f.sym = wrap(f.sym, len(f.symbols))
			f.search = ""
		}
	case fieldSide:
		f.side = wrap(f.side, len(formSides))
	case fieldType:
		f.typ = wrap(f.typ, len(formTypes))
	case fieldTIF:
		f.tif = wrap(f.tif, len(formTIFs))
	}
	f.checked = false
}

// typeText edits the focused field with typed text.
func (f *orderForm) typeText(s string) {
	switch f.field {
	case fieldSymbol:
		f.search += strings.ToUpper(s)
		for i, sym := range f.symbols {
			if strings.HasPrefix(sym.Symbol, f.search) {
				f.sym = i
				break
			}
		}
	case fieldQty:
		f.qty, f.errs[fieldQty] = appendAmount(f.qty, s)
	case fieldPrice:
		f.price, f.errs[fieldPrice] = appendAmount(f.price, s)
	case fieldSide:
		switch strings.ToLower(s) {
		case "b":
			f.side = 0
		case "s":
			f.side = 1
		}
	}
	f.checked = false
}

// backspace deletes the last typed character of the focused field.
func (f *orderForm) backspace() {
	trim := func(s string) string {
		_, size := utf8.DecodeLastRuneInString(s)
		return s[:len(s)-size]
	}
	switch f.field {
	case fieldSymbol:
		f.search = trim(f.search)
	case fieldQty:
		f.qty = trim(f.qty)
		f.errs[fieldQty] = amountSyntax(f.qty)
	case fieldPrice:
		f.price = trim(f.price)
		f.errs[fieldPrice] = amountSyntax(f.price)
	}
	f.checked = false
}

// maxAmountLen is the longest amount the form takes.
const maxAmountLen = 32

// appendAmount appends typed (or pasted) text to an amount field exactly
// as typed, never dropping a character: an amount is sent as the text the
// user sees, so a character the form does not accept marks the field
// invalid (the returned message) instead of silently changing the number
// (`1,5` must never become 15). Only text past maxAmountLen is refused,
// whole, and said so.
func appendAmount(v, s string) (string, string) {
	if len(v)+len(s) > maxAmountLen {
		if e := amountSyntax(v); e != "" {
			return v, e
		}
		return v, "too long: at most " + strconv.Itoa(maxAmountLen) + " characters"
	}
	v += s
	return v, amountSyntax(v)
}

// amountSyntax says why v is not a plain decimal amount (digits with at
// most one point), "" when it is or is still empty.
func amountSyntax(v string) string {
	points, digits := 0, 0
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r == '.':
			points++
		default:
			return strconv.QuoteRune(r) + " is not a digit or point"
		}
	}
	switch {
	case points > 1:
		return "more than one point"
	case points == 1 && digits == 0:
		return "not a number: type digits"
	}
	return ""
}

// symbol is the chosen symbol (zero when none are loaded).
func (f *orderForm) symbol() rest.Symbol {
	if f.sym < 0 || f.sym >= len(f.symbols) {
		return rest.Symbol{}
	}
	return f.symbols[f.sym]
}

// request is the order the form describes.
func (f *orderForm) request() rest.OrderRequest {
	req := rest.OrderRequest{
		Symbol:   f.symbol().Symbol,
		Side:     formSides[f.side],
		Type:     formTypes[f.typ],
		Quantity: f.qty,
	}
	if f.uses(fieldTIF) {
		req.TimeInForce = formTIFs[f.tif]
	}
	if f.uses(fieldPrice) {
		req.Price = f.price
	}
	return req
}

// filterDec parses a filter value; ok is false for "no such filter".
func filterDec(s string) (decimal.Decimal, bool) {
	d, err := decimal.NewFromString(s)
	if err != nil || d.IsZero() {
		return decimal.Decimal{}, false
	}
	return d, true
}

// checkRange checks v against min, max and an increment counted from min.
func checkRange(v decimal.Decimal, minS, maxS, stepS, what string) string {
	lo, hasLo := filterDec(minS)
	if hasLo && v.LessThan(lo) {
		return what + " below the minimum " + minS
	}
	if hi, ok := filterDec(maxS); ok && v.GreaterThan(hi) {
		return what + " above the maximum " + maxS
	}
	if st, ok := filterDec(stepS); ok {
		base := v
		if hasLo {
			base = v.Sub(lo)
		}
		if !base.Mod(st).IsZero() {
			return what + " must be a multiple of " + stepS
		}
	}
	return ""
}

// parsePositive parses a typed amount.
func parsePositive(s, what string) (decimal.Decimal, string) {
	if s == "" {
		return decimal.Decimal{}, what + " is required"
	}
	if e := amountSyntax(s); e != "" {
		return decimal.Decimal{}, what + ": " + e
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Decimal{}, what + " is not a number"
	}
	if !d.IsPositive() {
		return decimal.Decimal{}, what + " must be above zero"
	}
	return d, ""
}

// freeOf is the free balance of asset in the snapshot (zero if absent).
func freeOf(s *state.Snapshot, asset string) decimal.Decimal {
	for i := range s.Balances {
		if s.Balances[i].Asset == asset {
			d, err := decimal.NewFromString(s.Balances[i].Free)
			if err == nil {
				return d
			}
		}
	}
	return decimal.Zero
}

// validate checks the form against the symbol's filters and the free
// balances in s, records the messages, and returns the notional ("" for
// MARKET orders) and whether the order may go to review.
func (f *orderForm) validate(s *state.Snapshot) (notional string, ok bool) {
	f.errs = [numFields]string{}
	f.general = nil
	f.checked = true
	sym := f.symbol()
	if sym.Symbol == "" {
		f.errs[fieldSymbol] = "choose a symbol"
		return "", false
	}
	if sym.Status != "" && sym.Status != "TRADING" {
		f.errs[fieldSymbol] = "symbol is " + sym.Status
	}
	qty, e := parsePositive(f.qty, "quantity")
	if e == "" {
		e = checkRange(qty, sym.MinQty, sym.MaxQty, sym.StepSize, "quantity")
	}
	f.errs[fieldQty] = e
	var price decimal.Decimal
	if f.uses(fieldPrice) {
		price, e = parsePositive(f.price, "price")
		if e == "" {
			e = checkRange(price, sym.MinPrice, sym.MaxPrice, sym.TickSize, "price")
		}
		f.errs[fieldPrice] = e
	}
	for _, e := range f.errs {
		if e != "" {
			return "", false
		}
	}
	var n decimal.Decimal
	if f.uses(fieldPrice) {
		n = price.Mul(qty)
		notional = n.String()
		if mn, ok := filterDec(sym.MinNotional); ok && n.LessThan(mn) {
			f.general = append(f.general, "notional "+notional+" below the minimum "+sym.MinNotional)
		}
	}
	switch formSides[f.side] {
	case "BUY":
		if f.uses(fieldPrice) {
			if free := freeOf(s, sym.QuoteAsset); free.LessThan(n) {
				f.general = append(f.general, "needs "+notional+" "+sym.QuoteAsset+", free "+free.String())
			}
		}
	case "SELL":
		if free := freeOf(s, sym.BaseAsset); free.LessThan(qty) {
			f.general = append(f.general, "needs "+qty.String()+" "+sym.BaseAsset+", free "+free.String())
		}
	}
	return notional, len(f.general) == 0
}
