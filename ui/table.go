package ui

import (
	"slices"
	"strings"
	"time"

	"bhtop/state"
	"bhtop/upstream"
)

// mktCells is what a pane's market cells read of the market view.
type mktCells int

const (
	cellsView   mktCells = iota // anything: a new view redraws the rows
	cellsQuotes                 // the market snapshot's quotes only
	cellsAssets                 // the assets' cells (balances)
	cellsPos                    // the positions' cells
)

// align says how a column's cells line up.
type align int

const (
	alignLeft  align = iota
	alignRight       // right-aligned text
	alignDec         // numbers aligned on the decimal point
)

// item is one row of a pane: exactly one of its pointers is set. Pointers
// point into an immutable Snapshot (or the notes slice), so building rows
// copies nothing.
type item struct {
	bal   *state.Balance
	total string // free + locked, for balances
	ord   *state.Order
	pend  *state.Pending
	pos   *state.Position
	note  *upstream.Note
	mrow  *mktRow // a Market pane row
	fill  *state.Fill
	// idx is the row's index in the snapshot's slice (positions: the
	// market view's cells are index-aligned with them).
	idx int
	// upnlSign is a position's unrealized PnL sign (its colour).
	upnlSign int8
}

// id identifies an item across snapshots, so the cursor stays on it.
func (it *item) id() string {
	switch {
	case it.bal != nil:
		return it.bal.Asset
	case it.ord != nil:
		return it.ord.Market + "/" + it.ord.OrderID
	case it.pend != nil:
		return "pending/" + it.pend.ClientOrderID
	case it.pos != nil:
		return it.pos.AccountID + "/" + it.pos.Symbol + "/" + it.pos.Side
	case it.note != nil:
		return string(rune(0)) + itoa(it.note.Seq)
	case it.mrow != nil:
		return it.mrow.symbol
	case it.fill != nil && it.fill.Seq != 0: // the Store's: kept when it gains its trade id
		return "fill#" + itoa(it.fill.Seq)
	case it.fill != nil:
		return "fill/" + it.fill.Market + "/" + it.fill.OrderID + "/" + it.fill.TradeID + "/" + it.fill.Qty + "/" + itoa(uint64(it.fill.Time))
	}
	return ""
}

// column describes one column of a pane.
type column struct {
	title string
	align align
	prio  int // narrow screens drop the highest prio first; 0 always shows
	// lead: first among the columns of its prio (a position's Mark: it
	// gives way to the columns that always show, never to another of
	// its prio).
	lead bool
	max  int // cap on a text column's width (0: none)
	// minW: a text column (the symbol) that may be cut with "…" down to
	// this width to make room for another (visibleCols).
	minW  int
	fixed int  // fixed width, for cells that change with time
	flex  bool // takes the width left over
	money bool // hidden in privacy mode
	mkt   bool // market data: not shown when there is no market at all
	// open: only an open order has it (its distance to fill, working);
	// not shown in the closed orders (history), where it is blank.
	open bool
	// withNext: shown only together with the next column (bid and ask).
	withNext bool
	// memo: the cell costs arithmetic, so the rows on screen are computed
	// in Update (pane.memoize) and View reads them.
	memo bool
	mask bool // free text whose numbers privacy mode hides
	text func(it *item, c *cellCtx) string
	// clock is set on a column whose text changes with the clock (an
	// age): a key of the text it shows at now, so a drawn row is reused
	// while its key stays the same.
	clock func(it *item, c *cellCtx) int64
	cmp   func(a, b *item) int // nil: not a sort column (unless mcmp is set)
	// mcmp sorts a column that depends on the market.
	mcmp  func(a, b *item, c *cellCtx) int
	paint func(it *item, p *paints) paint
	// textPaint colours a cell by its text (a distance that is close).
	textPaint func(s string, p *paints) paint
	// paintOver: the column's paint shows over the row's paint (a
	// position's PnL colour over its side colour).
	paintOver bool
}

