package ui

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"bhtop/actions"
	declit "bhtop/dec"
	"bhtop/rest"
	"bhtop/state"
)

// The order form: pick the market (spot or contract), a symbol from
// brokerInfo, a side, a type and a time in force (for a contract also the
// price type and leverage), type a quantity and a price. Everything is
// checked against the symbol's filters (and, for spot, the free balance)
// before the review step; nothing is sent from the form itself.

// Form fields, in tab order. The form opens on the symbol; the market is
// one step up.
const (
	fieldMarket = iota
	fieldSymbol
	fieldSide
	fieldType
	fieldPriceType
	fieldTIF
	fieldLeverage
	fieldQty
	fieldPrice
	fieldOver // contract priceType OVER: added to the best opposite price
	fieldTrigger
	numFields
)

var (
	formMarkets = []string{"spot", "contract"}
	formSides   = []string{"BUY", "SELL"}
	formTypes   = []string{"LIMIT", "MARKET", "LIMIT_MAKER"}
	formTIFs    = []string{"GTC", "IOC", "FOK"}
)

// orderForm is the form's state. It is copied with the model, so it holds
// values only.
type orderForm struct {
	loading bool
	loadErr string
	symbols []rest.Symbol
	sym     int
	search  string
	pre     string // the symbol preselected (a chart's, the selected row's) until the symbols load
	side    int
	typ     int
	tif     int
	qty     string
	price   string
	field   int
	// The contract side: contract is the market choice; the others are
	// its own symbol list and fields (contract.go).
	contract  bool
	contracts []rest.ContractSymbol
	// contractsErr says why the contracts could not be listed.
	contractsErr string
	csym         int
	cside        int
	ctyp         int
	ptype        int
	ctif         int
	lev          string
	trigger      string
	over         string // overPrice of a priceType OVER order
	quoted       bool   // price holds what b, a or l took, untouched since
	errs         [numFields]string
	general      []string // balance and notional problems
	checked      bool     // validation ran since the last edit
	keys         formKeys
	want         formWant // what the last key asked of the root
}

// uses reports whether a field applies to the current order type.
func (f *orderForm) uses(field int) bool {
	if f.contract {
		return f.contractUses(field)
	}
	switch field {
	case fieldPriceType, fieldLeverage, fieldTrigger, fieldOver:
		return false
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
	case fieldMarket:
		f.contract = !f.contract
		f.search, f.errs[fieldSymbol] = "", ""
	case fieldSymbol:
		if n := f.symbolCount(); n > 0 {
			*f.symIdx() = wrap(*f.symIdx(), n)
			f.search, f.errs[fieldSymbol] = "", ""
		}
	}
	if f.contract {
		f.cycleContract(wrap)
		f.checked = false
		return
	}
	switch f.field {
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
		f.typeSymbol(s)
	case fieldLeverage, fieldTrigger, fieldQty, fieldPrice, fieldOver:
		v := f.amount(f.field)
		*v, f.errs[f.field] = appendAmount(*v, s)
		f.quoted = f.quoted && f.field != fieldPrice
	case fieldSide:
		if f.contract {
			break
		}
		switch strings.ToLower(s) {
		case "b":
			f.side = 0
		case "s":
			f.side = 1
		}
	}
	f.checked = false
}

// typeSymbol adds s to the symbol search and selects the first symbol
// it begins (none: the selection stays, and the field is marked).
func (f *orderForm) typeSymbol(s string) {
	f.search += strings.ToUpper(s)
	for i := range f.symbolCount() {
		if strings.HasPrefix(f.symbolAt(i).Symbol, f.search) {
			*f.symIdx() = i
			break
		}
	}
	f.errs[fieldSymbol] = f.searchMiss()
}

// searchMiss says that no symbol begins with what was typed into the
// symbol field, "" when the symbol selected does (or nothing was typed):
// the order must not go to review on the symbol selected before.
func (f *orderForm) searchMiss() string {
	if f.search == "" || f.symbolCount() == 0 || strings.HasPrefix(f.symbolAt(*f.symIdx()).Symbol, f.search) {
		return ""
	}
	return "no symbol begins with " + f.search
}

// backspace deletes the last typed character of the focused field.
func (f *orderForm) backspace() {
	trim := func(s string) string {
		_, size := utf8.DecodeLastRuneInString(s)
		return s[:len(s)-size]
	}
	if f.field == fieldSymbol {
		f.search = trim(f.search)
		f.errs[fieldSymbol] = f.searchMiss()
	} else if v := f.amount(f.field); v != nil {
		*v = trim(*v)
		f.errs[f.field] = amountSyntax(*v)
		f.quoted = f.quoted && f.field != fieldPrice
	}
	f.checked = false
}

