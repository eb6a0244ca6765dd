package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// The dashboard's trading actions beyond one order: closing a position
// (x on the positions pane) and cancelling every open order shown (X).
// Each asks first; `y` sends once.

// closeReview is the review of a position's closing order: its quantity
// is editable (digits, point, backspace) before `y`.
type closeReview struct {
	pos state.Position
	qty string
	err string
	// masked: qty is the prefilled available quantity shown as •••
	// (privacy mode): the first edit replaces it, so what is typed
	// never shows the hidden quantity before it.
	masked bool
}

// askClose opens the review of the selected position's closing order for
// its whole available quantity.
func (m Model) askClose() Model {
	it, ok := m.panes[panePositions].selected()
	switch {
	case !ok || it.pos == nil:
		return m.warned("select a position in Positions to close it")
	case m.busy:
		return m.warned("a request is still in flight")
	}
	if _, err := actions.CloseOrder(*it.pos, ""); err != nil {
		return m.warned("cannot close: " + err.Error())
	}
	m.ask(confirmation{closing: &closeReview{pos: *it.pos, qty: it.pos.Available, masked: m.privacy}})
	return m
}

// closeNow re-reads the reviewed position in the snapshot shown and
// builds its closing order. When its available quantity changed since
// the review opened, or it is gone, or the quantity is refused, nothing
// is to be sent: cl then shows the position as it is now (with its whole
// available quantity if the one shown was not edited) and why.
func (m *Model) closeNow(cl *closeReview) (rest.ContractOrderRequest, error) {
	p, err := actions.FindPosition(m.snap.Positions, cl.pos.Symbol, cl.pos.Side)
	if err == nil && p.Available != cl.pos.Available { // what the order depends on
		if cl.qty == cl.pos.Available {
			cl.qty = p.Available
		}
		err = fmt.Errorf("the position changed: available now %s (was %s); check the quantity", p.Available, cl.pos.Available)
		cl.pos = p
	}
	var req rest.ContractOrderRequest
	if err == nil {
		req, err = cl.order(p)
	}
	if err != nil {
		cl.err = err.Error()
	}
	return req, err
}

// askCancelAll opens the review of cancelling every open order the pane
// shows (after its filter); pending rows have no order id and are left.
func (m Model) askCancelAll() Model {
	switch {
	case m.focus != paneOrders || m.history:
		return m.warned("X cancels the open orders shown in Open Orders (key 2)")
	case m.busy:
		return m.warned("a request is still in flight")
	}
	rows := m.panes[paneOrders].rows
	targets := make([]actions.Target, 0, len(rows))
	for i := range rows {
		if o := rows[i].ord; o != nil && o.Open() {
			targets = append(targets, actions.TargetOf(*o))
		}
	}
	if len(targets) == 0 {
		return m.warned("no open orders shown to cancel")
	}
	m.ask(confirmation{cancelAll: cancelAllReview(targets)})
	return m
}

// edit edits the closing review's quantity; it is false for a key
// that is not an edit.
func (c *closeReview) edit(msg tea.KeyPressMsg, erase key.Binding) bool {
	digit := len(msg.Text) == 1 && (msg.Text[0] >= '0' && msg.Text[0] <= '9' || msg.Text[0] == '.')
	if c.masked && (digit || key.Matches(msg, erase)) {
		c.qty, c.masked = "", false
		if !digit {
			c.err = ""
			return true
		}
	}
	switch {
	case key.Matches(msg, erase):
		if c.qty != "" {
			c.qty = c.qty[:len(c.qty)-1]
		}
	case digit:
		c.qty, c.err = appendAmount(c.qty, msg.Text)
		return true
	default:
		return false
	}
	c.err = amountSyntax(c.qty)
	return true
}

// errNoCloseQty: the closing review's quantity was erased.
var errNoCloseQty = errors.New("type the quantity to close")

// order is the closing order of p for the review's quantity. An erased
// quantity is refused: actions.CloseOrder takes "" for the whole
// available quantity, which the trader did not ask for here.
func (c closeReview) order(p state.Position) (rest.ContractOrderRequest, error) {
	if c.qty == "" {
		return rest.ContractOrderRequest{}, errNoCloseQty
	}
	if e := amountWhole(c.qty); e != "" {
		return rest.ContractOrderRequest{}, errors.New("quantity: " + e)
	}
	return actions.CloseOrder(p, c.qty)
}

