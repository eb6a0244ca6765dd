package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"bhtop/upstream"
)

// headerLine is the top line: who and what we are connected to, the
// connection's state and the listenKey and socket ages (DESIGN.md, "What
// the header and status line always show").
func (m *Model) headerLine() string {
	if m.acc.all() {
		return m.allHeader()
	}
	long := m.headerText(false)
	if textWidth(ansiStrip(long)) <= m.lay.w {
		return fitStyled(long, m.lay.w)
	}
	return fitStyled(m.headerText(true), m.lay.w)
}

func (m *Model) headerText(short bool) string {
	s := &m.status
	var parts []string
	parts = append(parts, m.pt.header.wrap(" bhtop "))
	if n := m.accountName(); n != "" {
		parts = append(parts, m.pt.accent.wrap(n))
	}
	if s.Simulated {
		parts = append(parts, m.pt.badge.wrap(" SIMULATED "))
	} else if s.Host != "" {
		parts = append(parts, s.Host)
	}
	if s.ReadOnly || m.t == nil {
		parts = append(parts, m.pt.badge.wrap(" READ-ONLY "))
	}
	parts = append(parts, m.connState())
	if mkt := m.marketHeader(short); mkt != "" {
		parts = append(parts, mkt)
	}
	if s.State == upstream.StateReplay {
		return strings.Join(parts, " ") // no listenKey, no socket
	}
	if short {
		parts = append(parts, "key "+m.since(s.KeyCreated)+" ka in "+m.until(s.NextKeepalive))
	} else {
		parts = append(parts, " listenKey age "+m.since(s.KeyCreated)+", keepalive in "+m.until(s.NextKeepalive)+" ")
	}
	conn := "conn " + m.since(s.ConnectedAt)
	if !short {
		conn = "connection " + m.since(s.ConnectedAt)
	}
	if s.ConnMaxAge > 0 {
		conn += "/" + compactAge(s.ConnMaxAge)
	}
	parts = append(parts, conn)
	if m.privacy {
		parts = append(parts, m.pt.badge.wrap(" PRIVATE "))
	}
	return strings.Join(parts, " ")
}

// connState says the connection state and why, styled by severity.
func (m *Model) connState() string {
	s := &m.status
	switch s.State {
	case upstream.StateLive:
		return m.pt.good.wrap("● live")
	case upstream.StateReplay:
		return m.pt.good.wrap("▶ replay")
	case upstream.StateConnecting, "":
		t := "○ connecting"
		if s.Reason != "" {
			t += " (" + s.Reason + ")" // retrying after a failure: say which
		}
		return m.pt.warn.wrap(t)
	case upstream.StateResyncing:
		t := "↻ resyncing"
		if s.Reason != "" {
			// Open but without a snapshot: say why, and when it retries.
			if !s.RetryAt.IsZero() {
				t += " in " + m.until(s.RetryAt)
			}
			t += " (" + s.Reason + ")"
		}
		if s.NeedsAction {
			return m.pt.bad.wrap(t)
		}
		return m.pt.warn.wrap(t)
	case upstream.StateReconnecting:
		t := "↻ reconnecting"
		if !s.RetryAt.IsZero() {
			t += " in " + m.until(s.RetryAt)
		}
		if s.Reason != "" {
			t += " (" + s.Reason + ")"
		}
		return m.pt.warn.wrap(t)
	case upstream.StateClosed:
		t := "✕ closed"
		if s.Reason != "" {
			t += " (" + s.Reason + ")"
		}
		return m.pt.bad.wrap(t)
	}
	return string(s.State)
}

// statusLine is the bottom line: throughput, lag, clock offset, request
// weight, errors and how fresh the data is. Narrow screens get the short
// labels.
func (m *Model) statusLine() string {
	if m.acc.all() {
		return m.allStatus()
	}
	long := m.statusText(false)
	if textWidth(long) <= m.lay.w {
		return m.pt.status.wrap(fit(long, m.lay.w))
	}
	return m.pt.status.wrap(fit(m.statusText(true), m.lay.w))
}

