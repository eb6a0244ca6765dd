package ui

import (
	"context"
	"sort"
	"strconv"
	"strings"

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
}

// cancelRunState is a running (or finished) cancel-all: its progress, and
// at the end the summary, shown until a key closes it.
type cancelRunState struct {
	id     int
	sum    actions.Summary
	done   bool
	hidden bool // esc hid the progress: the keys are the panes' until the summary
}

// askClose opens the review of the selected position's closing order for
// its whole available quantity.
func (m Model) askClose() Model {
	it, ok := m.panes[panePositions].selected()
	switch {
	case !ok || it.pos == nil:
		m.setMsg(msgWarn, "select a position in Positions to close it")
		return m
	case m.busy:
		m.setMsg(msgWarn, "a request is still in flight")
		return m
	}
	if _, err := actions.CloseOrder(*it.pos, ""); err != nil {
		m.setMsg(msgWarn, "cannot close: "+err.Error())
		return m
	}
	m.confirm = &confirmation{closing: &closeReview{pos: *it.pos, qty: it.pos.Available}}
	return m
}

// askCancelAll opens the review of cancelling every open order the pane
// shows (after its filter); pending rows have no order id and are left.
func (m Model) askCancelAll() Model {
	switch {
	case m.focus != paneOrders || m.history:
		m.setMsg(msgWarn, "X cancels the open orders shown in Open Orders (key 2)")
		return m
	case m.busy:
		m.setMsg(msgWarn, "a request is still in flight")
		return m
	}
	rows := m.panes[paneOrders].rows
	targets := make([]actions.Target, 0, len(rows))
	for i := range rows {
		if o := rows[i].ord; o != nil && o.Open() {
			targets = append(targets, actions.TargetOf(*o))
		}
	}
	if len(targets) == 0 {
		m.setMsg(msgWarn, "no open orders shown to cancel")
		return m
	}
	m.confirm = &confirmation{cancelAll: targets}
	return m
}

// edit edits the closing review's quantity; it is false for a key
// that is not an edit.
func (c *closeReview) edit(msg tea.KeyPressMsg) bool {
	switch {
	case msg.String() == "backspace":
		if c.qty != "" {
			c.qty = c.qty[:len(c.qty)-1]
		}
	case len(msg.Text) == 1 && (msg.Text[0] >= '0' && msg.Text[0] <= '9' || msg.Text[0] == '.'):
		c.qty, c.err = appendAmount(c.qty, msg.Text)
		return true
	default:
		return false
	}
	c.err = amountSyntax(c.qty)
	return true
}

// closeView is the closing review.
func (m *Model) closeView() string {
	c := m.confirm.closing
	p := c.pos
	lines := []string{"CLOSE THIS POSITION?", "",
		p.Symbol + " " + p.Side + "  total " + p.Total + "  available " + p.Available + "  avg " + p.AvgPrice}
	req, err := actions.CloseOrder(p, c.qty)
	switch {
	case c.err != "":
		lines = append(lines, "quantity ["+c.qty+"_]  ! "+c.err)
	case err != nil:
		lines = append(lines, "quantity ["+c.qty+"_]  ! "+err.Error())
	default:
		lines = append(lines, "quantity ["+c.qty+"_]", contractSummary(&req)+" (best opposite price)")
	}
	lines = append(lines, "", "type to change the quantity", "y = yes, send    any other key = no")
	return m.boxed(m.st.Confirm, strings.Join(lines, "\n"))
}

// cancelAllView is the cancel-all review: how many orders per symbol.
func (m *Model) cancelAllView() string {
	ts := m.confirm.cancelAll
	counts := actions.CountBySymbol(ts)
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	lines := []string{"CANCEL " + strconv.Itoa(len(ts)) + " OPEN ORDERS?", ""}
	room := max(1, m.lay.body.h-8)
	for i, k := range keys {
		if i == room-1 && len(keys) > room {
			lines = append(lines, "… and "+strconv.Itoa(len(keys)-i)+" more symbols")
			break
		}
		lines = append(lines, padLeft(strconv.Itoa(counts[k]), 5)+"  "+k)
	}
	lines = append(lines, "", "y = yes, cancel them    any other key = no")
	return m.boxed(m.st.Confirm, strings.Join(lines, "\n"))
}

// cancelRunView is the cancel-all's progress, then its summary.
func (m *Model) cancelRunView() string {
	r := m.cancelRun
	s := r.sum
	title := "CANCELLING… " + strconv.Itoa(s.Done()) + " of " + strconv.Itoa(s.Total)
	if r.done {
		title = "CANCEL-ALL DONE: " + strconv.Itoa(s.Total) + " orders"
	}
	lines := []string{title, "",
		padLeft(strconv.Itoa(s.Cancelled), 5) + "  cancelled",
		padLeft(strconv.Itoa(s.AlreadyClosed), 5) + "  already closed",
		padLeft(strconv.Itoa(s.Failed), 5) + "  failed"}
	if s.Unknown > 0 {
		lines = append(lines, padLeft(strconv.Itoa(s.Unknown), 5)+"  outcome unknown")
	}
	for i, e := range s.Errors {
		if i == 3 {
			lines = append(lines, "… "+strconv.Itoa(len(s.Errors)-i)+" more")
			break
		}
		lines = append(lines, "! "+e)
	}
	if r.done {
		lines = append(lines, "", "any key closes")
	} else {
		lines = append(lines, "", "esc hide (the cancels go on) · q quit (stops them)")
	}
	box := m.st.Box
	if r.done && (s.Failed > 0 || s.Unknown > 0) {
		box = m.st.Confirm
	}
	return m.boxed(box, strings.Join(lines, "\n"))
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
