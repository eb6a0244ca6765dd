package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/actions"
)

// cancelRunState is a running (or finished) cancel-all: its progress, and
// at the end the summary, shown until a key closes it. It is a sub-model:
// while shown it has the keyboard (Update) and covers the panes (View).
type cancelRunState struct {
	keys   progressKeys
	id     int
	sum    actions.Summary
	done   bool
	hidden bool // esc hid the progress: the keys are the panes' until the summary
	closed bool // a key closed the summary
	quit   bool // q asked to quit, which stops the cancels
}

// progressKeys are the keys of a running cancel-all.
type progressKeys struct {
	Hide, Quit key.Binding
}

// newCancelRun starts showing the progress of a cancel-all of total
// orders whose replies carry id.
func newCancelRun(k KeyMap, id, total int) *cancelRunState {
	return &cancelRunState{keys: progressKeys{Hide: k.Esc, Quit: k.Quit}, id: id, sum: actions.Summary{Total: total}}
}

// Update: any key closes the summary; while the cancels run, esc hides
// the progress and q quits.
func (r cancelRunState) Update(msg tea.Msg) (cancelRunState, tea.Cmd) {
	return keysOnly(r, msg, cancelRunState.onKey)
}

func (r cancelRunState) onKey(k tea.KeyPressMsg) cancelRunState {
	switch {
	case r.done:
		r.closed = true
	case key.Matches(k, r.keys.Quit):
		r.quit = true
	case key.Matches(k, r.keys.Hide):
		r.hidden = true
	}
	return r
}

// alarming reports whether the summary is drawn in the loud box: some
// cancels failed or their outcome is unknown.
func (r cancelRunState) alarming() bool {
	return r.done && (r.sum.Failed > 0 || r.sum.Unknown > 0)
}

// View is the cancel-all's progress, then its summary, boxed: loud when
// some cancels failed or their outcome is unknown.
func (r cancelRunState) View(cx modeCtx) string {
	box := cx.st.Box
	if r.alarming() {
		box = cx.st.Confirm
	}
	return cx.boxed(box, r.text())
}

// text is the progress or the summary: the counts, the first errors and
// the keys.
func (r cancelRunState) text() string {
	s := r.sum
	title := "CANCELLING… " + strconv.Itoa(s.Done()) + " of " + strconv.Itoa(s.Total)
	if r.done {
		title = "CANCEL-ALL DONE: " + orderCount(s.Total)
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
		lines = append(lines, "", r.keys.Hide.Help().Key+" hide (the cancels go on) · "+
			r.keys.Quit.Help().Key+" quit (stops them)")
	}
	return strings.Join(lines, "\n")
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

// orderCount is "1 order" or "N orders".
func orderCount(n int) string {
	if n == 1 {
		return "1 order"
	}
	return strconv.Itoa(n) + " orders"
}
