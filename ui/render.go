package ui

import (
	"slices"
	"strings"
	"sync"
	"time"

	"bhtop/market"
	"bhtop/state"
	"bhtop/upstream"
)

// frameCache keeps the lines the last frames drew, so a frame renders only
// the lines whose inputs changed and copies the others. Every copy of a
// Model shares it (New makes one), which is safe because each cached line
// is reused only when the whole key it was drawn from is equal: View shows
// exactly what it would draw without the cache (the goldens check it).
// The lock covers the rare case of two copies drawn at once.
type frameCache struct {
	mu      sync.Mutex
	pt      paints // the paints the cached lines were drawn with
	privacy bool
	cell    cellCtx // handed to the column functions by pointer
	panes   [numPanes]paneLines
	draw    [numPanes]pane // the panes drawn this frame (copies)
	scratch []cellOut
	header  lineMemo[headerKey]
	status  lineMemo[statusKey]
	buf     screenBuf
	last    string // the previous frame, returned again when unchanged
	sep     string // the line between panes side by side, in pt
}

// lineMemo is one line and what it was drawn from.
type lineMemo[K comparable] struct {
	ok bool
	k  K
	s  string
}

// hit returns the line drawn for k, if it is the one held.
func (l *lineMemo[K]) hit(k K) (string, bool) {
	return l.s, l.ok && l.k == k
}

// set holds s, the line drawn for k.
func (l *lineMemo[K]) set(k K, s string) string {
	l.ok, l.k, l.s = true, k, s
	return s
}

// begin starts a frame drawn with the paints pt: lines drawn with other
// paints or another privacy mode are dropped.
func (fc *frameCache) begin(pt *paints, privacy bool) {
	if fc.pt != *pt || fc.privacy != privacy {
		fc.pt, fc.privacy = *pt, privacy
		fc.sep = pt.muted.wrap("│")
		fc.panes = [numPanes]paneLines{}
		fc.header, fc.status = lineMemo[headerKey]{}, lineMemo[statusKey]{}
	}
	fc.buf.b = fc.buf.b[:0]
}

// frame is the frame just written: the previous one when it is the same
// (no copy, no garbage), else a new string.
func (fc *frameCache) frame() string {
	if string(fc.buf.b) != fc.last { // compared without a copy
		fc.last = string(fc.buf.b)
	}
	return fc.last
}

// screenBuf is the frame being written, reused from frame to frame.
type screenBuf struct{ b []byte }

func (s *screenBuf) WriteString(x string) { s.b = append(s.b, x...) }

func (s *screenBuf) WriteByte(c byte) error {
	s.b = append(s.b, c)
	return nil
}

func (s *screenBuf) writeSpaces(n int) {
	for n > 0 {
		k := min(n, len(spaces))
		s.b = append(s.b, spaces[:k]...)
		n -= k
	}
}

// headerKey is everything the header line shows.
type headerKey struct {
	st       upstream.Status
	now      time.Time
	mk       mktHeaderKey
	eq       equityLine
	name     string
	readOnly bool
	privacy  bool
	w        int
	lines    int // one, or two on a narrow screen (layout): the same width, two headers
}

// mktHeaderKey is what the header's market part reads of the market view
// (marketHeader) besides the equity line.
type mktHeaderKey struct {
	live, ready bool
	health      market.Health
	asset       string
}

func newMktHeaderKey(mk *mktView) mktHeaderKey {
	k := mktHeaderKey{live: mk.live, ready: mk.snap.Version != 0, health: mk.snap.Health}
	if mk.val != nil {
		k.asset = mk.val.Asset
	}
	return k
}

// statusKey is everything the status line shows.
type statusKey struct {
	st        upstream.Status
	now       time.Time
	lastEvent int64
	stats     state.Stats
	w, lines  int
}

// paneLines is one pane's cached lines, valid for the columns, widths
// and focus they were drawn with (look).
type paneLines struct {
	look     paneLook
	cols     []int
	widths   []colWidth
	header   string
	titleOK  bool
	titleKey titleKey
	title    string
	// empty is the line shown when there are no rows, and its text.
	empty, emptyText string
	// rows are the row lines of the last frame, in screen order; next is
	// the frame being drawn (the two swap after it).
	rows, next []rowLine
	// wrap is a wrapping pane's layout of its rows (wrap.go).
	wrap wrapCache
}

// paneLook is what every line of a pane depends on besides its row.
type paneLook struct {
	w       int
	fit     colFit
	focused bool
}

// titleKey is everything a pane's title line shows.
type titleKey struct {
	title, note, filter string
	n, sort, notOpen    int
	desc                bool
	filtering           bool
	stale               string
	focused             bool
	w                   int
}

