package ui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"bhtop/market"
	"bhtop/upstream"
	"bhtop/value"
)

// The All view (key a / A past the last account): one row per account
// with its stream's health, equity and unrealized PnL, and their total.

// allRow is one account's line of the All view, as text.
type allRow struct {
	name, stream       string // stream: styled connection state
	equity, upnl, note string
	bad                bool // the stream is not live: the row is painted
}

// allTotal is the All view's total line. counted is "" when every
// account is in the sum, else how many are and which are not
// ("1 of 2 accounts: bot1 unknown").
type allTotal struct {
	equity, unpriced, counted string
}

// refreshAll rebuilds the All view's rows from every account's newest
// snapshots; it does nothing unless the All view is shown.
func (m *Model) refreshAll() {
	d := &m.acc
	if !d.all() {
		return
	}
	saved := m.status
	defer func() { m.status = saved }()
	in := d.list[0].ValueIn
	parts := make([]value.Part, len(d.list))
	d.rows = d.rows[:0]
	for i, a := range d.list {
		s := a.Backend.Hub().Latest()
		var ms *market.Snapshot
		if a.Market != nil {
			ms = a.Market.Latest()
		}
		v := value.Of(s, ms, a.ValueIn)
		m.status = a.Backend.Status()
		// Never synced from a REST snapshot (a wrong key, a stream down
		// from the start): nothing is known, so nothing is counted.
		unknown := s.Version == 0 || m.status.LastSnapshot.IsZero()
		parts[i] = value.Part{Name: a.Name, State: s, Market: ms, Val: v, Unknown: unknown}
		r := allRow{name: a.Name, stream: m.connState(), equity: "—", upnl: "—"}
		r.bad = m.status.State != upstream.StateLive
		left := value.Left(parts[i], in)
		if left != "" {
			r.note = "not in total: " + left // an unknown equity is never shown as 0
		}
		if !unknown && v != nil {
			r.equity = v.Equity.StringFixed(valuePlaces(v.Asset)) + " " + v.Asset
			if p, ok := value.UnrealizedIn(v, ms); ok {
				r.upnl = p.StringFixed(valuePlaces(v.Asset)) + " " + v.Asset
			}
			if len(v.Unpriced) > 0 && left == "" {
				r.note = "unpriced " + strings.Join(v.Unpriced, ",")
			}
			if ms != nil && !ms.Health.Up && len(ms.Quotes) > 0 {
				// The last quotes received value it: say so.
				r.note = strings.TrimPrefix(r.note+"; no market data: prices may be stale", "; ")
			}
		}
		d.rows = append(d.rows, r)
	}
	t := value.Sum(in, parts)
	d.total = allTotal{equity: t.Equity.StringFixed(valuePlaces(in)) + " " + in}
	if len(t.Missing) == len(d.list) {
		d.total.equity = "—" // no account counted: unknown, never a false 0
	}
	if len(t.Unpriced) > 0 {
		d.total.unpriced = "unpriced " + strings.Join(t.Unpriced, ",")
	}
	if len(t.Missing) > 0 {
		d.total.counted = strconv.Itoa(len(d.list)-len(t.Missing)) + " of " + strconv.Itoa(len(d.list)) +
			" accounts: " + strings.Join(t.Missing, ", ") + " unknown"
	}
}

// amount is s (an amount and its asset), or with privacy on the mask
// and the asset; "—" stays.
func (m *Model) amount(s string) string {
	if !m.privacy || s == "—" {
		return s
	}
	if _, asset, ok := strings.Cut(s, " "); ok {
		return hidden + " " + asset
	}
	return hidden
}

// allHeader is the header line of the All view.
func (m *Model) allHeader() string {
	parts := []string{m.pt.header.wrap(" bhtop "), m.pt.badge.wrap(" ALL ACCOUNTS "),
		strconv.Itoa(len(m.acc.list)) + " accounts", m.pt.accent.wrap("total " + m.amount(m.acc.total.equity))}
	if c := m.acc.total.counted; c != "" {
		c, _, _ = strings.Cut(c, ":") // "1 of 2 accounts": the names are on the total line
		parts = append(parts, m.pt.warn.wrap("("+c+")"))
	}
	if m.privacy {
		parts = append(parts, m.pt.badge.wrap(" PRIVATE "))
	}
	if m.lay.body.y > 1 { // two lines (a narrow screen): the total on the second
		return fitStyled(strings.Join(parts[:3], " "), m.lay.w) + "\n" + fitStyled(" "+strings.Join(parts[3:], " "), m.lay.w)
	}
	// On one line too narrow for all of it (40×10), the title and then
	// the account count give way before the total is cut.
	for _, drop := range []int{0, 1} {
		if ansi.StringWidth(strings.Join(parts, " ")) <= m.lay.w {
			break
		}
		parts = slices.Delete(parts, drop, drop+1)
	}
	return fitStyled(strings.Join(parts, " "), m.lay.w)
}

