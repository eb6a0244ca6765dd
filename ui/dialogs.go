package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/actions"
	"bhtop/rest"
)

// confirmation is a pending yes/no question. Only `y` answers yes; every
// other key answers no (the closing review's quantity takes digits too).
// Exactly one of place, contract, closing, cancel and cancelAll is set.
type confirmation struct {
	place     *rest.OrderRequest
	notional  string
	quote     string
	contract  *rest.ContractOrderRequest
	review    actions.Review
	closing   *closeReview
	cancel    *rest.CancelRequest
	summary   string // the order being canceled, as a person reads it
	cancelAll []actions.Target
}

// sends reports whether the question is about sending an order (else
// about cancelling).
func (c *confirmation) sends() bool { return c.place != nil || c.contract != nil || c.closing != nil }

// dialog draws whatever covers the panes: the confirmation, the order
// form or the help. ok is false when nothing does.
func (m *Model) dialog() (string, bool) {
	switch {
	case m.confirm != nil && m.confirm.closing != nil:
		return m.closeView(), true
	case m.confirm != nil && m.confirm.cancelAll != nil:
		return m.cancelAllView(), true
	case m.confirm != nil:
		return m.confirmView(), true
	case m.cancelRun != nil && !m.cancelRun.hidden:
		return m.cancelRunView(), true
	case m.form != nil:
		return m.formView(), true
	case m.showHelp:
		h := m.help
		h.ShowAll = true
		h.SetWidth(m.lay.w - m.st.Box.GetHorizontalFrameSize() - 2)
		body := m.st.Title.Render("Keys") + "\n\n" + h.View(m.keys) + "\n\n" +
			m.st.Muted.Render("? or esc closes this help")
		return m.boxed(m.st.Box, body), true
	}
	return "", false
}

// confirmView is the yes/no box. It uses the theme's loudest style so it
// cannot be mistaken for the form behind it.
func (m *Model) confirmView() string {
	c := m.confirm
	var lines []string
	switch {
	case c.place != nil:
		r := c.place
		lines = append(lines, "SEND THIS ORDER?", "")
		lines = append(lines, orderSummary(r))
		if c.notional != "" {
			lines = append(lines, "notional "+c.notional+" "+c.quote)
		} else {
			lines = append(lines, "notional: at the market price (not known here)")
		}
		if p, ok := dec(r.Price); ok {
			q := m.mk.snap.Quotes[r.Symbol]
			if w := crossWarning(r.Side, r.Type, p, q.Bid, q.Ask); w != "" {
				lines = append(lines, "⚠ "+w)
			}
		}
	case c.contract != nil:
		lines = append(lines, "SEND THIS CONTRACT ORDER?", "", contractSummary(c.contract))
		lines = append(lines, contractReviewLines(c.review, c.contract, m.snap)...)
	case c.cancel != nil:
		lines = append(lines, "CANCEL THIS ORDER?", "", c.summary)
	}
	lines = append(lines, "", "y = yes, send    any other key = no")
	return m.boxed(m.st.Confirm, strings.Join(lines, "\n"))
}

// orderSummary is one line saying what an order request does.
func orderSummary(r *rest.OrderRequest) string {
	s := r.Side + " " + r.Quantity + " " + r.Symbol + " " + r.Type
	if r.TimeInForce != "" {
		s += " " + r.TimeInForce
	}
	if r.Price != "" {
		s += " @ " + r.Price
	}
	return s
}

// formView draws the order form with each field's inline message.
func (m *Model) formView() string {
	f := m.form
	st := &m.st
	var b strings.Builder
	if f.contract {
		b.WriteString(st.Title.Render("New contract order"))
	} else {
		b.WriteString(st.Title.Render("New spot order"))
	}
	b.WriteString("\n\n")
	if f.loading {
		b.WriteString("loading symbols from brokerInfo…\n")
		return m.boxed(st.Box, b.String())
	}
	if f.loadErr != "" {
		b.WriteString(st.Bad.Render("! " + f.loadErr))
		b.WriteString("\n\nesc closes")
		return m.boxed(st.Box, b.String())
	}
	sym := f.symbol()
	row := func(field int, label, value string, choice bool) {
		if !f.uses(field) {
			return
		}
		marker := "  "
		if f.field == field {
			marker = "▶ "
		}
		v := value
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
	symText := sym.Symbol
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
	for _, l := range m.formQuoteLines(f) {
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(st.Muted.Render(filterLine(sym)))
	b.WriteString("\n")
	if f.contract {
		if cs := f.contractSymbol(); cs.Symbol.Symbol != "" && m.snap != nil {
			asset := actions.MarginAsset(cs)
			b.WriteString(st.Muted.Render("margin in " + asset + ", free " + freeOf(m.snap, asset).String()))
			b.WriteString("\n")
		}
	} else if m.snap != nil && sym.Symbol != "" {
		free := "free " + freeOf(m.snap, sym.BaseAsset).String() + " " + sym.BaseAsset +
			", " + freeOf(m.snap, sym.QuoteAsset).String() + " " + sym.QuoteAsset
		b.WriteString(st.Muted.Render(free))
		b.WriteString("\n")
	}
	for _, g := range f.general {
		b.WriteString(st.Bad.Render("! " + g))
		b.WriteString("\n")
	}
	b.WriteString("\n")
	b.WriteString(st.Muted.Render("enter review · tab/↑↓ field · ←/→ change · esc close"))
	return m.boxed(st.Box, b.String())
}

// boxed draws content in a box no wider than the screen, truncating
// content lines that would not fit (never the box's own border).
func (m *Model) boxed(box lipgloss.Style, content string) string {
	inner := m.lay.w - box.GetHorizontalFrameSize()
	if inner < 1 {
		return ""
	}
	lines := strings.Split(content, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > inner {
			lines[i] = ansi.Truncate(l, inner, "…")
		}
	}
	return box.Render(strings.Join(lines, "\n"))
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
		if _, ok := filterDec(v); ok {
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

// boolIndex is 1 for true, 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// contractSummary is one line saying what a contract order does.
func contractSummary(r *rest.ContractOrderRequest) string {
	s := r.Side + " " + r.Quantity + " " + r.Symbol + " " + r.OrderType + " " + r.PriceType
	if r.TimeInForce != "" {
		s += " " + r.TimeInForce
	}
	if r.Price != "" {
		s += " @ " + r.Price
	}
	if r.OverPrice != "" {
		s += " over " + r.OverPrice
	}
	if r.TriggerPrice != "" {
		s += " trigger " + r.TriggerPrice
	}
	if r.Leverage != "" {
		s += " " + r.Leverage + "x"
	}
	return s
}