// amount is the typed text of an amount field (nil for the others).
func (f *orderForm) amount(field int) *string {
	switch field {
	case fieldQty:
		return &f.qty
	case fieldPrice:
		return &f.price
	case fieldLeverage:
		return &f.lev
	case fieldTrigger:
		return &f.trigger
	case fieldOver:
		return &f.over
	}
	return nil
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

// amountWhole says why v, typed in full, is not a decimal the service
// takes: amountSyntax's reasons, or a point with no digit after or
// before it ("10.", ".5": fine while typing, refused at review as bhtop
// order refuses them); "" when it is one or is empty.
func amountWhole(v string) string {
	switch e := amountSyntax(v); {
	case e != "":
		return e
	case strings.HasSuffix(v, "."):
		return "a digit must follow the point"
	case strings.HasPrefix(v, "."):
		return "a digit must come before the point (0" + v + ")"
	}
	return ""
}

// symbol is the chosen symbol (zero when none are loaded); for a
// contract, its spot-like part (name, assets, filters).
func (f *orderForm) symbol() rest.Symbol { return f.symbolAt(*f.symIdx()) }

// symbolAt is the market's i-th symbol (zero when out of range).
func (f *orderForm) symbolAt(i int) rest.Symbol {
	switch {
	case i < 0 || i >= f.symbolCount():
		return rest.Symbol{}
	case f.contract:
		return f.contracts[i].Symbol
	}
	return f.symbols[i]
}

// symbolCount is how many symbols the chosen market lists.
func (f *orderForm) symbolCount() int {
	if f.contract {
		return len(f.contracts)
	}
	return len(f.symbols)
}

// symIdx is the chosen market's symbol index.
func (f *orderForm) symIdx() *int {
	if f.contract {
		return &f.csym
	}
	return &f.sym
}

// sideName and typeName are the chosen side and order type as sent.
func (f *orderForm) sideName() string {
	if f.contract {
		return rest.ContractSides[f.cside]
	}
	return formSides[f.side]
}

func (f *orderForm) typeName() string {
	if f.contract {
		return rest.ContractOrderTypes[f.ctyp]
	}
	return formTypes[f.typ]
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

// inFilter is actions.CheckFilter's answer for the field what ("" when v
// passes).
func inFilter(what string, v decimal.Decimal, lo, hi, step string) string {
	if e := actions.CheckFilter(v, lo, hi, step); e != "" {
		return what + " " + e
	}
	return ""
}

// parsePositive parses a typed amount.
func parsePositive(s, what string) (decimal.Decimal, string) {
	if s == "" {
		return decimal.Decimal{}, what + " is required"
	}
	if e := amountWhole(s); e != "" {
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
	if miss := f.searchMiss(); miss != "" {
		f.errs[fieldSymbol] = miss
		return "", false
	}
	if sym.Status != "" && sym.Status != "TRADING" {
		f.errs[fieldSymbol] = "symbol is " + sym.Status
	}
	qty, e := parsePositive(f.qty, "quantity")
	if e == "" {
		e = inFilter("quantity", qty, sym.MinQty, sym.MaxQty, sym.StepSize)
	}
	f.errs[fieldQty] = e
	var price decimal.Decimal
	if f.uses(fieldPrice) {
		price, e = parsePositive(f.price, "price")
		if e == "" {
			e = inFilter("price", price, sym.MinPrice, sym.MaxPrice, sym.TickSize)
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
		if mn, ok := declit.Nonzero(sym.MinNotional); ok && n.LessThan(mn) {
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

// setSymbols fills the form's symbol list, keeping a preselected one.
func (f *orderForm) setSymbols(syms []rest.Symbol, contracts []rest.ContractSymbol, contractsErr string) {
	f.loading = false
	f.symbols = syms
	f.contracts, f.contractsErr = contracts, contractsErr
	want := f.pre
	f.pre = ""
	for i, s := range syms {
		if s.Symbol == want {
			f.sym = i
		}
	}
	for i, s := range contracts {
		if s.Symbol.Symbol == want {
			f.csym = i
		}
	}
	// What was typed while the symbols loaded picks the symbol, as it
	// would have once they were there; typing goes on from it.
	if typed := f.search; typed != "" {
		f.search = ""
		f.typeSymbol(typed)
	}
}
