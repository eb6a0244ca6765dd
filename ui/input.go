package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/themes"
)

// onKey hands a key press to the sub-model that has the keyboard (mode),
// or to the panes.
func (m Model) onKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	switch m.mode() {
	case modeConfirm:
		return m.onConfirmKey(msg)
	case modeCancelRun:
		return m.onCancelRunKey(msg)
	case modeForm:
		return m.onFormKey(msg)
	case modeHelp:
		return m.onHelpKey(msg)
	case modeFilter:
		return m.onFilterKey(msg)
	case modeChart:
		return m.onChartKey(msg)
	}
	if mm, cmd, ok := m.onAccountKey(msg); ok {
		return mm, cmd
	}
	return m.onPaneKey(msg)
}

// onCancelRunKey hands the key to the cancel-all's progress: quitting
// ends ctx, which stops the cancels; hiding leaves a note on the message
// line.
func (m Model) onCancelRunKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	r, cmd := m.cancelRun.Update(msg)
	switch {
	case r.quit:
		return m.quit()
	case r.closed:
		m.cancelRun = nil
	case r.hidden:
		m.cancelRun = &r
		m.setMsg(msgInfo, cancelProgressText(r.sum))
	}
	return m, cmd
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	m.cancel()
	return m, tea.Quit
}

// onConfirmKey: `y` sends exactly one request; anything else backs out
// and says nothing was sent. The confirmation is gone before the request
// leaves, so a second `y` finds nothing to confirm.
func (m Model) onConfirmKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	c, _ := m.confirm.Update(msg)
	m.confirm = nil
	if c.answer == answerNone { // the closing review's quantity was edited
		m.confirm = &c
		return m, nil
	}
	if c.answer != answerYes || m.t == nil || m.busy {
		if c.sends() {
			m.setMsg(msgWarn, "not sent")
		} else {
			m.setMsg(msgWarn, "not canceled")
		}
		return m, nil
	}
	if c.closing != nil {
		req, err := actions.CloseOrder(c.closing.pos, c.closing.qty)
		if err != nil { // nothing sent: the review stays, saying why
			cl := *c.closing
			cl.err = err.Error()
			c.closing, c.answer = &cl, answerNone
			m.confirm = &c
			return m, nil
		}
		c.contract = &req
	}
	m.reqID++
	m.busy = true
	switch {
	case c.cancelAll != nil:
		m.metrics.count("cancels_sent")
		m.cancelRun = newCancelRun(m.keys, m.reqID, len(c.cancelAll))
		m.setMsg(msgInfo, "cancelling "+itoaInt(len(c.cancelAll))+" open orders …")
		return m, m.cancelAllCmd(m.reqID, c.cancelAll)
	case c.contract != nil:
		m.form = nil
		m.metrics.count("orders_sent")
		m.setMsg(msgInfo, "sending "+contractSummary(c.contract)+" …")
		return m, m.contractPlaceCmd(m.reqID, *c.contract)
	}
	if c.place != nil {
		m.form = nil
		m.metrics.count("orders_sent")
		m.setMsg(msgInfo, "sending "+orderSummary(c.place)+" …")
		return m, m.placeCmd(m.reqID, *c.place)
	}
	m.metrics.count("cancels_sent")
	m.setMsg(msgInfo, "canceling "+c.summary+" …")
	return m, m.cancelCmd(m.reqID, *c.cancel)
}

// onFormKey hands the key to the order form, first taking a live price
// into the price field (b, a, l), then doing what the form asks: close,
// or validate and open the review.
func (m Model) onFormKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	f := *m.form // copy: the model is a value
	m.form = &f
	if p, what, ok := m.quotePrice(&f, msg.Text); ok {
		f.price, f.errs[fieldPrice], f.checked = p, "", false
		if p == "" {
			f.errs[fieldPrice] = "no " + what + " known for " + f.symbol().Symbol
		}
		return m, nil
	}
	f, cmd := f.Update(msg)
	switch f.want {
	case formClose:
		m.form = nil
		m.setMsg(msgWarn, "order form closed, nothing sent")
		return m, nil
	case formSubmit:
		return m.submitForm(&f), cmd
	}
	return m, cmd
}