// allStatus is the status line of the All view.
func (m *Model) allStatus() string {
	live := 0
	for _, r := range m.acc.rows {
		if !r.bad {
			live++
		}
	}
	t := " " + strconv.Itoa(live) + "/" + strconv.Itoa(len(m.acc.rows)) + " streams live"
	return m.pt.status.wrap(fit(t, m.lay.w))
}

// writeAll draws the All view's body: body.h lines, each ended by a
// newline.
func (m *Model) writeAll(b *screenBuf) {
	w, h := m.lay.w, m.lay.body.h
	nameW, eqW, pnlW, noteW := len("Account"), len("Equity"), len("Unrealized PnL"), 0
	rows := make([]allRow, len(m.acc.rows))
	for i, r := range m.acc.rows {
		r.equity, r.upnl = m.amount(r.equity), m.amount(r.upnl)
		rows[i] = r
		nameW = max(nameW, textWidth(r.name))
		eqW = max(eqW, textWidth(r.equity))
		pnlW = max(pnlW, textWidth(r.upnl))
		noteW = max(noteW, textWidth(r.note))
	}
	total := m.amount(m.acc.total.equity)
	eqW = max(eqW, textWidth(total))
	left := func(s string, n int) string { return s + strings.Repeat(" ", max(0, n-textWidth(s))) }
	right := func(s string, n int) string { return strings.Repeat(" ", max(0, n-textWidth(s))) + s }
	// The note (why an equity is missing or partial) comes before the
	// stream, whose text can be long, so that it is never cut off.
	row := func(name, eq, pnl, note, stream string) string {
		s := " " + left(name, nameW) + "  " + right(eq, eqW) + "  " + right(pnl, pnlW) + "  "
		if noteW > 0 {
			s += note + strings.Repeat(" ", max(0, noteW-ansi.StringWidth(note))) + "  "
		}
		return s + stream
	}
	var lines []string
	noteHead := ""
	if noteW > 0 {
		noteHead = "Note"
		noteW = max(noteW, len(noteHead))
	}
	// A row too wide for the screen (60 or 80 columns) shows the stream
	// and the note on lines of their own under its amounts; the stream's
	// reason alone may be cut at the end of the row.
	// Stacked, a row whose whole stream fits beside its amounts keeps it
	// there (only its note goes below; a reason that would be cut still
	// gets its own line), so that one broken bot does not make
	// every row of a big desk take two lines.
	stacked := false
	state := func(r allRow) string {
		st, _, why := strings.Cut(ansi.Strip(r.stream), " (")
		if why {
			st += " (…" // the reason's start: its "…" never eats the state
		}
		return st
	}
	for _, r := range rows {
		stacked = stacked || textWidth(row(r.name, r.equity, r.upnl, r.note, state(r))) > w
	}
	inline := make([]bool, len(rows))
	anyInline := false
	if stacked {
		noteW = 0
		for i, r := range rows {
			inline[i] = textWidth(row(r.name, r.equity, r.upnl, "", ansi.Strip(r.stream))) <= w
			anyInline = anyInline || inline[i]
		}
	}
	if stacked && !anyInline {
		lines = append(lines, m.pt.colHeader.wrap(fit(row("Account", "Equity", "Unrealized PnL", "", ""), w)))
	} else if stacked {
		lines = append(lines, m.pt.colHeader.wrap(fit(row("Account", "Equity", "Unrealized PnL", "", "Stream"), w)))
	} else {
		lines = append(lines, m.pt.colHeader.wrap(fit(row("Account", "Equity", "Unrealized PnL", noteHead, "Stream"), w)))
	}
	// Each account's lines, kept whole: when they do not all fit, the
	// rows that do are shown, then how many are left out and which of
	// those are not live, and the total is never pushed off the screen.
	groups := make([][]string, len(rows))
	// A stacked row on one line, its stream beside its amounts and cut
	// at the end: what shows it where one row is left ("": its state
	// would be cut too).
	oneLine := make([]string, len(rows))
	for i, r := range rows {
		note := r.note
		if note != "" {
			note = m.pt.muted.wrap(note)
		}
		if !stacked {
			room := w - ansi.StringWidth(row(r.name, r.equity, r.upnl, note, ""))
			groups[i] = []string{fitStyled(row(r.name, r.equity, r.upnl, note, squeezeReason(r.stream, room)), w)}
			continue
		}
		if inline[i] {
			groups[i] = []string{fitStyled(row(r.name, r.equity, r.upnl, "", r.stream), w)}
		} else {
			groups[i] = []string{fitStyled(row(r.name, r.equity, r.upnl, "", ""), w), fitStyled("   "+squeezeReason(r.stream, w-3), w)}
		}
		if textWidth(row(r.name, r.equity, r.upnl, "", state(r))) <= w {
			room := w - ansi.StringWidth(row(r.name, r.equity, r.upnl, "", ""))
			oneLine[i] = fitStyled(row(r.name, r.equity, r.upnl, "", squeezeReason(r.stream, room)), w)
		}
		if note != "" {
			groups[i] = append(groups[i], fitStyled("   "+note, w))
		}
	}
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	room := h - len(lines) - 2 // the blank line and the total
	if n > room {
		room-- // the line saying what is left out
	}
	shown := 0
rows:
	for i, g := range groups {
		if n > h-len(lines)-2 && len(g) > room {
			fits := room
			if i == len(rows)-1 {
				fits++ // the last: no line for those left out
			}
			// Rather than leave the rows blank: shown without its note
			// (last, under a stacked row; the Total line names the
			// accounts it leaves out), or on one row, its stream cut.
			switch {
			case stacked && rows[i].note != "" && len(g)-1 <= fits:
				g = g[:len(g)-1]
			case stacked && oneLine[i] != "" && fits >= 1:
				g = []string{oneLine[i]}
			default:
				break rows
			}
		}
		lines = append(lines, g...)
		room -= len(g)
		shown++
	}
	if shown < len(rows) {
		lines = append(lines, m.moreLine(rows[shown:], w))
	}
	lines = append(lines, fit("", w))
	t := m.pt.accent.wrap(" " + left("Total", nameW) + "  " + right(total, eqW))
	if c := m.acc.total.counted; c != "" {
		t += " " + m.pt.warn.wrap("("+c+")")
	}
	if u := m.acc.total.unpriced; u != "" {
		t += "  " + m.pt.muted.wrap(u)
	}
	lines = append(lines, fitStyled(t, w))
	if len(lines) > h && h > 1 {
		// Too low for every row (40×10): the Total line stays, the
		// blank line before it and then the last rows give way.
		total := lines[len(lines)-1]
		lines = append(lines[:min(h-1, len(lines)-2)], total)
	}
	for i := range h {
		if i < len(lines) {
			b.WriteString(lines[i])
		} else {
			b.WriteString(strings.Repeat(" ", w))
		}
		b.WriteByte('\n')
	}
}