// cellCtx is what a cell's text may depend on besides its row: the clock
// (ages) and the market (prices, values). Sorting, filtering and measuring
// see a zero clock, so cells that change with time have fixed widths.
type cellCtx struct {
	now time.Time
	// offset is the service's clock minus ours (measured): an order's
	// creation time is on the service's clock.
	offset time.Duration
	mk     *mktView // never nil once the model is built
}

// colWidth is a column's width over the pane's current rows.
type colWidth struct{ w, intW, fracW int }

// cacheKey is what a pane's rows depend on: when it has not changed, the
// filtered and sorted rows are reused as they are.
type cacheKey struct {
	version uint64
	market  uint64 // the market view's sequence, for panes that show it
	mode    int
	sortIdx int
	desc    bool
	filter  string
}

// pane is one table of the dashboard. It is a value: Update-side methods
// with pointer receivers rebuild its rows; its view is pure.
type pane struct {
	id      paneID
	cols    []column
	sorts   []int // indexes of sortable columns
	sortIdx int   // index into sorts; -1 is the natural order
	desc    bool
	filter  string
	cursor  int
	offset  int
	follow  bool // stick to the newest row (events)
	wrap    bool // a row too long for its flex column goes on more lines (events; wrap.go)
	pinned  int  // rows at the top kept out of sorting (pending orders)
	// notOpen counts the pinned rows of orders known not to have been
	// placed (NOT_PLACED): listed, with why, but not counted as open.
	notOpen int
	// rowPaint colours a whole row (positions by side, pending orders).
	rowPaint func(it *item, p *paints) paint
	// usesMarket: the rows show market data, so a new market view
	// rebuilds them; itemsUseMarket: the items themselves are built from
	// it (not only their cells).
	usesMarket, itemsUseMarket bool
	// cellsFrom says what the rows' market cells read, so that a new
	// market view redraws them only when that changed.
	cellsFrom mktCells
	rows      []item
	gen       uint64 // grows with every setRows that rebuilt the rows
	memo      cellMemo
	vis       visCache
	widths    []colWidth
	key       cacheKey
	builtOK   bool
	// shared is the RowCache's rows the pane shows (nil: its own).
	shared *sharedRows
}

func newPane(id paneID, cols []column) pane {
	p := pane{id: id, cols: cols, sortIdx: -1}
	for i, c := range cols {
		if c.cmp != nil || c.mcmp != nil {
			p.sorts = append(p.sorts, i)
		}
	}
	return p
}

// setRows filters, sorts and measures src unless nothing it depends on
// changed since the last call. pinned leading rows stay on top unsorted.
func (p *pane) setRows(src []item, version uint64, mode, pinned int, mk *mktView) {
	k, ok := p.rowsKey(version, mode, mk)
	if !ok {
		return
	}
	rows := make([]item, 0, len(src))
	needle := strings.ToLower(p.filter)
	kept := 0
	cc := &cellCtx{mk: mk}
	for i := range src {
		if needle != "" && !p.matches(&src[i], needle, cc) {
			continue
		}
		if i < pinned {
			kept++
		}
		rows = append(rows, src[i])
	}
	if p.sortIdx >= 0 && p.sortIdx < len(p.sorts) {
		col := &p.cols[p.sorts[p.sortIdx]]
		cmp := col.cmp
		if cmp == nil {
			cmp = func(a, b *item) int { return col.mcmp(a, b, cc) }
		}
		sortRows(rows[kept:], cmp, p.desc)
	}
	p.shared = nil
	p.install(k, rows, kept, mk)
}

// setShared takes rows built for every dashboard (RowCache) unless
// nothing they depend on changed since the last call; they are never
// written.
func (p *pane) setShared(r *sharedRows, version uint64, mode int, mk *mktView) {
	if k, ok := p.rowsKey(version, mode, mk); ok {
		p.shared = r
		p.install(k, r.rows, r.pinned, mk)
	}
}

