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
// the header and status line always show"). When the long form does not
// fit, the short one; then what that list does not name gives way first
// (the title, the equity's change, most of the account name, then the
// name down to its first letters if that keeps the equity, the equity,
// the reason there is no market data), then the items it names shrink (the reason of the
// state, the badges' padding), then the account name goes (only when the
// line then fits), the host is cut short, and last the market part goes. Below headerOneLineWidth it
// is two lines (layout), the ages and the privacy badge on the second.
func (m *Model) headerLine() string {
	if m.acc.all() {
		return m.allHeader()
	}
	w := m.lay.w
	if m.lay.body.y > 1 {
		// Two lines (a narrow screen): the ages and the privacy badge go
		// on the second.
		h := m.headerParts(true)
		ages := header{key: h.key, conn: h.conn, private: h.private}
		h.key, h.conn, h.private = "", "", ""
		return m.fitHeader(h) + "\n" + fitStyled(" "+ages.join(), w)
	}
	if long := m.headerText(false); ansi.StringWidth(long) <= w {
		return fitStyled(long, w)
	}
	return m.fitHeader(m.headerParts(true))
}

// fitHeader is h on one line of the screen's width, its parts giving way
// as headerLine says.
func (m *Model) fitHeader(h header) string {
	w := m.lay.w
	s := &m.status
	over := func() int { return ansi.StringWidth(h.join()) - w }
	name := h.name
	mp, mt := m.marketWarning()
	steps := []func(){
		func() { h.title = "" },
		func() {
			if mt == "" && h.market != "" {
				h.market = m.equityPart("eq ") // without its change since start
			}
		},
		func() {
			// Most of the account name, cut with "…", before the equity.
			if name != "" {
				h.name = ansi.Truncate(name, max(ansi.StringWidth(name)-over(), min(ansi.StringWidth(name), 8)), "…")
			}
		},
		func() {
			if mt != "" {
				return // a warning stays
			}
			// The name cut to its first letters keeps the equity, if
			// that makes the line fit.
			if name != "" {
				try := h
				try.name = ansi.Truncate(name, max(ansi.StringWidth(h.name)-over(), min(ansi.StringWidth(name), 4)), "…")
				if ansi.StringWidth(try.join()) <= w {
					h = try
					return
				}
			}
			h.market = ""                 // the equity
			if name != "" && over() < 0 { // the name takes back the room it gave
				h.name = ansi.Truncate(name, ansi.StringWidth(h.name)-over(), "…")
			}
		},
		func() {
			if mt != "" {
				h.market = mp.wrap(cutWhy(mt, over()))
			}
		},
		func() {
			p, t := m.connStateParts()
			h.state = p.wrap(cutWhy(t, over()))
		},
		func() {
			if s.Simulated {
				h.where = m.pt.badge.wrap("SIMULATED")
			}
			if h.readOnly != "" {
				h.readOnly = m.pt.badge.wrap("READ-ONLY")
			}
		},
	}
	for _, give := range steps {
		if over() <= 0 {
			break
		}
		give()
	}
	if over() > 0 {
		// The account name goes only when that makes the line fit: on a
		// line too narrow for the ages whatever gives way (40 columns,
		// one line), it says which account the keys act on, worth more
		// than more of an age cut with "…".
		without := h
		without.name = ""
		m.fitHeaderTail(&without)
		if ansi.StringWidth(without.join()) <= w {
			return fitStyled(without.join(), w)
		}
		m.fitHeaderTail(&h)
	}
	return fitStyled(h.join(), w)
}

// fitHeaderTail is fitHeader's last resorts: the host cut short, then the
// market part gone.
func (m *Model) fitHeaderTail(h *header) {
	s := &m.status
	over := func() int { return ansi.StringWidth(h.join()) - m.lay.w }
	if over() > 0 && !s.Simulated && s.Host != "" {
		h.where = ansi.Truncate(s.Host, max(textWidth(s.Host)-over(), 8), "…")
	}
	if over() > 0 {
		h.market = ""
	}
}

// cutWhy shortens "what (why)" by over cells, cutting the why; at least
// "what (…" is kept, else what alone.
func cutWhy(t string, over int) string {
	what, _, why := strings.Cut(t, " (")
	if !why {
		return t
	}
	keep := textWidth(t) - over
	if keep < textWidth(what)+3 {
		return what
	}
	return ansi.Truncate(t, keep, "…")
}

// headerText is the header in its long or short form, every part shown.
func (m *Model) headerText(short bool) string { return m.headerParts(short).join() }

// header is the top line's parts, styled; "" when not shown.
type header struct {
	title, name, where, readOnly, state, market, key, conn, private string
}

// join is the parts shown, in order, one space apart.
func (h header) join() string {
	parts := make([]string, 0, 9)
	for _, p := range []string{h.title, h.name, h.where, h.readOnly, h.state, h.market, h.key, h.conn, h.private} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, " ")
}