// moreLine is the All view's line for the rows left out (w cells):
// how many, which, and those of them that are not live, named whole.
// When it is too long the range of names goes first, then "accounts";
// then it says how many are not live and names those that fit
// ("+20 more not live (19): bot15, bot16, …").
func (m *Model) moreLine(rows []allRow, w int) string {
	var bad []string
	for _, r := range rows {
		if r.bad {
			bad = append(bad, r.name)
		}
	}
	n := " +" + strconv.Itoa(len(rows)) + " more"
	heads := []string{n + " accounts (" + rows[0].name + "…" + rows[len(rows)-1].name + ")", n + " accounts", n}
	if len(bad) == 0 {
		for _, h := range heads {
			if textWidth(h) <= w {
				return fit(h, w)
			}
		}
		return fit(n, w)
	}
	all := "not live: " + strings.Join(bad, ", ")
	for _, h := range heads {
		if textWidth(h)+1+textWidth(all) <= w {
			return fitStyled(h+" "+m.pt.warn.wrap(all), w)
		}
	}
	// Not all of them fit: how many, and the names that do.
	tail := "not live (" + strconv.Itoa(len(bad)) + "): "
	for _, h := range heads[1:] {
		room := w - textWidth(h) - 1 - textWidth(tail) - 1 // 1: the "…"
		var sb strings.Builder
		for _, name := range bad {
			if room -= textWidth(name) + len(", "); room < 0 {
				break
			}
			sb.WriteString(name + ", ")
		}
		if sb.Len() > 0 {
			return fitStyled(h+" "+m.pt.warn.wrap(tail+sb.String()+"…"), w)
		}
	}
	return fitStyled(n+" "+m.pt.warn.wrap(tail+"…"), w)
}

// reasonShorter are the stream reasons' long phrases and their short
// forms, tried in order while a reason is too wide for its room: the
// time a wait ends is what must survive.
var reasonShorter = []struct{ long, short string }{
	{"waiting for request weight", "weight"},
	{"waiting for turn: another account is connecting or resyncing", "waiting for turn"},
	{"replacing a silent connection", "replacing silent"},
	{" UTC)", ")"},
}

// squeezeReason shortens the stream text s (it may be styled) until it
// is at most w wide, or no shorter form is left.
func squeezeReason(s string, w int) string {
	for _, r := range reasonShorter {
		if ansi.StringWidth(s) <= w {
			break
		}
		s = strings.ReplaceAll(s, r.long, r.short)
	}
	return s
}
