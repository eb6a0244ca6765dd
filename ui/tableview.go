package ui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// viewCtx is what a pane's view needs besides the pane.
type viewCtx struct {
	cell      *cellCtx
	p         *paints
	noColor   bool
	privacy   bool
	focused   bool
	stale     string // the title's stale mark ("⚠ may be stale"); "" none
	filtering bool   // the filter is being typed
	title     string
	empty     string // shown when there are no rows
	note      string // after the row count (the fills' fee totals)
}

// hidden is what privacy mode shows instead of an amount.
const hidden = "•••"

// colFit is how the columns shown fit a pane's width: the width left
// for the flex column, and the column cut narrower than its cells (cut
// is its index + 1, 0 for none) with its width.
type colFit struct {
	flexW     int
	cut, cutW int
}

// cutGivesTo is the highest prio of a column that a column with a minW
// is cut (down to minW) to make room for: a long symbol never pushes
// the Fills' Time or a position's uPnL% off a narrow pane.
const cutGivesTo = 1

// visibleCols picks the columns that fit in w cells, dropping the highest
// priorities first, and the width left for a flex column. A column with
// a minW (the symbol) is cut, down to minW, for a column of prio
// cutGivesTo or less that would not fit otherwise, and for the columns
// that always show.
func (p *pane) visibleCols(w int, market bool) (cols []int, fit colFit) {
	order := make([]int, len(p.cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := p.cols[a].prio - p.cols[b].prio; d != 0 {
			return d
		}
		return boolIndex(p.cols[b].lead) - boolIndex(p.cols[a].lead)
	})
	used := 2 // the cursor marker
	flex, cut := -1, -1
	room := 0 // how much narrower the cut column can still be
	need := func(ci int) int {
		if c := &p.cols[ci]; c.flex {
			return max(len(c.title), 8) + 1
		}
		return p.widths[ci].w + 1
	}
	for _, ci := range order {
		c := &p.cols[ci]
		if c.mkt && !market || c.open && p.id == paneOrders && p.key.mode == 1 { // 1: the closed orders
			continue
		}
		if over := used + need(ci) - w; over > 0 && c.prio > 0 && (c.prio > cutGivesTo || over > room) {
			continue
		} else if over > 0 {
			room -= min(over, room)
		}
		used += need(ci)
		cols = append(cols, ci)
		switch {
		case c.flex:
			flex = ci
		case c.minW > 0 && cut < 0 && p.widths[ci].w > c.minW:
			cut, room = ci, p.widths[ci].w-c.minW
		}
	}
	slices.Sort(cols)
	cols = dropHalfPairs(p.cols, cols)
	used = 2
	for _, ci := range cols {
		used += need(ci)
	}
	if cut >= 0 && used > w && slices.Contains(cols, cut) {
		full := p.widths[cut].w
		fit.cut, fit.cutW = cut+1, max(p.cols[cut].minW, full-(used-w))
		used -= full - fit.cutW
	}
	if flex >= 0 {
		fit.flexW = max(len(p.cols[flex].title), 8) + (w - used)
	}
	return cols, fit
}

// dropHalfPairs removes a column marked withNext whose next column did
// not fit, and that next column when it did not (a bid without its ask
// misleads).
func dropHalfPairs(all []column, cols []int) []int {
	paired := false
	for _, ci := range cols {
		paired = paired || all[ci].withNext || (ci > 0 && all[ci-1].withNext)
	}
	if !paired {
		return cols
	}
	out := cols[:0:0]
	for i, ci := range cols {
		hasNext := i+1 < len(cols) && cols[i+1] == ci+1
		hasPrev := i > 0 && cols[i-1] == ci-1
		switch {
		case all[ci].withNext && !hasNext:
			continue
		case ci > 0 && all[ci-1].withNext && !hasPrev:
			continue
		}
		out = append(out, ci)
	}
	return out
}

// paneDraw is a pane ready to be drawn line by line into the screen's
// one buffer: exactly h lines of exactly w cells (a title, the column
// headers and the rows on screen). With a frame cache, a line whose
// inputs did not change since the last frame is copied, not drawn.
type paneDraw struct {
	p     *pane
	c     viewCtx
	w, h  int
	cols  []int
	fit   colFit
	off   int
	fc    *frameCache // nil: draw every line
	lines *paneLines  // the pane's cached lines (nil without fc)
	// wrapped are the row lines of a wrapping pane (wrap.go); nil: a row
	// a line.
	wrapped []wrapLine
}

