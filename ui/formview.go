package ui

import (
	"strings"

	"bhtop/actions"
	declit "bhtop/dec"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/themes"
)

// View is the order form's box: each field with its inline message, the
// symbol's live quote and filters, the free balances it draws on, and the
// form's keys. It reads the account and the market from cx.
func (f orderForm) View(cx modeCtx) string {
	st := cx.st
	var b strings.Builder
	if f.contract {
		b.WriteString(st.Title.Render("New contract order"))
	} else {
		b.WriteString(st.Title.Render("New spot order"))
	}
	b.WriteString("\n\n")
	switch {
	case f.loading:
		b.WriteString("loading symbols from brokerInfo…\n")
		return cx.boxed(st.Box, b.String())
	case f.loadErr != "":
		b.WriteString(st.Bad.Render("! " + f.loadErr))
		b.WriteString("\n\nesc closes")
		return cx.boxed(st.Box, b.String())
	}
	f.writeFields(&b, st)
	for _, l := range f.quoteLines(cx) {
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(filterLine(f.symbol())))
	b.WriteString("\n")
	if free := f.freeLine(cx.snap, cx.privacy); free != "" {
		b.WriteString(st.Muted.Render(free))
		b.WriteString("\n")
	}
	for _, g := range f.general {
		if cx.privacy {
			g = maskNumbers(g) // "needs 5 USDT, free 3": a balance
		}
		b.WriteString(st.Bad.Render("! " + g))
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(st.Muted.Render("enter review · tab/↑↓ field · ←/→ change · esc close"))
	return cx.boxed(st.Box, b.String())
}

// writeFields writes a line per field the order uses: the focus marker,
// the label, the value (a choice between arrows, typed text in brackets)
// and the field's message.
func (f *orderForm) writeFields(b *strings.Builder, st *themes.Styles) {
	row := func(field int, label, value string, choice bool) {
		if !f.uses(field) {
			return
		}
		marker := "  "
		if f.field == field {
			marker = "▶ "
		}
		var v string
		if choice {
			v = "◀ " + value + " ▶"
		} else {
			v = "[" + fit(value+cursorIf(f.field == field), 18) + "]"
		}
		if f.field == field {
			v = st.Focus.Render(v)
		} else {
			v = st.Field.Render(v)
		}
		b.WriteString(marker + st.Label.Render(fit(label, 10)) + v)
		if e := f.errs[field]; e != "" {
			b.WriteString("  " + st.Bad.Render("! "+e))
		}
		b.WriteString("\n")
	}
	symText := f.symbol().Symbol
	if f.search != "" {
		symText += " (" + f.search + ")"
	}
	if f.contract && f.contractsErr != "" {
		symText = f.contractsErr
	}
	row(fieldMarket, "Market", formMarkets[boolIndex(f.contract)], true)
	row(fieldSymbol, "Symbol", symText, true)
	row(fieldSide, "Side", f.sideName(), true)
	row(fieldType, "Type", f.typeName(), true)
	if f.contract {
		r := f.contractRequest()
		row(fieldPriceType, "PriceType", r.PriceType, true)
		row(fieldTIF, "TIF", r.TimeInForce, true)
		row(fieldLeverage, "Leverage", f.lev, false)
	} else {
		row(fieldTIF, "TIF", formTIFs[f.tif], true)
	}
	row(fieldQty, "Quantity", f.qty, false)
	row(fieldPrice, "Price", f.price, false)
	row(fieldOver, "OverPrice", f.over, false)
	row(fieldTrigger, "Trigger", f.trigger, false)
}

// freeLine is the free balance the order draws on: the contract's margin
// asset, or the spot symbol's base and quote assets ("" with no account
// or no symbol yet). With privacy on the amounts are masked.
func (f *orderForm) freeLine(s *state.Snapshot, privacy bool) string {
	if s == nil {
		return ""
	}
	free := func(asset string) string {
		if privacy {
			return hidden
		}
		return freeOf(s, asset).String()
	}
	if f.contract {
		cs := f.contractSymbol()
		if cs.Symbol.Symbol == "" {
			return ""
		}
		asset := actions.MarginAsset(cs)
		return "margin in " + asset + ", free " + free(asset)
	}
	sym := f.symbol()
	if sym.Symbol == "" {
		return ""
	}
	return "free " + free(sym.BaseAsset) + " " + sym.BaseAsset +
		", " + free(sym.QuoteAsset) + " " + sym.QuoteAsset
}

func cursorIf(on bool) string {
	if on {
		return "_"
	}
	return ""
}

// filterLine lists a symbol's filters for the form.
func filterLine(s rest.Symbol) string {
	var parts []string
	add := func(label, v string) {
		if _, ok := declit.Nonzero(v); ok {
			parts = append(parts, label+" "+v)
		}
	}
	add("tick", s.TickSize)
	add("step", s.StepSize)
	add("min qty", s.MinQty)
	add("max qty", s.MaxQty)
	add("min price", s.MinPrice)
	add("min notional", s.MinNotional)
	if len(parts) == 0 {
		return "no filters"
	}
	return strings.Join(parts, " · ")
}