// rowsKey is the key of the rows for version and mode, and whether they
// must be built again (false: they are the current ones, re-measured if
// only the market view changed).
func (p *pane) rowsKey(version uint64, mode int, mk *mktView) (cacheKey, bool) {
	var mseq uint64
	if p.usesMarket {
		mseq = mk.seq
	}
	k := cacheKey{version: version, market: mseq, mode: mode, sortIdx: p.sortIdx, desc: p.desc, filter: p.filter}
	if p.builtOK && k == p.key {
		return k, false
	}
	if p.onlyMarketChanged(k) {
		p.remeasureMarket(k, mk)
		return k, false
	}
	return k, true
}

// install makes rows the pane's rows (pinned leading ones), measures them
// (shared rows come measured) and keeps the cursor on the row it was on.
func (p *pane) install(k cacheKey, rows []item, pinned int, mk *mktView) {
	var selected string
	if p.cursor >= 0 && p.cursor < len(p.rows) {
		selected = p.rows[p.cursor].id()
	}
	prevLen := len(p.rows)
	p.key, p.builtOK = k, true
	p.rows, p.pinned = rows, pinned
	p.notOpen = 0
	for i := range rows[:pinned] {
		if rows[i].pend != nil && rows[i].pend.Status == state.PendingNotPlaced {
			p.notOpen++
		}
	}
	p.gen++
	if p.shared == nil {
		p.measure(&cellCtx{mk: mk})
	} else {
		p.widths = append(p.widths[:0], p.shared.widths...)
		p.measureMarket(mk)
	}

	switch {
	case p.follow && (p.cursor >= prevLen-1):
		p.cursor = len(rows) - 1
	case selected != "":
		if p.cursor >= len(rows) || rows[p.cursor].id() != selected {
			for i := range rows {
				if rows[i].id() == selected {
					p.cursor = i
					break
				}
			}
		}
	}
	p.clamp()
}

func (p *pane) matches(it *item, needle string, cc *cellCtx) bool {
	for i := range p.cols {
		if p.cols[i].fixed > 0 {
			continue
		}
		if strings.Contains(strings.ToLower(p.cols[i].text(it, cc)), needle) {
			return true
		}
	}
	return false
}

// onlyMarketChanged reports whether k differs from the rows' key only by
// the market view, and the rows cannot depend on it: the items are built
// from the state alone, and neither the sort nor a filter reads market
// cells.
func (p *pane) onlyMarketChanged(k cacheKey) bool {
	old := p.key
	old.market = k.market
	if !p.builtOK || p.itemsUseMarket || old != k || k.filter != "" {
		return false
	}
	return k.sortIdx < 0 || k.sortIdx >= len(p.sorts) || p.cols[p.sorts[k.sortIdx]].mcmp == nil
}

// measure computes every column's width over all current rows.
func (p *pane) measure(cc *cellCtx) {
	if cap(p.widths) < len(p.cols) {
		p.widths = make([]colWidth, len(p.cols))
	}
	p.widths = p.widths[:len(p.cols)]
	p.measureCols(cc, func(*column) bool { return true })
}

// measureCols computes the widths of the columns which picks.
func (p *pane) measureCols(cc *cellCtx, which func(c *column) bool) {
	measureCols(p.cols, p.rows, p.widths, cc, which)
}

// measureCols computes into widths the widths over rows of the columns
// which picks.
func measureCols(cols []column, rows []item, widths []colWidth, cc *cellCtx, which func(c *column) bool) {
	measureStats(cols, rows, cc, which).widths(cols, widths, which)
}

// clamp keeps the cursor on a row (or at -1 when there are none).
func (p *pane) clamp() {
	if len(p.rows) == 0 {
		p.cursor, p.offset = 0, 0
		return
	}
	p.cursor = max(0, min(p.cursor, len(p.rows)-1))
}