func (p *pane) drawer(c viewCtx, w, h int, fc *frameCache) paneDraw {
	d := paneDraw{p: p, c: c, w: max(0, w), h: max(0, h)}
	if d.w > 0 && d.h > 1 {
		d.cols, d.fit = p.columns(w, c.cell.mk.live)
		d.off, _ = p.window(h - 2)
	}
	if fc != nil {
		d.fc, d.lines = fc, &fc.panes[p.id]
		d.lines.use(p, paneLook{w: d.w, fit: d.fit, focused: c.focused}, d.cols)
	}
	if p.wrap && d.w > 0 && d.h > 1 {
		d.wrapRows(h - 2)
	}
	return d
}

// line writes line i (0 ≤ i < h) of the pane.
func (d *paneDraw) line(b *screenBuf, i int) {
	p, w := d.p, d.w
	switch {
	case w == 0:
	case i == 0:
		b.WriteString(d.title())
	case i == 1:
		b.WriteString(d.header())
	case len(p.rows) == 0 && i == 2:
		b.WriteString(d.emptyLine())
	case d.wrapped != nil:
		d.drawWrapped(b, i-2)
	case d.off+i-2 < len(p.rows) && len(p.rows) > 0:
		d.drawRow(b, i-2)
	default:
		b.writeSpaces(w)
	}
}

// emptyLine is the line that says why there are no rows.
func (d *paneDraw) emptyLine() string {
	c, pl := &d.c, d.lines
	if pl != nil && pl.empty != "" && pl.emptyText == c.empty {
		return pl.empty
	}
	var sb strings.Builder
	sb.WriteString(c.p.muted.open)
	writeFit(&sb, "  "+c.empty, d.w)
	sb.WriteString(c.p.muted.close)
	if pl != nil {
		pl.empty, pl.emptyText = sb.String(), c.empty
	}
	return sb.String()
}

// done ends the pane's frame (the lines drawn become the cached ones).
func (d *paneDraw) done() {
	if d.lines != nil {
		d.lines.done()
	}
}

// title is the pane's title line.
func (d *paneDraw) title() string {
	p, c := d.p, &d.c
	pl := d.lines
	if pl == nil {
		return p.titleLine(c, d.w)
	}
	k := titleKey{title: c.title, note: c.note, filter: p.filter, n: len(p.rows), notOpen: p.notOpen, sort: p.sortIdx, desc: p.desc,
		filtering: c.filtering, stale: c.stale, focused: c.focused, w: d.w}
	if !pl.titleOK || pl.titleKey != k {
		pl.titleOK, pl.titleKey, pl.title = true, k, p.titleLine(c, d.w)
	}
	return pl.title
}

// header is the column headers' line.
func (d *paneDraw) header() string {
	if d.lines != nil && d.lines.header != "" {
		return d.lines.header
	}
	p := d.p
	var h strings.Builder
	h.Grow(d.w + 8)
	h.WriteString("  ")
	width := 2
	for _, ci := range d.cols {
		width += p.colW(ci, d.fit) + 1
	}
	cut, x := width > d.w, 2
	for _, ci := range d.cols {
		col := &p.cols[ci]
		cw := p.colW(ci, d.fit)
		start := x
		x += cw + 1
		switch {
		case cut && col.align != alignLeft && x-1 >= d.w:
			// The line's end cuts the column (writeCells draws what of
			// its numbers reads right): a decimal column whose widest
			// integer part and a decimal show keeps its title, ending
			// where the integer parts end.
			vis, wd := d.w-1-start, p.widths[ci]
			end := max(wd.intW, len(col.title))
			if n := len(col.title); col.align == alignDec && wd.fracW > 0 && wd.intW+2 <= vis && end <= vis {
				writeSpaces(&h, end-n)
				h.WriteString(col.title)
				writeSpaces(&h, cw-end)
			} else {
				writeSpaces(&h, cw)
			}
		case col.align == alignLeft:
			writeFit(&h, col.title, cw)
		default:
			writeSpaces(&h, cw-len(col.title))
			h.WriteString(col.title)
		}
		h.WriteByte(' ')
	}
	var b strings.Builder
	b.WriteString(d.c.p.colHeader.open)
	writeFit(&b, h.String(), d.w)
	b.WriteString(d.c.p.colHeader.close)
	if d.lines != nil {
		d.lines.header = b.String()
	}
	return b.String()
}

func (p *pane) colW(ci int, fit colFit) int {
	switch {
	case p.cols[ci].flex:
		return fit.flexW
	case fit.cut == ci+1:
		return fit.cutW
	}
	return p.widths[ci].w
}

