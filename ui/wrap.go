package ui

import "strings"

// A wrapping pane (the Events) puts a row whose flex column's text is
// wider than the column on more lines, the text going on under itself,
// so that no part of an event (a price, a quantity) is cut with "…". The
// window keeps the cursor's row whole on the screen; the rows above it
// give way.

// minWrapWidth is the narrowest flex column that wraps: in a narrower
// one the words would break inside (the text is cut there instead).
const minWrapWidth = 16

// wrapLine is one screen line of a wrapping pane: line seg of row ri,
// whose flex text there is text (segs: how many lines the row takes),
// and, for a row on several lines, the line as drawn ("" until it is).
type wrapLine struct {
	ri, seg, segs int
	text, s       string
}

// wrapCache is a wrapping pane's layout, kept from frame to frame while
// its rows, cursor and window stay (its look is the pane's lines').
type wrapCache struct {
	ok    bool
	k     wrapKey
	off   int
	lines []wrapLine
}

// wrapKey is what a wrapping pane's layout depends on besides its look.
type wrapKey struct {
	gen                 uint64
	n, off, cursor, len int
}

// flexCell is the index in d.cols of the flex column, or -1.
func (d *paneDraw) flexCell() int {
	for k, ci := range d.cols {
		if d.p.cols[ci].flex {
			return k
		}
	}
	return -1
}

// rowSegs is row ri's flex text on lines of the flex column's width (as
// drawn: masked in privacy mode); nil when it fits one line.
func (d *paneDraw) rowSegs(ri, flex int) []string {
	col := &d.p.cols[d.cols[flex]]
	s := col.text(&d.p.rows[ri], d.c.cell)
	if d.c.privacy && col.mask {
		s = maskNumbers(s)
	}
	if w := d.fit.flexW; textWidth(s) > w && w >= minWrapWidth {
		return wrapWords(s, w)
	}
	return nil
}

// wrapRows lays the rows out on n lines: from the window's first row,
// moved down until the cursor's row is whole on the screen, and up while
// the rows below leave room for a whole row more.
func (d *paneDraw) wrapRows(n int) {
	p := d.p
	flex := d.flexCell()
	if flex < 0 || n <= 0 || len(p.rows) == 0 {
		return
	}
	k := wrapKey{gen: p.gen, n: n, off: d.off, cursor: p.cursor, len: len(p.rows)}
	if pl := d.lines; pl != nil && pl.wrap.ok && pl.wrap.k == k {
		d.off, d.wrapped = pl.wrap.off, pl.wrap.lines
		return
	}
	if pl := d.lines; pl != nil {
		defer func() { pl.wrap = wrapCache{ok: true, k: k, off: d.off, lines: d.wrapped} }()
	}
	cur := min(max(p.cursor, 0), len(p.rows)-1)
	// The rows that can be on the screen: n either side of the window.
	lo, hi := max(0, min(d.off, cur)-n), min(len(p.rows), max(d.off, cur)+n+1)
	segs := make([][]string, hi-lo)
	seen := make([]bool, hi-lo)
	of := func(ri int) int {
		if !seen[ri-lo] {
			segs[ri-lo], seen[ri-lo] = d.rowSegs(ri, flex), true
		}
		return max(1, len(segs[ri-lo]))
	}
	off, used := d.off, 0
	for ri := off; ri <= cur; ri++ {
		used += of(ri)
	}
	for used > n && off < cur {
		used -= of(off)
		off++
	}
	// Room left below the last row: the rows above come back while whole.
	for ri := cur + 1; ri < hi && used < n; ri++ {
		used += of(ri)
	}
	for off > lo && used+of(off-1) <= n {
		off--
		used += of(off)
	}
	d.off = off
	d.wrapped = make([]wrapLine, 0, n)
	for ri := off; ri < hi && len(d.wrapped) < n; ri++ {
		if of(ri) == 1 {
			d.wrapped = append(d.wrapped, wrapLine{ri: ri, segs: 1})
			continue
		}
		ss := segs[ri-lo]
		for k, t := range ss {
			if len(d.wrapped) == n {
				break
			}
			d.wrapped = append(d.wrapped, wrapLine{ri: ri, seg: k, segs: len(ss), text: t})
		}
	}
}

// drawWrapped writes screen row j of a wrapping pane: a row that fits
// its line as any pane draws it, else the line of it that row j is.
func (d *paneDraw) drawWrapped(b *screenBuf, j int) {
	if j >= len(d.wrapped) {
		b.writeSpaces(d.w)
		return
	}
	l := d.wrapped[j]
	switch {
	case l.segs == 1:
		d.drawRowAt(b, j, l.ri)
		return
	case l.s != "":
		b.WriteString(l.s)
		return
	}
	p, flex := d.p, d.flexCell()
	lp, cells := p.rowCells(&d.c, l.ri, d.cols, nil)
	ri := l.ri
	if l.seg > 0 {
		// A continuation: the text alone, under itself; no cursor marker.
		for k := range cells {
			cells[k] = cellOut{}
		}
		ri = -1
	}
	cells[flex].s = l.text
	var sb strings.Builder
	p.writeRow(&sb, &d.c, ri, lp, cells, d.cols, d.fit, d.w)
	b.WriteString(sb.String())
	if d.lines != nil {
		d.wrapped[j].s = sb.String() // d.wrapped is the cached layout
	}
}

// wrappedRowAt is the row drawn on line row of a wrapping pane p in r
// (-1: none), and whether p wraps its rows now.
func (m *Model) wrappedRowAt(p *pane, r rect, row int) (int, bool) {
	if !p.wrap {
		return 0, false
	}
	d := p.drawer(viewCtx{cell: &cellCtx{now: m.now, mk: m.mk}, privacy: m.privacy}, r.w, r.h, nil)
	if d.wrapped == nil {
		return 0, false
	}
	if row < 0 || row >= len(d.wrapped) {
		return -1, true
	}
	return d.wrapped[row].ri, true
}