// move moves the cursor by d rows.
func (p *pane) move(d int) {
	p.cursor += d
	p.clamp()
	p.follow = p.id == paneEvents && p.cursor >= len(p.rows)-1
}

// scrollTo keeps the cursor visible in a window of h rows.
func (p *pane) scrollTo(h int) {
	if h <= 0 {
		return
	}
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+h {
		p.offset = p.cursor - h + 1
	}
	p.offset = max(0, min(p.offset, len(p.rows)-h))
}

// nextSort steps to the next sort column (after the last: natural order).
func (p *pane) nextSort() {
	if len(p.sorts) == 0 {
		return
	}
	p.sortIdx++
	if p.sortIdx >= len(p.sorts) {
		p.sortIdx = -1
	}
}

// sortName names the current sort for the title.
func (p *pane) sortName() string {
	if p.sortIdx < 0 || p.sortIdx >= len(p.sorts) {
		return ""
	}
	return p.cols[p.sorts[p.sortIdx]].title
}

// selected returns the row under the cursor.
func (p *pane) selected() (item, bool) {
	if p.cursor < 0 || p.cursor >= len(p.rows) {
		return item{}, false
	}
	return p.rows[p.cursor], true
}

func itoa(n uint64) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			break
		}
	}
	return string(b[i:])
}

// stale reports whether the rows must be rebuilt: never built, or built
// from another version, market view or mode, or another sort or filter.
// When only the market view changed and the rows cannot depend on it,
// it re-measures the market columns itself and reports false.
func (p *pane) stale(version uint64, mk *mktView, mode int) bool {
	k := p.key
	if p.builtOK && k.version == version && k.mode == mode && !p.dirty() && (!p.usesMarket || k.market == mk.seq) {
		return false
	}
	k = cacheKey{version: version, market: mk.seq, mode: mode, sortIdx: p.sortIdx, desc: p.desc, filter: p.filter}
	if p.usesMarket && p.onlyMarketChanged(k) {
		p.remeasureMarket(k, mk)
		return false
	}
	return true
}

// remeasureMarket takes a new market view for the same rows in the same
// order: only the market columns' widths can change.
func (p *pane) remeasureMarket(k cacheKey, mk *mktView) {
	p.key = k
	p.gen++
	p.measureMarket(mk)
}

// measureMarket measures the market columns for market view mk: shared
// rows whose market cells read only the quotes share their widths too.
func (p *pane) measureMarket(mk *mktView) {
	if p.shared != nil && p.cellsFrom == cellsQuotes {
		w := p.shared.quotes.widths(p, p.shared.rows, mk)
		for ci := range p.cols {
			if p.cols[ci].mkt {
				p.widths[ci] = w[ci]
			}
		}
		return
	}
	p.measureCols(&cellCtx{mk: mk}, func(c *column) bool { return c.mkt })
}

// dirty reports whether the sort or filter changed since the rows were
// built.
func (p *pane) dirty() bool {
	return p.key.sortIdx != p.sortIdx || p.key.desc != p.desc || p.key.filter != p.filter
}

// sortRows sorts rows stably by cmp (reversed when desc). It sorts
// indexes, so the comparisons take pointers into rows and allocate nothing.
func sortRows(rows []item, cmp func(a, b *item) int, desc bool) {
	idx := make([]int32, len(rows))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(i, j int32) int {
		c := cmp(&rows[i], &rows[j])
		if desc {
			c = -c
		}
		if c == 0 {
			return int(i - j) // ties keep their order: stable
		}
		return c
	})
	sorted := make([]item, len(rows))
	for i, k := range idx {
		sorted[i] = rows[k]
	}
	copy(rows, sorted)
}

// symbolMinW is how narrow a symbol column is cut for another column
// (column.minW): "BTC-PERP-…" still tells BTC-PERP-REV from BTC-PERP.
const symbolMinW = 10