// rowCells computes row ri's cells in cols, appended to dst, and the
// paint of its line: what writeRow draws.
func (p *pane) rowCells(c *viewCtx, ri int, cols []int, dst []cellOut) (paint, []cellOut) {
	it, sel := &p.rows[ri], ri == p.cursor
	rowPaint := paint{}
	if p.rowPaint != nil {
		rowPaint = p.rowPaint(it, c.p)
	}
	// The line's paint opens the line and closes it after the padding; a
	// painted cell inside re-opens it after its own close.
	lp := rowPaint
	switch {
	case sel && c.focused:
		lp = c.p.selected
	case sel:
		lp = c.p.muted
	}
	for _, ci := range cols {
		col := &p.cols[ci]
		var s string
		memoOK := false
		if col.memo {
			s, memoOK = p.memoText(ci, ri, c.cell.mk)
		}
		if !memoOK {
			s = col.text(it, c.cell)
		}
		if c.privacy {
			switch {
			case col.money && s != "":
				s = hidden
			case col.mask:
				s = maskNumbers(s)
			}
		}
		var cp paint
		if !sel && (rowPaint.open == "" || col.paintOver) {
			switch {
			case col.paint != nil:
				cp = col.paint(it, c.p)
			case col.textPaint != nil:
				cp = col.textPaint(s, c.p)
			}
		}
		dst = append(dst, cellOut{s: s, cp: cp})
	}
	return lp, dst
}

// writeRow writes row ri from its cells, exactly w cells wide: a cursor
// marker, the cells, and the line's paint lp.
func (p *pane) writeRow(out *strings.Builder, c *viewCtx, ri int, lp paint, cells []cellOut, cols []int, cf colFit, w int) {
	width := 2
	for _, ci := range cols {
		width += p.colW(ci, cf) + 1
	}
	out.Grow(w + 64)
	p.writeCells(out, c, ri, lp, cells, cols, cf, w, width > w) // rare: the columns overflow, so cut to w
}

// writeCells writes row ri's cells in the line's paint, padded to w; with
// cut, b holds only this row and is cut to w at the end.
func (p *pane) writeCells(b *strings.Builder, c *viewCtx, ri int, lp paint, cells []cellOut, cols []int, cf colFit, w int, cut bool) {
	sel := ri == p.cursor
	b.WriteString(lp.open)
	if sel {
		if c.focused {
			b.WriteString("▶ ")
		} else {
			b.WriteString("› ")
		}
	} else {
		b.WriteString("  ")
	}
	width := 2
	abut := false // a number ends where the cut line's "…" goes
	for k, ci := range cols {
		col := &p.cols[ci]
		cw := p.colW(ci, cf)
		s, cp := cells[k].s, cells[k].cp
		abut = abut || cut && col.align != alignLeft && width+cw == w-1
		b.WriteString(cp.open)
		edge := cut && col.align != alignLeft && width+cw >= w
		if edge {
			// The line's end cuts this column: what its "…" leaves of
			// the number must read right, else it is left out whole.
			shows, touches := p.showsCut(ci, s, cw, w-1-width)
			if !shows {
				s = ""
			}
			abut = abut || touches
		}
		switch {
		case edge && s == "":
			writeSpaces(b, cw)
		case col.money && c.privacy && s == hidden:
			writeSpaces(b, cw-3)
			b.WriteString(s)
		case col.align == alignDec && textWidth(s) <= cw:
			wd := p.widths[ci]
			padDec(b, s, wd.intW, wd.fracW)
			writeSpaces(b, cw-decWidth(wd.intW, wd.fracW))
		case col.align == alignRight || col.align == alignDec:
			tw := textWidth(s)
			if tw > cw {
				s = fit(s, cw)
				tw = cw
			}
			writeSpaces(b, cw-tw)
			b.WriteString(s)
		default:
			writeFit(b, s, cw)
		}
		b.WriteString(cp.close)
		if cp.open != "" {
			b.WriteString(lp.open) // back to the line's colour after the cell
		}
		b.WriteByte(' ')
		width += cw + 1
	}
	if cut {
		s := b.String()[len(lp.open):]
		if abut { // a whole 0.01 must not read "0.01…"
			s = ansi.Truncate(s, w-1, "") + " "
		}
		s = lp.wrap(fitStyled(s, w))
		b.Reset()
		b.WriteString(s)
		return
	}
	writeSpaces(b, w-width)
	b.WriteString(lp.close)
}

