package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

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
	// The title gives way after the quote (the Market field says spot or
	// contract too).
	lines := []boxLine{{s: strings.TrimSuffix(b.String(), "\n\n"), drop: 2}, {}}
	lines = append(lines, f.fieldLines(st, cx.w-st.Box.GetHorizontalFrameSize())...)
	// On a small screen the blank lines give way first, then the hint
	// (drop 4), the symbol's filters (3), then the quote, the free
	// balance and the title (2), then the fields away from the one typed
	// into, below it first (1); the focused field, the fields with a
	// message, the warnings and the keys always show.
	for _, l := range f.quoteLines(cx) {
		drop := 2
		switch plain := ansi.Strip(l); {
		case strings.HasPrefix(plain, "b bid"):
			drop = 4
		case strings.HasPrefix(plain, "⚠"):
			drop = 0
		}
		lines = append(lines, boxLine{s: l, drop: drop})
	}
	lines = append(lines, boxLine{})
	for _, l := range filterLines(f.symbol(), cx.w-st.Box.GetHorizontalFrameSize()) {
		lines = append(lines, boxLine{s: st.Muted.Render(l), drop: 3})
	}
	if free := f.freeLine(cx.snap, cx.privacy); free != "" {
		lines = append(lines, boxLine{s: st.Muted.Render(free), drop: 2})
	}
	for _, g := range f.general {
		if cx.privacy {
			g = maskNumbers(g) // "needs 5 USDT, free 3": a balance
		}
		lines = append(lines, boxLine{s: st.Bad.Render("! " + g)})
	}
	lines = append(lines, boxLine{}, boxLine{s: st.Muted.Render("enter review · tab/↑↓ field · ←/→ change · esc close")})
	return cx.boxedLines(st.Box, lines)
}

// fieldLines are a line per field the order uses: the focus marker, the
// label, the value (a choice between arrows, typed text in brackets) and
// the field's message, on a line of its own under the value when the
// line would be wider than width.
func (f *orderForm) fieldLines(st *themes.Styles, width int) []boxLine {
	var out []boxLine
	// The labels take 10 cells and a typed value's box 18 inside its
	// brackets; on a narrow screen the box, then the labels' gap, give
	// way so that a field stays on one line.
	labelW, valueW := 10, 18
	if room := width - 2 - labelW - 2; room < valueW {
		valueW = max(room, 6)
		if room < 6 {
			labelW, valueW = 9, max(room+1, 4) // "PriceType" is the longest label
		}
	}
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
			v = "[" + fitValue(value, f.field == field, valueW) + "]"
		}
		if f.field == field {
			v = st.Focus.Render(v)
		} else {
			v = st.Field.Render(v)
		}
		line := marker + st.Label.Render(fit(label, labelW)) + v
		e := f.errs[field]
		drop := 0
		if f.field != field && e == "" {
			drop = 1 // gives way on a screen too low for every field
		}
		switch {
		case e == "":
		case ansi.StringWidth(line)+4+textWidth(e) <= width:
			line += "  " + st.Bad.Render("! "+e)
		default:
			out = append(out, boxLine{s: line})
			line = "    " + st.Bad.Render("! "+e)
		}
		out = append(out, boxLine{s: line, drop: drop})
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
	return out
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

// fitValue is a typed value in w cells. Focused, it ends with the cursor
// and, when wider, shows its end (fitTail), where the cursor types. Not
// focused, it shows its start with "…" at the end (fit): a price's
// integer part matters most, its last decimals least. But a start with
// no digit other than 0 would read a nonzero value as zero (a price of
// 0.000000000000000000123 as "0.00000000000000000…"): such a value shows
// its end, where its digits are, as when focused.
func fitValue(v string, focused bool, w int) string {
	if focused {
		return fitTail(v+cursorIf(true), w)
	}
	s := fit(v, w)
	if textWidth(v) > w && !strings.ContainsAny(s, "123456789") && strings.ContainsAny(v, "123456789") {
		return fitTail(v, w)
	}
	return s
}

// fitTail pads s to w cells or, when it is wider, shows its end after
// "…": a typed value's last digits and the cursor stay in sight.
func fitTail(s string, w int) string {
	if textWidth(s) <= w {
		return fit(s, w)
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(string(r))+1 > w {
		r = r[1:]
	}
	return fit("…"+string(r), w)
}

func cursorIf(on bool) string {
	if on {
		return "_"
	}
	return ""
}

// filterLines list a symbol's filters for the form, in as many lines of
// at most width cells as they need (a filter is never split).
func filterLines(s rest.Symbol, width int) []string {
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
		return []string{"no filters"}
	}
	lines := []string{parts[0]}
	for _, p := range parts[1:] {
		if last := &lines[len(lines)-1]; textWidth(*last+" · "+p) <= width {
			*last += " · " + p
		} else {
			lines = append(lines, p)
		}
	}
	return lines
}
