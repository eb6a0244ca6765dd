package ui

// cellMemo holds the texts of the memo columns for the rows on screen,
// computed in Update so that View, which runs far more often than the
// rows or the market change, only reads them.
type cellMemo struct {
	key   memoKey
	cols  []int    // the pane's memo columns
	texts []string // row-major: (row − from) × len(cols) + k
}

// memoKey is what the memoized texts depend on.
type memoKey struct {
	gen      uint64 // the pane's rows
	mk       uint64 // the market view
	from, to int    // the rows covered
}

// visCache is the columns a pane shows at a width, chosen in Update.
type visCache struct {
	gen    uint64
	w      int
	market bool
	cols   []int
	fit    colFit
}

// prepare does in Update what View would otherwise do every frame: pick
// the columns for width w and memoize the costly cells of the h rows on
// screen.
func (p *pane) prepare(w, h int, mk *mktView) {
	if v := &p.vis; w > 0 && (v.cols == nil || v.gen != p.gen || v.w != w || v.market != mk.live) {
		cols, fit := p.visibleCols(w, mk.live)
		p.vis = visCache{gen: p.gen, w: w, market: mk.live, cols: cols, fit: fit}
	}
	p.memoize(h, mk)
}

// columns is the columns to show at width w and the widths of the flex
// and the cut columns.
func (p *pane) columns(w int, market bool) ([]int, colFit) {
	if v := &p.vis; v.cols != nil && v.gen == p.gen && v.w == w && v.market == market {
		return v.cols, v.fit
	}
	return p.visibleCols(w, market)
}

// shows reports whether the column titled title is among those drawn in
// w cells.
func (p *pane) shows(title string, w int, market bool) bool {
	cols, _ := p.columns(w, market)
	for _, ci := range cols {
		if p.cols[ci].title == title {
			return true
		}
	}
	return false
}

// memoize computes the memo columns' texts of the rows a window of h rows
// shows (the window View computes from the same offset and cursor).
func (p *pane) memoize(h int, mk *mktView) {
	if p.memo.cols == nil {
		for i := range p.cols {
			if p.cols[i].memo {
				p.memo.cols = append(p.memo.cols, i)
			}
		}
		if p.memo.cols == nil {
			p.memo.cols = []int{}
		}
	}
	if len(p.memo.cols) == 0 || h <= 0 {
		return
	}
	from, to := p.window(h)
	k := memoKey{gen: p.gen, mk: mk.seq, from: from, to: to}
	if k == p.memo.key && p.memo.texts != nil {
		return
	}
	texts := make([]string, 0, (to-from)*len(p.memo.cols))
	cc := &cellCtx{mk: mk}
	for ri := from; ri < to; ri++ {
		for _, ci := range p.memo.cols {
			texts = append(texts, p.cols[ci].text(&p.rows[ri], cc))
		}
	}
	p.memo = cellMemo{key: k, cols: p.memo.cols, texts: texts}
}

// window is the rows [from, to) a window of h rows shows.
func (p *pane) window(h int) (from, to int) {
	off := max(0, min(p.offset, len(p.rows)-h))
	if p.cursor < off {
		off = p.cursor
	} else if p.cursor >= off+h {
		off = p.cursor - h + 1
	}
	off = max(0, off)
	return off, min(len(p.rows), off+h)
}

// memoText is the memoized text of column ci in row ri, if there is one
// for the current rows and market view.
func (p *pane) memoText(ci, ri int, mk *mktView) (string, bool) {
	m := &p.memo
	if m.key.gen != p.gen || m.key.mk != mk.seq || ri < m.key.from || ri >= m.key.to {
		return "", false
	}
	for k, c := range m.cols {
		if c == ci {
			return m.texts[(ri-m.key.from)*len(m.cols)+k], true
		}
	}
	return "", false
}