// rowKey is what a row line is reused on without looking at its cells: the
// same item (rows are immutable behind their pointers), selection, market
// view and clock keys.
type rowKey struct {
	it  item
	sel bool
	// The market inputs (pane.cellsFrom): the market view, its market
	// snapshot for cells that read quotes alone, or the token of the
	// cells the row reads; nil for none.
	mk    *mktView
	ms    *market.Snapshot
	tok   *int
	clock int64
}

// rowLine is one drawn row: its key, the cells it was drawn from (when
// the key changes but the cells do not, the line is reused) and the line.
type rowLine struct {
	k     rowKey
	lp    paint
	cells []cellOut
	s     string
}

// cellOut is one cell as drawn: its text (privacy applied) and its paint.
type cellOut struct {
	s  string
	cp paint
}

// use readies the pane's lines for a frame with these columns, widths and
// focus; a change drops every cached line.
func (pl *paneLines) use(p *pane, look paneLook, cols []int) {
	same := pl.look == look && slices.Equal(pl.cols, cols) && len(pl.widths) == len(cols)
	for i := 0; same && i < len(cols); i++ {
		same = pl.widths[i] == p.widths[cols[i]]
	}
	if !same {
		pl.look = look
		pl.cols = append(pl.cols[:0], cols...)
		pl.widths = pl.widths[:0]
		for _, ci := range cols {
			pl.widths = append(pl.widths, p.widths[ci])
		}
		pl.header, pl.empty, pl.rows = "", "", pl.rows[:0]
		pl.titleOK, pl.wrap = false, wrapCache{}
	}
	pl.next = pl.next[:0]
}

// done ends the pane's frame: the lines drawn become the cached ones.
func (pl *paneLines) done() {
	pl.rows, pl.next = pl.next, pl.rows
}

// find returns the cached line most like key k: the line of the same
// item at screen row j, else anywhere (the rows scrolled), else the line
// at row j (nil when there is none).
func (pl *paneLines) find(k rowKey, j int) *rowLine {
	if j < len(pl.rows) && pl.rows[j].k.it == k.it {
		return &pl.rows[j]
	}
	for i := range pl.rows {
		if pl.rows[i].k.it == k.it {
			return &pl.rows[i]
		}
	}
	if j < len(pl.rows) {
		return &pl.rows[j]
	}
	return nil
}

// rowKey is row ri's key in this frame.
func (p *pane) rowKey(ri int, c *viewCtx, cols []int) rowKey {
	k := rowKey{it: p.rows[ri], sel: ri == p.cursor}
	if mk := c.cell.mk; p.usesMarket {
		switch p.cellsFrom {
		case cellsQuotes:
			k.ms = mk.snap
		case cellsAssets:
			k.tok = mk.assetsTok
		case cellsPos:
			k.tok = mk.posTok
		default:
			k.mk = mk
		}
	}
	for _, ci := range cols {
		if f := p.cols[ci].clock; f != nil {
			k.clock = k.clock*1_000_003 + f(&p.rows[ri], c.cell)
		}
	}
	return k
}

// ageKey says which text compactAge(d) is, without making it.
func ageKey(d time.Duration) int64 {
	d = max(d, 0)
	switch {
	case d < time.Minute:
		return int64(d / time.Second)
	case d < time.Hour:
		return 1<<40 | int64(d/time.Minute)
	case d < 48*time.Hour:
		return 2<<40 | int64(d/time.Hour)
	}
	return 3<<40 | int64(d/(24*time.Hour))
}

// drawRow writes screen row j of the pane (row d.off+j), from the cache
// when its key or its cells are unchanged.
func (d *paneDraw) drawRow(b *screenBuf, j int) { d.drawRowAt(b, j, d.off+j) }

// drawRowAt writes row ri on screen row j of the pane.
func (d *paneDraw) drawRowAt(b *screenBuf, j, ri int) {
	p := d.p
	pl, fc := d.lines, d.fc
	if pl == nil {
		var sb strings.Builder
		lp, cells := p.rowCells(&d.c, ri, d.cols, nil)
		p.writeRow(&sb, &d.c, ri, lp, cells, d.cols, d.fit, d.w)
		b.WriteString(sb.String())
		return
	}
	k := p.rowKey(ri, &d.c, d.cols)
	old := pl.find(k, j)
	if old != nil && old.k == k {
		pl.next = append(pl.next, *old)
		b.WriteString(old.s)
		return
	}
	lp, cells := p.rowCells(&d.c, ri, d.cols, fc.scratch[:0])
	fc.scratch = cells
	if old != nil && old.k.sel == k.sel && old.lp == lp && slices.Equal(old.cells, cells) {
		l := *old
		l.k = k
		pl.next = append(pl.next, l)
		b.WriteString(l.s)
		return
	}
	var sb strings.Builder
	p.writeRow(&sb, &d.c, ri, lp, cells, d.cols, d.fit, d.w)
	l := rowLine{k: k, lp: lp, cells: slices.Clone(cells), s: sb.String()}
	pl.next = append(pl.next, l)
	b.WriteString(l.s)
}