// submitForm validates the form and, when it passes, opens the review.
func (m Model) submitForm(f *orderForm) Model {
	if f.contract {
		r := f.contractRequest()
		if rv, ok := f.validateContract(m.contractRef(r)); ok {
			m.ask(confirmation{contract: &r, review: rv})
		}
		return m
	}
	notional, ok := f.validate(m.snap)
	if !ok {
		return m
	}
	req := f.request()
	m.ask(confirmation{place: &req, notional: notional, quote: f.symbol().QuoteAsset})
	return m
}

// quotePrice is the live price a key takes into the price field: b the
// bid, a the ask, l the last (price "" when the market does not know it;
// what names it). ok is false for any other key or field, or without a
// market, where the key is typed as usual.
func (m *Model) quotePrice(f *orderForm, text string) (price, what string, ok bool) {
	if f.field != fieldPrice || !f.uses(fieldPrice) || !m.mk.live {
		return "", "", false
	}
	q := m.mk.snap.Quotes[f.symbol().Symbol]
	switch text {
	case "b":
		return q.Bid, "bid", true
	case "a":
		return q.Ask, "ask", true
	case "l":
		return q.Last, "last price", true
	}
	return "", "", false
}

// onFilterKey hands the key to the filter prompt and narrows the
// focused pane to what it holds.
func (m Model) onFilterKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.prompt.text = m.panes[m.focus].filter // a click may have moved the focus
	m.prompt, cmd = m.prompt.Update(msg)
	m.panes[m.focus].filter = m.prompt.text
	m.rebuild()
	return m, cmd
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] < 0x80 || s[i] >= 0xC0 {
			return rune(s[i]), len(s) - i
		}
	}
	return 0, 1
}

// onPaneKey handles the keys of the panes themselves.
func (m Model) onPaneKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.keys
	p := &m.panes[m.focus]
	page := max(1, m.lay.bodyRows(m.focus)-1)
	prev := m.msg
	m.msg = "" // a key that does something replaces the last message
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % numPanes
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + numPanes - 1) % numPanes
	case key.Matches(msg, k.Pane1):
		m.focus = paneBalances
	case key.Matches(msg, k.Pane2):
		m.focus = paneOrders
	case key.Matches(msg, k.Pane3):
		m.focus = panePositions
	case key.Matches(msg, k.Pane4):
		m.focus = paneEvents
	case key.Matches(msg, k.Pane5):
		m.focus = paneMarket
	case key.Matches(msg, k.Pane6):
		m.focus = paneFills
	case key.Matches(msg, k.Chart):
		m = m.openChart()
		m.drawShortHelp()
		m.rebuild()
		return m, m.loadCandles(true)
	case key.Matches(msg, k.Up):
		p.move(-1)
	case key.Matches(msg, k.Down):
		p.move(1)
	case key.Matches(msg, k.PageUp):
		p.move(-page)
	case key.Matches(msg, k.PageDown):
		p.move(page)
	case key.Matches(msg, k.Top):
		p.move(-len(p.rows))
	case key.Matches(msg, k.Bottom):
		p.move(len(p.rows))
	case key.Matches(msg, k.Filter):
		m.prompt = newFilterPrompt(m.keys, p.filter)
	case key.Matches(msg, k.Esc):
		p.filter = ""
	case key.Matches(msg, k.Sort):
		p.nextSort()
	case key.Matches(msg, k.Reverse):
		p.desc = !p.desc
	case key.Matches(msg, k.History):
		m.history = !m.history
		m.focus = paneOrders
		m.panes[paneOrders].cursor, m.panes[paneOrders].offset = 0, 0
	case key.Matches(msg, k.Zero):
		m.showZero = !m.showZero
	case key.Matches(msg, k.Privacy):
		m.privacy = !m.privacy
	case key.Matches(msg, k.Theme):
		m.theme = (m.theme + 1) % len(themes.Names())
		m.applyTheme()
		if m.noColor {
			m.setMsg(msgInfo, "NO_COLOR is set: theme "+themes.Names()[m.theme]+" applies without colour")
		} else {
			m.setMsg(msgInfo, "theme "+themes.Names()[m.theme])
		}
	case key.Matches(msg, k.Keepalive):
		m.setMsg(msgInfo, "keepalive…")
		return m, m.keepaliveCmd()
	case key.Matches(msg, k.Resync):
		m.setMsg(msgInfo, "resyncing…")
		return m, m.resyncCmd()
	case key.Matches(msg, k.New):
		return m.openForm()
	case key.Matches(msg, k.Cancel) && m.focus == panePositions:
		return m.askClose(), nil
	case key.Matches(msg, k.Cancel):
		return m.askCancel(), nil
	case key.Matches(msg, k.CancelAll):
		return m.askCancelAll(), nil
	default:
		m.msg = prev // a key that does nothing leaves the screen alone
		return m, nil
	}
	m.rebuild()
	return m, nil
}

