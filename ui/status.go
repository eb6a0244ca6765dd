package ui

import (
	"strconv"
	"strings"
	"time"

	"bhtop/upstream"
)

// statusOneLineWidth: on a narrower screen the status line takes two
// lines (when the header does: not on a screen under
// headerTwoLinesHeight), so that every item it must show fits 40
// columns.
const statusOneLineWidth = 60

// statusLine is the bottom line (two on a narrow screen, layout):
// throughput, lag, clock offset, request weight, a ban, errors and how
// fresh the data is (DESIGN.md, "What the header and status line always
// show"). The long labels when every item fits them on one line, else
// the short ones, the items flowing onto the lines there are; when they
// do not fit, the last error is cut with "…" (while at least minCutRoom
// of it shows) or gives way, then the snapshot's age, then the silence
// give way whole, and only the items that must show are left, cut with
// "…" as a last resort.
func (m *Model) statusLine() string {
	switch {
	case m.acc.all():
		return m.padStatus(m.allStatus())
	case m.status.State == upstream.StateReplay:
		return m.padStatus(m.pt.status.wrap(fit(m.replayStatusText(), m.lay.w)))
	}
	w, n := m.lay.w, max(1, m.lay.statusH)
	if n == 1 {
		if long := joinStatus(m.statusParts(false), "  "); textWidth(long) <= w {
			return m.pt.status.wrap(fit(long, w))
		}
	}
	parts := m.statusParts(true)
	lines, ok := flowStatus(parts, w, n)
	for !ok {
		k := lastOptional(parts)
		if k < 0 {
			break
		}
		parts = append(parts[:k], parts[k+1:]...)
		lines, ok = flowStatus(parts, w, n)
	}
	for i, l := range lines {
		lines[i] = m.pt.status.wrap(fit(l, w))
	}
	return strings.Join(lines, "\n")
}

// padStatus is a one-line status on the status line's lines.
func (m *Model) padStatus(line string) string {
	for range m.lay.statusH - 1 {
		line += "\n" + m.pt.status.wrap(fit("", m.lay.w))
	}
	return line
}

// statusPart is one item of the status line; optional ones may give
// way, and one that may be cut (the last error, free text) is cut with
// "…" to the room left when that is at least minCutRoom.
type statusPart struct {
	text          string
	optional, cut bool
}

// minCutRoom is the least room a part that may be cut is cut to; with
// less it gives way.
const minCutRoom = 16

// joinStatus is the parts on one line, sep apart, after a space.
func joinStatus(parts []statusPart, sep string) string {
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(p.text)
	}
	return " " + b.String()
}

// flowStatus puts the parts, in order and one space apart, on n lines of
// w cells (each after a space); ok is false when they do not fit (the
// lines are then what fits, the last holding the rest).
func flowStatus(parts []statusPart, w, n int) (lines []string, ok bool) {
	lines = make([]string, 1, n)
	lines[0] = ""
	for _, p := range parts {
		cur := &lines[len(lines)-1]
		if p.cut && len(lines) == n {
			if room := w - textWidth(*cur) - 1; textWidth(p.text) > room && room >= minCutRoom {
				p.text = fit(p.text, room)
			}
		}
		switch {
		case *cur == "":
			*cur = " " + p.text
		case textWidth(*cur)+1+textWidth(p.text) <= w || len(lines) == n:
			*cur += " " + p.text
		default:
			lines = append(lines, " "+p.text)
		}
	}
	ok = true
	for _, l := range lines {
		ok = ok && textWidth(l) <= w
	}
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines, ok
}

// lastOptional is the index of the last part that may give way, or -1.
func lastOptional(parts []statusPart) int {
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i].optional {
			return i
		}
	}
	return -1
}

// statusParts are the status line's items with their long or short
// labels, in order; the last error, the snapshot's age and the silence
// may give way (the last first).
func (m *Model) statusParts(short bool) []statusPart {
	s := &m.status
	label := func(long, brief string) string {
		if short {
			return brief
		}
		return long
	}
	rate := strconv.FormatFloat(s.EventsPerSec, 'f', 1, 64) // a display rate, not money
	lag := "—"
	if m.snap.LastEventTime > 0 {
		lag = shortDur(m.now.Sub(time.UnixMilli(m.snap.LastEventTime)))
	}
	weight := strconv.Itoa(s.WeightUsed)
	if s.WeightLimit > 0 {
		weight += "/" + strconv.Itoa(s.WeightLimit)
	}
	parts := make([]statusPart, 0, 9)
	parts = append(parts,
		statusPart{text: rate + label(" ev/s", "ev/s")},
		statusPart{text: label("lag ", "lag ") + lag},
		statusPart{text: label("offset ", "off ") + signedDur(s.ClockOffset)},
		statusPart{text: label("weight ", "wt ") + weight})
	if !s.BannedUntil.IsZero() && s.BannedUntil.After(m.now) {
		parts = append(parts, statusPart{text: "BANNED " + m.until(s.BannedUntil)})
	}
	parts = append(parts,
		statusPart{text: label("errors ", "err ") + strconv.Itoa(s.Errors)},
		statusPart{text: "silent " + m.since(s.LastFrame), optional: true})
	snap := "—"
	switch {
	case s.LastSnapshot.IsZero():
	case short:
		snap = m.since(s.LastSnapshot) + " ago"
	default:
		snap = s.LastSnapshot.Format("15:04:05") + " (" + m.since(s.LastSnapshot) + " ago)"
	}
	parts = append(parts, statusPart{text: label("snapshot ", "snap ") + snap, optional: true})
	if s.LastError != "" {
		parts = append(parts, statusPart{text: label("last error: ", "") + s.LastError, optional: true, cut: true})
	}
	return parts
}