// View is the closing review: the position, the quantity being edited
// and the order it makes (or why it cannot). In privacy mode the
// position's quantities are masked, and so is the quantity while it is
// the prefilled available one (a typed one is the trader's own).
func (c closeReview) View(privacy bool) string {
	p := c.pos
	total, avail, qty := p.Total, p.Available, c.qty
	mask := func(s string) string { return s }
	if privacy {
		total, avail, mask = hidden, hidden, maskNumbers
		if qty == p.Available {
			qty = hidden
		}
	}
	lines := []string{"CLOSE THIS POSITION?", "",
		p.Symbol + " " + p.Side + "  total " + total + "  available " + avail + "  avg " + p.AvgPrice}
	req, err := c.order(p)
	switch {
	case c.err != "":
		lines = append(lines, "quantity ["+qty+"_]  ! "+mask(c.err))
	case err != nil:
		lines = append(lines, "quantity ["+qty+"_]  ! "+mask(err.Error()))
	default:
		req.Quantity = qty
		lines = append(lines, "quantity ["+qty+"_]", contractSummary(&req)+" (best opposite price)")
	}
	lines = append(lines, "", closeHint, answerSend)
	return strings.Join(lines, "\n")
}

// cancelAllReview is the orders a cancel-all would cancel, asked about
// before any is (the confirmation's cancelAll).
type cancelAllReview []actions.Target

// View is the cancel-all review: how many orders per symbol, at most
// room lines of them.
func (r cancelAllReview) View(room int) string {
	counts := actions.CountBySymbol(r)
	keys := slices.Sorted(maps.Keys(counts))
	lines := []string{"CANCEL " + strings.ToUpper(strings.Replace(orderCount(len(r)), " ", " open ", 1)) + "?", ""}
	for i, k := range keys {
		if i == room-1 && len(keys) > room {
			if i == 0 { // no symbol above to be "more" than
				lines = append(lines, "on "+strconv.Itoa(len(keys))+" symbols")
			} else {
				lines = append(lines, "… and "+strconv.Itoa(len(keys)-i)+" more symbols")
			}
			break
		}
		lines = append(lines, padLeft(strconv.Itoa(counts[k]), 5)+"  "+k)
	}
	lines = append(lines, "", answerCancel)
	return strings.Join(lines, "\n")
}

func padLeft(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}

// cancelAllMsg is the progress (done false) or the end of a cancel-all.
type cancelAllMsg struct {
	id   int
	sum  actions.Summary
	done bool
	run  *cancelFeed
}

// cancelFeed carries a running cancel-all's progress to the model: the
// newest progress wins, and done gets the final summary.
type cancelFeed struct {
	id       int
	progress chan actions.Summary
	done     chan actions.Summary
}

// next waits for the next progress or the end.
func (f *cancelFeed) next() tea.Msg {
	select {
	case s := <-f.done:
		return cancelAllMsg{id: f.id, sum: s, done: true}
	case s := <-f.progress:
		return cancelAllMsg{id: f.id, sum: s, run: f}
	}
}

// cancelAllCmd runs the cancel-all off the update loop, once.
func (m Model) cancelAllCmd(id int, targets []actions.Target) tea.Cmd {
	t, ctx := m.t, m.ctx
	feed := &cancelFeed{id: id, progress: make(chan actions.Summary, 1), done: make(chan actions.Summary, 1)}
	return func() tea.Msg {
		go func() {
			sum := t.CancelAll(ctx, targets, func(s actions.Summary) {
				s.Errors = append([]string(nil), s.Errors...)
				select { // the newest progress wins
				case <-feed.progress:
				default:
				}
				feed.progress <- s
			})
			feed.done <- sum
		}()
		return feed.next()
	}
}

// onCancelAll shows a cancel-all's progress and, at the end, its summary.
func (m Model) onCancelAll(msg cancelAllMsg) (tea.Model, tea.Cmd) {
	if m.cancelRun == nil || msg.id != m.cancelRun.id {
		return m, nil
	}
	r := *m.cancelRun
	m.cancelRun = &r
	r.sum = msg.sum
	if !msg.done {
		if r.hidden {
			m.setMsg(msgInfo, cancelProgressText(r.sum))
		}
		return m, msg.run.next
	}
	r.done, r.hidden = true, false // the summary shows, hidden or not
	m.busy = false
	s := msg.sum
	text := "cancel-all: " + strconv.Itoa(s.Cancelled) + " cancelled, " + strconv.Itoa(s.AlreadyClosed) +
		" already closed, " + strconv.Itoa(s.Failed) + " failed"
	if s.Unknown > 0 {
		text += ", " + strconv.Itoa(s.Unknown) + " unknown"
	}
	kind := msgGood
	if s.Failed > 0 || s.Unknown > 0 {
		kind = msgBad
	}
	m.setMsg(kind, text)
	return m, nil
}

// cancelProgressText is the message line while a hidden cancel-all runs.
func cancelProgressText(s actions.Summary) string {
	return "cancelling… " + strconv.Itoa(s.Done()) + " of " + strconv.Itoa(s.Total) + " (the summary shows at the end)"
}

// contractPlaceCmd sends one contract order.
func (m Model) contractPlaceCmd(id int, req rest.ContractOrderRequest) tea.Cmd {
	t := m.t
	return m.request(func(ctx context.Context) tea.Msg {
		return placedMsg{id: id, what: contractSummary(&req), res: t.PlaceContractOrder(ctx, req)}
	})
}