// showsCut says whether number s of column ci (cw cells wide), cut by
// the line's "…" after its first vis cells, is drawn: whole, when it
// ends within them (touches: right against the "…", which must then
// give way, or it would read cut), or cut as a price is where it does
// not fit (its start, the "…" for the rest: fitValue) when its integer
// part, the point and at least one decimal show and a digit other than
// 0 is among them. A number whose integer part would be cut (10 as
// "1…"), or that would read as zero (0.004 as "0.0…"), is left out:
// the "…" says that more is hidden.
func (p *pane) showsCut(ci int, s string, cw, vis int) (shows, touches bool) {
	tw := textWidth(s)
	lead := cw - tw // alignRight
	if p.cols[ci].align == alignDec && tw <= cw {
		iw, _ := decParts(s)
		lead = p.widths[ci].intW - iw
	}
	switch end := lead + tw; {
	case end <= vis:
		return true, end == vis
	case s == hidden || len(s) != tw: // a mask or a word: whole or not at all
		return false, false
	}
	k := vis - lead // the cells of s that show
	dot := strings.IndexByte(s, '.')
	return dot >= 0 && k >= dot+2 && strings.ContainsAny(s[:k], "123456789"), false
}

// titleLine is the pane's first line: its name, row count, sort, filter,
// the pane's note (the Fills fee totals, cut first when the pane is
// narrow) and the stale marker.
func (p *pane) titleLine(c *viewCtx, w int) string {
	var b strings.Builder
	if c.focused {
		b.WriteString("▶ ")
	} else {
		b.WriteString("  ")
	}
	b.WriteString(c.title)
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(len(p.rows) - p.notOpen))
	b.WriteString(")")
	if p.notOpen > 0 {
		b.WriteString("  +")
		b.WriteString(strconv.Itoa(p.notOpen))
		b.WriteString(" not placed")
	}
	if s := p.sortName(); s != "" {
		b.WriteString("  sort:")
		b.WriteString(s)
		if p.desc {
			b.WriteString(" ↓")
		} else {
			b.WriteString(" ↑")
		}
	}
	if p.filter != "" || c.filtering {
		b.WriteString("  filter:/")
		b.WriteString(p.filter)
		if c.filtering {
			b.WriteString("█")
		}
	}
	mark := ""
	if c.stale != "" {
		mark = "  " + c.stale
	}
	if c.note != "" {
		note := c.note
		if c.privacy {
			note = maskNumbers(note)
		}
		if room := w - textWidth(b.String()) - 2 - textWidth(mark); room > 0 {
			if note = fitNote(note, room); note != "" {
				b.WriteString("  ")
				b.WriteString(note)
			}
		}
	}
	title := b.String()
	pt := c.p.title
	if c.focused {
		pt = c.p.titleFocused
	}
	if c.stale == "" {
		return pt.wrap(fit(title, w))
	}
	tw := textWidth(title)
	if tw+textWidth(mark) > w {
		title = fit(title, max(0, w-textWidth(mark)))
		tw = textWidth(title)
	}
	return pt.wrap(title) + c.p.stale.wrap(fit(mark, w-tw))
}

// fitNote fits a title's note ("fees 1.5 BNB · 0.3 USDT · …") in room
// cells: the items it lists (split at " · ") give way whole from the
// end, counted as "+N more", so an amount is never cut; "" when not even
// its first word and the count fit.
func fitNote(note string, room int) string {
	if textWidth(note) <= room {
		return note
	}
	parts := strings.Split(note, " · ")
	for k := len(parts) - 1; k >= 1; k-- {
		s := strings.Join(parts[:k], " · ") + " · +" + strconv.Itoa(len(parts)-k) + " more"
		if textWidth(s) <= room {
			return s
		}
	}
	label, _, _ := strings.Cut(parts[0], " ")
	if s := label + " +" + strconv.Itoa(len(parts)) + " more"; len(parts) > 1 && textWidth(s) <= room {
		return s
	}
	return ""
}

// maskNumbers replaces every number in free text with the privacy mark,
// so events like "fill BUY 0.5 ETHBTC @ 0.0345" keep their words only.
func maskNumbers(s string) string {
	var b strings.Builder
	inNum := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		digit := ch >= '0' && ch <= '9'
		if digit || (inNum && ch == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
			if !inNum {
				b.WriteString(hidden)
				inNum = true
			}
			continue
		}
		inNum = false
		b.WriteByte(ch)
	}
	return b.String()
}
