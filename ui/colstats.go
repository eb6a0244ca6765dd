package ui

// colStats is, per column, the widest cells over some rows and how many
// rows have them: what a column's width is made from, kept so that rows
// taken out and put in change it without measuring every row again.
type colStats []colStat

// colStat is one column's widest text (text columns) or widest integer
// and fraction parts (decimal columns), each with how many rows reach it.
type colStat struct {
	w, intW, fracW  int
	wN, intN, fracN int
}

// measured reports whether a column's width depends on its rows' texts.
func measured(c *column) bool { return c.fixed == 0 && !c.flex }

// measureStats measures the columns which picks over rows.
func measureStats(cols []column, rows []item, cc *cellCtx, which func(c *column) bool) colStats {
	st := make(colStats, len(cols))
	for ci := range cols {
		if c := &cols[ci]; which(c) && measured(c) {
			st.measureCol(cols, ci, rows, cc)
		}
	}
	return st
}

// measureCol measures column ci over rows afresh.
func (st colStats) measureCol(cols []column, ci int, rows []item, cc *cellCtx) {
	st[ci] = colStat{}
	for ri := range rows {
		st.row(cols, ci, &rows[ri], cc, 1)
	}
}

// row counts (sign 1) or uncounts (-1) one row's cell of column ci; it
// reports false when a widest cell was uncounted by its last row (the
// column must be measured again).
func (st colStats) row(cols []column, ci int, it *item, cc *cellCtx, sign int) bool {
	c, s := &cols[ci], &st[ci]
	t := c.text(it, cc)
	if c.align == alignDec {
		iw, fw := decParts(t)
		return count(&s.intW, &s.intN, iw, sign) && count(&s.fracW, &s.fracN, fw, sign)
	}
	return count(&s.w, &s.wN, len(t), sign)
}

// count adds v to (or takes it from) the maximum top reached by n rows.
func count(top, n *int, v, sign int) bool {
	switch {
	case sign > 0 && v > *top:
		*top, *n = v, 1
	case v == *top:
		*n += sign
		return *n > 0 || *top == 0
	}
	return true
}

// patch returns st for rows, which are st's rows less gone plus added:
// the columns which picks are counted again for those rows alone, and
// measured again over rows only when their widest cells went.
func (st colStats) patch(cols []column, rows, gone, added []item, cc *cellCtx, which func(c *column) bool) colStats {
	out := append(colStats(nil), st...)
	for ci := range cols {
		if c := &cols[ci]; !which(c) || !measured(c) {
			continue
		}
		ok := true
		for i := range added {
			out.row(cols, ci, &added[i], cc, 1)
		}
		for i := range gone {
			ok = out.row(cols, ci, &gone[i], cc, -1) && ok
		}
		if !ok {
			out.measureCol(cols, ci, rows, cc)
		}
	}
	return out
}

// widths writes into widths the widths of the columns which picks.
func (st colStats) widths(cols []column, widths []colWidth, which func(c *column) bool) {
	for ci := range cols {
		c := &cols[ci]
		if !which(c) {
			continue
		}
		s := &st[ci]
		cw := colWidth{w: textWidth(c.title)}
		switch {
		case c.fixed > 0:
			cw.w = max(cw.w, c.fixed)
		case c.flex:
		case c.align == alignDec:
			cw.intW, cw.fracW = s.intW, s.fracW
			cw.w = max(cw.w, decWidth(cw.intW, cw.fracW))
			if cw.intW+cw.fracW == 0 {
				cw.intW = 1
			}
		default:
			cw.w = max(cw.w, s.w)
		}
		if c.money {
			cw.w = max(cw.w, 3)
		}
		if c.max > 0 {
			cw.w = min(cw.w, c.max)
		}
		widths[ci] = cw
	}
}
