package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/upstream"
)

// The start of a dashboard: it runs before its account is live, and on a
// service that answers at once (the local simulator) the account goes
// live a few milliseconds after the first frame. Two rules keep the first
// live frame from waiting behind a "connecting" one:
//
//   - while the account shown is connecting or taking its snapshot
//     (starting), state notices are taken at once, not one frame apart:
//     the stream holds its frames meanwhile, so the notices are few, and
//     the next one is the live state;
//   - with WithStartWait, the dashboard draws nothing (an empty View, which
//     the painter does not count as a frame) until the account shown is
//     first past starting or the wait is over, so the first frame drawn is
//     the live account where the service is fast, and "connecting" where
//     it is slow;
//   - keys typed meanwhile act on what the user will see, not on a state
//     not drawn yet (X finding no orders a moment before they show): they
//     are held, up to maxHeldKeys, and pressed in order once the first
//     frame is drawn; q and ctrl+c quit at once. A held key that opens a
//     question (a review) is the last pressed: the keys after it are
//     dropped, so only a key typed once the review is drawn answers it.

// WithStartWait draws nothing for up to d after the start while the
// account shown is still starting (see starting); 0 (the default) draws
// "connecting" at once.
func WithStartWait(d time.Duration) Option {
	return func(m *Model) { m.startWait, m.holding = d, d > 0 }
}

// maxHeldKeys is how many keys typed during the start wait are kept;
// later ones are dropped.
const maxHeldKeys = 32

// holdKey keeps a key typed during the start wait, and reports whether it
// did: not q or ctrl+c, which quit at once.
func (m *Model) holdKey(msg tea.KeyPressMsg) bool {
	if !m.holding || msg.String() == "ctrl+c" || key.Matches(msg, m.keys.Quit) {
		return false
	}
	if len(m.heldKeys) < maxHeldKeys {
		m.heldKeys = append(m.heldKeys, msg)
	}
	return true
}

// pressHeld presses the keys held during the start wait in mm (an
// Update's outcome, cmd its command), once the wait is over.
func pressHeld(mm tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	m := mm.(Model)
	if m.holding || len(m.heldKeys) == 0 {
		return m, cmd
	}
	keys := m.heldKeys
	m.heldKeys = nil
	cmds := []tea.Cmd{cmd}
	for _, k := range keys {
		mm, c := m.followForm(m.onKey(k)) // counted in the metrics when typed
		m = mm.(Model)
		cmds = append(cmds, c)
		if m.confirm != nil {
			break // the review waits for a key typed once it is seen
		}
	}
	return m, tea.Batch(cmds...)
}

// startWaitMsg ends the start wait.
type startWaitMsg struct{}

// startWaitCmd ends the start wait after it is over; nil without one.
func (m Model) startWaitCmd() tea.Cmd {
	if !m.holding {
		return nil
	}
	return tea.Tick(m.startWait, func(time.Time) tea.Msg { return startWaitMsg{} })
}

// starting reports whether st is the state before a connection's first
// snapshot, with no failure to tell: connecting or resyncing, no reason.
func starting(st upstream.Status) bool {
	switch st.State {
	case "", upstream.StateConnecting, upstream.StateResyncing:
		return st.Reason == ""
	}
	return false
}

// endHold draws from now on once the account shown is past starting.
func (m *Model) endHold() {
	if m.holding && !starting(m.status) {
		m.holding = false
	}
}

// nextNotice is when the next state notice may be taken: a frame from
// now, or at once while the account is starting.
func (m *Model) nextNotice() time.Time {
	if starting(m.status) {
		return time.Time{}
	}
	return time.Now().Add(m.frame)
}
