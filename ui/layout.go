package ui

import (
	"bytes"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// rect is a screen area in cells.
type rect struct{ x, y, w, h int }

func (r rect) contains(x, y int) bool { return x >= r.x && x < r.x+r.w && y >= r.y && y < r.y+r.h }

// layout is where everything goes for the current terminal size. It
// changes only on tea.WindowSizeMsg.
type layout struct {
	w, h  int
	tabs  bool           // one pane at a time behind a tab bar
	tiny  bool           // too small to draw anything useful
	body  rect           // between the header and the message line
	panes [numPanes]rect // in tabs mode all are the body below the tab bar
	tabX  [numPanes][2]int
	// gridMarket: the grid shows the Market pane beside the events.
	gridMarket bool
	// statusH is how many lines the status line takes (status.go).
	statusH int
}

// Below these sizes the panes share the screen as tabs.
const (
	gridMinWidth  = 120
	gridMinHeight = 30
)

// gridMarketMinWidth is the narrowest grid that shows the Market pane
// beside the Fills and the Events. Narrower, three panes on the bottom
// row left the Events no room to wrap ("fill …") below 150 columns, and
// the Fills, with the simulator's wide prices and quantities, no room for
// their Time below about 170. The layout depends on the screen's size
// alone (it changes only on a resize): at 150–169 columns the Market
// pane showed beside fills that fit and left as soon as wider ones came
// in. Narrower, the Market pane is a key away (5, tab), drawn in the
// Events' place while focused.
const gridMarketMinWidth = 170

// gridMarketW is the Market pane's width on the grid's bottom row (or
// three tenths of the screen, when wider): its columns that always show
// and its Trend with the simulator's long symbols fit (its 24 h volume,
// bid and ask give way). It took two fifths (68 cells at 170 columns),
// and the Fills, wider than 60 cells with a long symbol closing and
// quantities of many decimals, lost their Time beside it.
const gridMarketW = 60

// headerOneLineWidth: on a narrower screen the header takes two lines,
// the listenKey and connection ages and the privacy badge on the second
// (every item it must show does not fit one line of 60), unless the
// screen is lower than headerTwoLinesHeight (the body needs the line
// more).
const (
	headerOneLineWidth   = 80
	headerTwoLinesHeight = 12
)

// newLayout lays out a w×h screen; market: there is market data.
func newLayout(w, h int, market bool) layout {
	l := layout{w: w, h: h}
	if w < 20 || h < 8 {
		l.tiny = true
		return l
	}
	top := 1 // the header's lines
	if w < headerOneLineWidth && h >= headerTwoLinesHeight {
		top = 2
	}
	l.statusH = 1
	if w < statusOneLineWidth && h >= headerTwoLinesHeight {
		l.statusH = 2
	}
	l.body = rect{0, top, w, h - 1 - l.statusH - top}
	if w < gridMinWidth || h < gridMinHeight {
		l.tabs = true
		r := rect{0, top + 1, w, l.body.h - 1}
		for i := range l.panes {
			l.panes[i] = r
		}
		x := 0
		for i, t := range tabTitles(w, false) {
			label := tabLabel(paneID(i), t)
			l.tabX[i] = [2]int{x, x + textWidth(label)}
			x += textWidth(label) + tabGap(w)
		}
		return l
	}
	bh := l.body.h
	ordersH := bh * 45 / 100
	midH := bh * 30 / 100
	eventsH := bh - ordersH - midH
	balW := w * 2 / 5
	l.panes[paneOrders] = rect{0, 1, w, ordersH}
	l.panes[paneBalances] = rect{0, 1 + ordersH, balW, midH}
	l.panes[panePositions] = rect{balW + 1, 1 + ordersH, w - balW - 1, midH}
	y := 1 + ordersH + midH
	if !market || w < gridMarketMinWidth {
		// No market at all, or no room for it: the fills and events share
		// the bottom row (the Market pane is still a key away, saying why
		// it is empty when there is no market).
		fillsW := w / 2
		l.panes[paneFills] = rect{0, y, fillsW, eventsH}
		l.panes[paneEvents] = rect{fillsW + 1, y, w - fillsW - 1, eventsH}
		l.panes[paneMarket] = l.panes[paneEvents] // drawn there when focused
		l.gridMarket = false
		return l
	}
	// The Market pane keeps room for its trend line; the Fills pane gets
	// five eighths of what is left, the Events the rest (41 at 170).
	mktW := max(gridMarketW, w*3/10)
	fillsW := (w - mktW - 2) * 5 / 8
	l.gridMarket = true
	l.panes[paneMarket] = rect{0, y, mktW, eventsH}
	l.panes[paneFills] = rect{mktW + 1, y, fillsW, eventsH}
	l.panes[paneEvents] = rect{mktW + fillsW + 2, y, w - mktW - fillsW - 2, eventsH}
	return l
}

// oneStatusLine gives the status line's second line, if it has one, to
// the body: the All view's status is one line at every width.
func (l *layout) oneStatusLine() {
	if l.statusH > 1 {
		l.body.h += l.statusH - 1
		l.statusH = 1
	}
}

// tabLabel is a tab's label: its key and its title (its key alone when
// the title is "").
func tabLabel(id paneID, title string) string {
	if title == "" {
		return " " + string(rune('1'+int(id))) + " "
	}
	return " " + string(rune('1'+int(id))) + " " + title + " "
}

// tabGap is the space between two tabs: none on a screen too narrow
// for the six keys with a space between (" 1   2 … 6" is 23 cells).
func tabGap(w int) int {
	if w < int(numPanes)*4-1 {
		return 0
	}
	return 1
}

// paneShortTitles are the tabs' titles when the full ones do not fit;
// the closed orders are "Closed", as wide as "Orders" (the tabs' places
// do not move with h).
var paneShortTitles = [numPanes]string{"Bal", "Orders", "Pos", "Events", "Mkt", "Fills"}

// tabTitles are the tab bar's titles at width w: the panes' titles,
// else the short ones, else none (the keys alone), whichever fit; with
// history the Open Orders tab names the closed orders.
func tabTitles(w int, history bool) [numPanes]string {
	fits := func(ts [numPanes]string) bool {
		n := 0
		for i, t := range ts {
			n += textWidth(tabLabel(paneID(i), t)) + 1
		}
		return n-1 <= w
	}
	ts := paneTitles
	if history {
		ts[paneOrders] = historyTitle
	}
	if fits(paneTitles) && fits(ts) {
		return ts
	}
	ts = paneShortTitles
	if history {
		ts[paneOrders] = "Closed"
	}
	if fits(ts) {
		return ts
	}
	return [numPanes]string{}
}

// bodyRows is how many data rows pane id shows (its height less the
// title and column header).
func (l layout) bodyRows(id paneID) int { return max(0, l.panes[id].h-2) }

// onResize lays the screen out again.
func (m Model) onResize(msg tea.WindowSizeMsg) Model {
	m.width, m.height = msg.Width, msg.Height
	m.layOut()
	m.help.SetWidth(max(0, msg.Width-2))
	m.drawShortHelp()
	for i := range m.panes {
		m.panes[i].scrollTo(m.lay.bodyRows(paneID(i)))
		m.panes[i].prepare(m.lay.panes[i].w, m.lay.bodyRows(paneID(i)), m.mk)
	}
	m.renderChart()
	return m
}

// layOut lays the screen out for its size.
func (m *Model) layOut() {
	m.lay = newLayout(m.width, m.height, m.market.hub != nil)
	if m.acc.all() {
		m.lay.oneStatusLine()
	}
}

// screen composes the whole screen: exactly height lines of exactly width
// cells, so a resize never leaves debris. Lines whose inputs did not
// change since the last frame come from the frame cache.
func (m *Model) screen() string {
	l := m.lay
	if l.w == 0 {
		return ""
	}
	if l.tiny {
		return lipgloss.Place(l.w, l.h, lipgloss.Center, lipgloss.Center, fit("terminal too small", l.w))
	}
	fc := m.frames
	if fc == nil {
		fc = &frameCache{} // a Model not made by New: nothing to reuse
	}
	fc.mu.Lock()
	defer fc.mu.Unlock()
	fc.begin(&m.pt, m.privacy)
	b := &fc.buf
	b.WriteString(m.cachedHeader(fc))
	b.WriteByte('\n')
	msg := m.messageLines()
	if box, ok := m.dialog(m.dialogRoom(msg)); ok {
		if lipgloss.Height(box) > m.dialogRoom(msg) {
			// Taller than the body: it covers the message and status
			// lines too rather than lose its bottom (its answer line).
			full := l.h - l.body.y
			box, _ = m.dialog(full)
			placeLines(b, box, l.w, full)
			b.b = b.b[:len(b.b)-1] // the screen's last line ends it
			return fc.frame()
		}
		placeLines(b, box, l.w, m.dialogRoom(msg))
		for _, s := range msg {
			b.WriteString(s)
			b.WriteByte('\n')
		}
		b.WriteString(m.cachedStatus(fc))
		return fc.frame()
	}
	m.writeBody(b, fc)
	if extra := msg[:len(msg)-1]; len(extra) > 0 {
		// A long message goes on over the body's last lines.
		end := len(b.b)
		for range len(extra) {
			end = bytes.LastIndexByte(b.b[:end-1], '\n') + 1
		}
		b.b = b.b[:end]
		for _, l := range extra {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	b.WriteString(msg[len(msg)-1])
	b.WriteByte('\n')
	b.WriteString(m.cachedStatus(fc))
	return fc.frame()
}

// cachedHeader is headerLine, drawn again only when what it shows changed.
func (m *Model) cachedHeader(fc *frameCache) string {
	if m.acc.all() {
		return m.headerLine()
	}
	k := headerKey{st: m.status, now: m.now, mk: newMktHeaderKey(m.mk), eq: m.eq, name: m.accountName(), readOnly: m.t == nil,
		privacy: m.privacy, w: m.lay.w, lines: m.lay.body.y}
	if s, ok := fc.header.hit(k); ok {
		return s
	}
	return fc.header.set(k, m.headerLine())
}

// cachedStatus is statusLine, drawn again only when what it shows changed.
func (m *Model) cachedStatus(fc *frameCache) string {
	if m.acc.all() {
		return m.statusLine()
	}
	k := statusKey{st: m.status, now: m.now, lastEvent: m.snap.LastEventTime, stats: m.snap.Stats, w: m.lay.w, lines: m.lay.statusH}
	if s, ok := fc.status.hit(k); ok {
		return s
	}
	return fc.status.set(k, m.statusLine())
}

// dialogRoom is the height an open dialog fits into: the body, less the
// lines a long message (a toast) takes over its bottom, so that no
// message covers a dialog's answer line.
func (m *Model) dialogRoom(msg []string) int { return m.lay.body.h - (len(msg) - 1) }

// placeLines writes box centred in h lines of w cells, each ended by a
// newline.
func placeLines(b *screenBuf, box string, w, h int) {
	placed := lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, box)
	out := strings.Split(placed, "\n")
	for len(out) < h {
		out = append(out, "")
	}
	for _, s := range out[:h] {
		b.WriteString(fitStyled(s, w))
		b.WriteByte('\n')
	}
}

// writeBody draws the panes, or the chart that covers them:
// body.h lines, each ended by a newline.
func (m *Model) writeBody(b *screenBuf, fc *frameCache) {
	l := m.lay
	if m.acc.all() {
		m.writeAll(b)
		return
	}
	if m.chart != nil && m.chart.rows == l.body.h {
		b.WriteString(m.chart.View())
		return
	}
	fc.cell = cellCtx{now: m.now, offset: m.status.ClockOffset, mk: m.mk}
	// side draws up to three panes side by side, a rule between them, as
	// tall as the first.
	side := func(ids ...paneID) {
		var ds [3]paneDraw
		for k, id := range ids {
			r := l.panes[id]
			ds[k] = m.paneDrawer(id, r.w, r.h, fc)
		}
		for i := range l.panes[ids[0]].h {
			for k := range ids {
				if k > 0 {
					b.WriteString(fc.sep)
				}
				ds[k].line(b, i)
			}
			b.WriteByte('\n')
		}
		for k := range ids {
			ds[k].done()
		}
	}
	if l.tabs {
		b.WriteString(m.tabBar())
		b.WriteByte('\n')
		side(m.focus)
		return
	}
	side(paneOrders)
	side(paneBalances, panePositions)
	switch {
	case l.gridMarket:
		side(paneMarket, paneFills, paneEvents)
	case m.focus == paneMarket:
		side(paneFills, paneMarket) // focused without a market: it takes the events' place
	default:
		side(paneFills, paneEvents)
	}
}

// paneDrawer readies one pane, with its context, to be drawn; fc holds
// the cell context and paints the columns are handed.
func (m *Model) paneDrawer(id paneID, w, h int, fc *frameCache) paneDraw {
	title := paneTitles[id]
	empty := "(none)"
	switch id {
	case paneOrders:
		empty = "(no open orders)"
		if m.history {
			title, empty = historyTitle, "(no closed orders)"
		}
	case paneBalances:
		empty = "(no balances; z shows zero balances)"
	case panePositions:
		empty = "(no positions)"
	case paneEvents:
		empty = "(nothing yet)"
	case paneMarket:
		empty = m.marketEmpty()
	case paneFills:
		empty = "(no fills yet)"
	}
	if m.snap.Version == 0 && id != paneEvents && id != paneMarket {
		empty = "waiting for the first snapshot…"
	}
	if m.panes[id].filter != "" && len(m.panes[id].rows) == 0 {
		empty = "(no rows match the filter)"
	}
	c := viewCtx{
		cell: &fc.cell, p: &fc.pt, noColor: m.noColor, privacy: m.privacy,
		focused: id == m.focus, stale: m.staleMark(id),
		filtering: m.prompt.on && id == m.focus, title: title, empty: empty,
	}
	switch {
	case id == paneFills:
		c.note = m.feeNote
	case id == paneOrders && m.history && m.panes[id].shows("Last", w, fc.cell.mk.live):
		from, to := m.panes[id].window(max(0, h-2))
		c.note = unfollowedNote(m.panes[id].rows[from:to], m.mk)
	}
	// Drawn from a copy in the cache, so that no pointer into the Model
	// (which View holds by value) reaches the column functions: the
	// compiler would then move the whole Model to the heap every frame.
	fc.draw[id] = m.panes[id]
	return fc.draw[id].drawer(c, w, h, fc)
}

// tabBar is the line of pane tabs in tabs mode.
func (m *Model) tabBar() string {
	var b strings.Builder
	for i, t := range tabTitles(m.lay.w, m.history) {
		label := tabLabel(paneID(i), t)
		if paneID(i) == m.focus {
			if m.noColor {
				label = "[" + label[1:len(label)-1] + "]"
			}
			b.WriteString(m.pt.tabActive.wrap(label))
		} else {
			b.WriteString(m.pt.tab.wrap(label))
		}
		if tabGap(m.lay.w) > 0 {
			b.WriteByte(' ')
		}
	}
	return fitStyled(b.String(), m.lay.w)
}

// paneAt is the pane under the cell (x, y), if any; focus, the pane
// shown where two share a place (the Market focused in the Events'),
// wins.
func (l layout) paneAt(x, y int, focus paneID) (paneID, bool) {
	if l.tabs {
		if y == l.body.y { // the tab bar
			for i, r := range l.tabX {
				if x >= r[0] && x < r[1] {
					return paneID(i), true
				}
			}
			return 0, false
		}
	}
	if !l.tabs && l.panes[focus].contains(x, y) {
		return focus, true
	}
	for i, r := range l.panes {
		if r.contains(x, y) {
			if l.tabs {
				return -1, true // the focused pane
			}
			return paneID(i), true
		}
	}
	return 0, false
}