func (m *Model) statusText(short bool) string {
	s := &m.status
	if s.State == upstream.StateReplay {
		return m.replayStatusText()
	}
	label := func(long, brief string) string {
		if short {
			return brief
		}
		return long
	}
	var b strings.Builder
	b.WriteString(" ")
	b.WriteString(strconv.FormatFloat(s.EventsPerSec, 'f', 1, 64)) // a display rate, not money
	b.WriteString(label(" ev/s  lag ", "ev/s lag "))
	if m.snap.LastEventTime > 0 {
		b.WriteString(shortDur(m.now.Sub(time.UnixMilli(m.snap.LastEventTime))))
	} else {
		b.WriteString("—")
	}
	b.WriteString(label("  offset ", " off "))
	b.WriteString(signedDur(s.ClockOffset))
	b.WriteString(label("  weight ", " wt "))
	b.WriteString(strconv.Itoa(s.WeightUsed))
	if s.WeightLimit > 0 {
		b.WriteString("/" + strconv.Itoa(s.WeightLimit))
	}
	if !s.BannedUntil.IsZero() && s.BannedUntil.After(m.now) {
		b.WriteString(" BANNED " + m.until(s.BannedUntil))
	}
	b.WriteString(label("  errors ", " err "))
	b.WriteString(strconv.Itoa(s.Errors))
	b.WriteString(label("  silent ", " silent "))
	b.WriteString(m.since(s.LastFrame))
	b.WriteString(label("  snapshot ", " snap "))
	switch {
	case s.LastSnapshot.IsZero():
		b.WriteString("—")
	case short:
		b.WriteString(m.since(s.LastSnapshot) + " ago")
	default:
		b.WriteString(s.LastSnapshot.Format("15:04:05"))
		b.WriteString(" (" + m.since(s.LastSnapshot) + " ago)")
	}
	if s.LastError != "" {
		b.WriteString(label("  last error: ", " "))
		b.WriteString(s.LastError)
	}
	return b.String()
}

// messageLine shows the last outcome, the filter prompt or the short help
// (none while a dialog has the keyboard: it says its own keys).
func (m *Model) messageLine() string {
	if m.msg != "" {
		text := m.msg
		if m.privacy {
			text = maskNumbers(text)
		}
		p := m.pt.accent
		switch m.msgKind {
		case msgGood:
			p = m.pt.good
		case msgWarn:
			p = m.pt.warn
		case msgBad:
			p = m.pt.bad
		}
		return p.wrap(fit(" "+text, m.lay.w))
	}
	if m.prompt.on {
		return fit(" "+m.prompt.View(), m.lay.w)
	}
	if m.mode().dialog() {
		return m.noHelp
	}
	return m.shortHelp
}

// since is the compact age of t, or "—" before it happened.
func (m *Model) since(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return twoUnitAge(m.now.Sub(t))
}

// until is the compact time left to t, or "—" when unknown.
func (m *Model) until(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return twoUnitAge(t.Sub(m.now))
}

// shortDur shows small durations in ms and larger ones in s/m/h.
func shortDur(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	if d < 10*time.Second {
		return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
	}
	return twoUnitAge(d)
}

func signedDur(d time.Duration) string {
	if d > -time.Millisecond && d < time.Millisecond {
		return "±0ms"
	}
	if d < 0 {
		return "-" + shortDur(-d)
	}
	return "+" + shortDur(d)
}

func ansiStrip(s string) string { return ansi.Strip(s) }

// replayStatusText is the status line of a journal being replayed: what
// the fold has counted, and the time of the newest event (its E).
func (m *Model) replayStatusText() string {
	st := m.snap.Stats
	text := fmt.Sprintf(" events %d  applied %d  stale %d  malformed %d  unknown type %d",
		st.Events, st.Applied, st.Stale, st.Malformed, st.UnknownType)
	if m.snap.LastEventTime > 0 {
		text += "  newest event " + time.UnixMilli(m.snap.LastEventTime).UTC().Format("2006-01-02 15:04:05 UTC")
	}
	return text
}