func (m *Model) headerParts(short bool) header {
	s := &m.status
	h := header{title: m.pt.header.wrap(" bhtop "), state: m.connState(), market: m.marketHeader(short)}
	if n := m.accountName(); n != "" {
		h.name = m.pt.accent.wrap(n)
	}
	if s.Simulated {
		h.where = m.pt.badge.wrap(" SIMULATED ")
	} else if s.Host != "" {
		h.where = s.Host
	}
	if s.ReadOnly || m.t == nil {
		h.readOnly = m.pt.badge.wrap(" READ-ONLY ")
	}
	if s.State == upstream.StateReplay {
		return h // no listenKey, no socket
	}
	if short {
		h.key = "key " + m.since(s.KeyCreated) + " ka in " + m.until(s.NextKeepalive)
	} else {
		h.key = " listenKey age " + m.since(s.KeyCreated) + ", keepalive in " + m.until(s.NextKeepalive) + " "
	}
	h.conn = "conn " + m.since(s.ConnectedAt)
	if !short {
		h.conn = "connection " + m.since(s.ConnectedAt)
	}
	if s.ConnMaxAge > 0 {
		h.conn += "/" + compactAge(s.ConnMaxAge)
	}
	if m.privacy {
		h.private = m.pt.badge.wrap(" PRIVATE ")
	}
	return h
}

// connState says the connection state and why, styled by severity.
func (m *Model) connState() string {
	p, t := m.connStateParts()
	return p.wrap(t)
}

// connStateParts is connState's text and its paint.
func (m *Model) connStateParts() (paint, string) {
	s := &m.status
	switch s.State {
	case upstream.StateLive:
		if s.Reason != "" {
			// A new connection replaces one that still folds events.
			return m.pt.good, "● live (" + s.Reason + ")"
		}
		return m.pt.good, "● live"
	case upstream.StateReplay:
		switch s.Reason {
		case "":
			return m.pt.good, "▶ replay"
		case upstream.ReplayEnded:
			return m.pt.good, "■ replay ended"
		}
		return m.pt.bad, "✕ replay stopped (" + s.Reason + ")"
	case upstream.StateConnecting, "":
		t := "○ connecting"
		if s.Reason != "" {
			t += " (" + s.Reason + ")" // retrying after a failure: say which
		}
		return m.pt.warn, t
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
			return m.pt.bad, t
		}
		return m.pt.warn, t
	case upstream.StateReconnecting:
		t := "↻ reconnecting"
		if !s.RetryAt.IsZero() {
			t += " in " + m.until(s.RetryAt)
		}
		if s.Reason != "" {
			t += " (" + s.Reason + ")"
		}
		return m.pt.warn, t
	case upstream.StateClosed:
		t := "✕ closed"
		if s.Reason != "" {
			t += " (" + s.Reason + ")"
		}
		return m.pt.bad, t
	}
	return paint{}, string(s.State)
}

// maxMessageLines is how many lines a long message takes at most: the
// message line and the body's last lines above it.
const maxMessageLines = 3

// messageLines are the message line and, when the last outcome (an
// alert's toast, a rejection and its reason) is too long for it, the
// lines above it that it goes on (layout draws them over the body's
// last lines): whole words, up to maxMessageLines, the last cut with
// "…" only beyond that.
func (m *Model) messageLines() []string {
	if m.msg == "" {
		return []string{m.messageLine()}
	}
	text := " " + m.msg
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
	w := m.lay.w
	if textWidth(text) <= w {
		return []string{p.wrap(fit(text, w))}
	}
	lines := wrapWords(text, w-1)
	for i := 1; i < len(lines); i++ {
		lines[i] = " " + strings.TrimLeft(lines[i], " ")
	}
	if n := min(maxMessageLines, max(1, m.lay.body.h)); len(lines) > n {
		lines[n-1] = strings.Join(lines[n-1:], " ")
		lines = lines[:n]
	}
	for i, l := range lines {
		lines[i] = p.wrap(fit(l, w))
	}
	return lines
}

// messageLine shows the last outcome, the filter prompt or the short help
// (none while a dialog has the keyboard: it says its own keys); a long
// outcome is cut (messageLines wraps it).
func (m *Model) messageLine() string {
	if m.msg != "" {
		ls := m.messageLines()
		return ls[len(ls)-1]
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

// signedDur is a measured offset, rounded to the unit it shows (whole
// milliseconds under 10 s, seconds above): 29.9992 s is +30s.
func signedDur(d time.Duration) string {
	if d = d.Round(time.Millisecond); d <= -10*time.Second || d >= 10*time.Second {
		d = d.Round(time.Second)
	}
	if d == 0 {
		return "±0ms"
	}
	if d < 0 {
		return "-" + shortDur(-d)
	}
	return "+" + shortDur(d)
}

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
