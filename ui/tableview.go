package ui

import (
	"slices"
	"strconv"
	"strings"
)

// viewCtx is what a pane's view needs besides the pane.
type viewCtx struct {
	cell      cellCtx
	p         *paints
	noColor   bool
	privacy   bool
	focused   bool
	stale     bool
	filtering bool // the filter is being typed
	title     string
	empty     string // shown when there are no rows
}

// hidden is what privacy mode shows instead of an amount.
const hidden = "•••"

// visibleCols picks the columns that fit in w cells, dropping the highest
// priorities first, and the width left for a flex column.
func (p *pane) visibleCols(w int, market bool) (cols []int, flexW int) {
	order := make([]int, len(p.cols))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return p.cols[a].prio - p.cols[b].prio })
	used := 2 // the cursor marker
	flex := -1
	for _, ci := range order {
		c := &p.cols[ci]
		if c.mkt && !market {
			continue
		}
		need := p.widths[ci].w + 1
		if c.flex {
			need = max(len(c.title), 8) + 1
		}
		if used+need > w && c.prio > 0 {
			continue
		}
		used += need
		cols = append(cols, ci)
		if c.flex {
			flex = ci
		}
	}
	slices.Sort(cols)
	cols = dropHalfPairs(p.cols, cols)
	if flex >= 0 {
		flexW = max(len(p.cols[flex].title), 8) + (w - used)
	}
	return cols, flexW
}

// dropHalfPairs removes a column marked withNext whose next column did
// not fit, and that next column when it did not (a bid without its ask
// misleads).
func dropHalfPairs(all []column, cols []int) []int {
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

// view draws the pane in exactly h lines of exactly w cells: a title, the
// column headers and the rows on screen; nothing else is touched.
func (p pane) view(c viewCtx, w, h int) []string {
	if h <= 0 || w <= 0 {
		return nil
	}
	lines := make([]string, 0, h)
	lines = append(lines, p.titleLine(c, w))
	if h == 1 {
		return lines
	}
	cols, flexW := p.visibleCols(w, c.cell.mk.live)
	var b strings.Builder
	b.WriteString("  ")
	for _, ci := range cols {
		col := &p.cols[ci]
		cw := p.colW(ci, flexW)
		if col.align == alignLeft {
			b.WriteString(fit(col.title, cw))
		} else {
			writeSpaces(&b, cw-len(col.title))
			b.WriteString(col.title)
		}
		b.WriteByte(' ')
	}
	lines = append(lines, c.p.colHeader.wrap(fit(b.String(), w)))

	body := h - 2
	if len(p.rows) == 0 {
		for i := 0; i < body; i++ {
			if i == 0 {
				lines = append(lines, c.p.muted.wrap(fit("  "+c.empty, w)))
				continue
			}
			lines = append(lines, strings.Repeat(" ", w))
		}
		return lines
	}
	off := max(0, min(p.offset, len(p.rows)-body))
	if p.cursor < off {
		off = p.cursor
	} else if p.cursor >= off+body {
		off = p.cursor - body + 1
	}
	for i := 0; i < body; i++ {
		ri := off + i
		if ri >= len(p.rows) {
			lines = append(lines, strings.Repeat(" ", w))
			continue
		}
		lines = append(lines, p.rowLine(c, &p.rows[ri], ri == p.cursor, cols, flexW, w))
	}
	return lines
}

func (p *pane) colW(ci, flexW int) int {
	if p.cols[ci].flex {
		return flexW
	}
	return p.widths[ci].w
}

// rowLine draws one row: a cursor marker, the cells, and the row's paint.
func (p *pane) rowLine(c viewCtx, it *item, sel bool, cols []int, flexW, w int) string {
	var b strings.Builder
	b.Grow(w + 32)
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
	rowPaint := paint{}
	if p.rowPaint != nil {
		rowPaint = p.rowPaint(it, c.p)
	}
	for _, ci := range cols {
		col := &p.cols[ci]
		cw := p.colW(ci, flexW)
		s := col.text(it, &c.cell)
		if c.privacy {
			switch {
			case col.money && s != "":
				s = hidden
			case col.mask:
				s = maskNumbers(s)
			}
		}
		var cp paint
		if !sel && col.paint != nil && (rowPaint.open == "" || col.paintOver) {
			cp = col.paint(it, c.p)
			if rowPaint.open != "" && cp.open != "" {
				cp.close += rowPaint.open // back to the row's colour after the cell
			}
		}
		b.WriteString(cp.open)
		switch {
		case col.money && c.privacy && s == hidden:
			writeSpaces(&b, cw-3)
			b.WriteString(s)
		case col.align == alignDec && textWidth(s) <= cw:
			wd := p.widths[ci]
			padDec(&b, s, wd.intW, wd.fracW)
			writeSpaces(&b, cw-decWidth(wd.intW, wd.fracW))
		case col.align == alignRight || col.align == alignDec:
			tw := textWidth(s)
			if tw > cw {
				s = fit(s, cw)
				tw = cw
			}
			writeSpaces(&b, cw-tw)
			b.WriteString(s)
		default:
			writeFit(&b, s, cw)
		}
		b.WriteString(cp.close)
		b.WriteByte(' ')
		width += cw + 1
	}
	line := b.String()
	if width > w {
		line = fitStyled(line, w)
	} else if width < w {
		line += strings.Repeat(" ", w-width)
	}
	switch {
	case sel && c.focused:
		return c.p.selected.wrap(line)
	case sel:
		return c.p.muted.wrap(line)
	}
	return rowPaint.wrap(line)
}

// titleLine is the pane's first line: its name, row count, sort, filter
// and the stale marker.
func (p *pane) titleLine(c viewCtx, w int) string {
	var b strings.Builder
	if c.focused {
		b.WriteString("▶ ")
	} else {
		b.WriteString("  ")
	}
	b.WriteString(c.title)
	b.WriteString(" (")
	b.WriteString(strconv.Itoa(len(p.rows)))
	b.WriteString(")")
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
	title := b.String()
	pt := c.p.title
	if c.focused {
		pt = c.p.titleFocused
	}
	if !c.stale {
		return pt.wrap(fit(title, w))
	}
	mark := "  ⚠ may be stale"
	tw := textWidth(title)
	if tw+textWidth(mark) > w {
		title = fit(title, max(0, w-textWidth(mark)))
		tw = textWidth(title)
	}
	return pt.wrap(title) + c.p.stale.wrap(fit(mark, w-tw))
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
