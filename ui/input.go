package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

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

func (m Model) quit() (tea.Model, tea.Cmd) {
	m.cancel()
	return m, tea.Quit
}

// readOnlyNotice is what n, x and X say in read-only mode, where they
// send nothing.
const readOnlyNotice = "read-only: orders are not sent"

// onPaneKey handles the keys of the panes themselves.
func (m Model) onPaneKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := &m.keys
	p := &m.panes[m.focus]
	page := max(1, m.lay.bodyRows(m.focus)-1)
	prev := m.msg
	m.msg = "" // a key that does something replaces the last message
	id, isPane := k.paneOf(msg)
	switch {
	case key.Matches(msg, k.Quit):
		return m.quit()
	case key.Matches(msg, k.Help):
		m.showHelp, m.helpTop = true, 0
	case key.Matches(msg, k.NextPane):
		m.focus = (m.focus + 1) % numPanes
	case key.Matches(msg, k.PrevPane):
		m.focus = (m.focus + numPanes - 1) % numPanes
	case isPane:
		m.focus = id
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
		return m.askUpstream(opKeepalive, "keepalive", "keepalive…", m.keepaliveCmd)
	case key.Matches(msg, k.Resync):
		return m.askUpstream(opResync, "resync", "resyncing…", m.resyncCmd)
	case key.Matches(msg, k.New):
		return m.openForm()
	case key.Matches(msg, k.Cancel) && m.focus == panePositions:
		return m.askClose(), nil
	case key.Matches(msg, k.Cancel):
		return m.askCancel(), nil
	case key.Matches(msg, k.CancelAll):
		return m.askCancelAll(), nil
	case m.t == nil && k.isOrderKey(msg):
		m.setMsg(msgInfo, readOnlyNotice) // n, x, X: say why nothing happens
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
		f.pre = m.chart.symbol // preselect the charted symbol
		f.contract = m.mk.snap.Instruments[m.chart.symbol].Contract
	} else if it, ok := m.panes[m.focus].selected(); ok && it.pend == nil {
		f.pre = m.selectedSymbol() // or the selected row's
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

// askCancel asks to cancel the selected open order.
func (m Model) askCancel() Model {
	if m.t == nil {
		return m
	}
	it, ok := m.panes[paneOrders].selected()
	switch {
	case m.focus != paneOrders || m.history || !ok:
		return m.warned("select an open order in Open Orders to cancel it")
	case it.pend != nil && it.pend.Status == state.PendingNotPlaced:
		return m.warned("that order was not placed: nothing to cancel")
	case it.ord == nil:
		return m.warned("that order has no order id yet")
	case m.busy:
		return m.warned("a request is still in flight")
	}
	o := it.ord
	req := rest.CancelRequest{Symbol: o.Symbol, OrderID: o.OrderID}
	if o.Market == state.MarketContract {
		req.Contract, req.OrderType = true, "LIMIT"
		if strings.Contains(o.Type, "STOP") {
			req.OrderType = "STOP"
		}
	}
	summary := "order " + o.OrderID + ": " + orderSide(o) + " " + o.Quantity + " " + o.Symbol + " " + o.Type + part(" @ ", o.Price, "")
	m.ask(confirmation{cancel: &req, summary: summary})
	return m
}

// askUpstream sends the upstream request op (K, r) made by cmd, saying
// busy while it runs, unless it was asked too recently for this account
// (upkeys): then it says why and sends nothing.
func (m Model) askUpstream(op upstreamOp, name, busy string, cmd func() tea.Cmd) (tea.Model, tea.Cmd) {
	if why := m.upkeys.take(m.b, op, m.nowFn()); why != "" {
		m.setMsg(msgInfo, name+" "+why)
		return m, nil
	}
	m.setMsg(msgInfo, busy)
	return m, cmd()
}