// openForm opens the order form, loading the symbols the first time.
func (m Model) openForm() (tea.Model, tea.Cmd) {
	if m.t == nil {
		return m, nil
	}
	if m.busy {
		m.setMsg(msgWarn, "an order request is still in flight")
		return m, nil
	}
	f := &orderForm{field: fieldSymbol, keys: m.keys.formKeys()}
	if m.chart != nil {
		f.search = m.chart.symbol // preselect the charted symbol
		f.contract = m.mk.snap.Instruments[m.chart.symbol].Contract
	} else if it, ok := m.panes[m.focus].selected(); ok && it.pend == nil {
		f.search = m.selectedSymbol() // or the selected row's
		f.contract = it.pos != nil || (it.ord != nil && it.ord.Market == state.MarketContract) ||
			(it.fill != nil && it.fill.Market == state.MarketContract)
	}
	m.form = f
	if m.symbols == nil {
		f.loading = true
		m.reqID++
		return m, m.symbolsCmd(m.reqID)
	}
	f.setSymbols(m.symbols, m.contracts, m.contractsErr)
	return m, nil
}

// setSymbols fills the form's symbol list, keeping a preselected one.
func (f *orderForm) setSymbols(syms []rest.Symbol, contracts []rest.ContractSymbol, contractsErr string) {
	f.loading = false
	f.symbols = syms
	f.contracts, f.contractsErr = contracts, contractsErr
	want := f.search
	f.search = ""
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
}

// askCancel asks to cancel the selected open order.
func (m Model) askCancel() Model {
	if m.t == nil {
		return m
	}
	it, ok := m.panes[paneOrders].selected()
	switch {
	case m.focus != paneOrders || m.history || !ok:
		m.setMsg(msgWarn, "select an open order in Open Orders to cancel it")
		return m
	case it.ord == nil:
		m.setMsg(msgWarn, "that order has no order id yet")
		return m
	case m.busy:
		m.setMsg(msgWarn, "a request is still in flight")
		return m
	}
	o := it.ord
	req := rest.CancelRequest{Symbol: o.Symbol, OrderID: o.OrderID}
	if o.Market == state.MarketContract {
		req.Contract, req.OrderType = true, "LIMIT"
		if strings.Contains(o.Type, "STOP") {
			req.OrderType = "STOP"
		}
	}
	summary := "order " + o.OrderID + ": " + o.Side + " " + o.Quantity + " " + o.Symbol + " " + o.Type
	if o.Price != "" {
		summary += " @ " + o.Price
	}
	m.ask(confirmation{cancel: &req, summary: summary})
	return m
}
