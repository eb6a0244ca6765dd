package ui

import (
	"sync"

	"bhtop/market"
	"bhtop/state"
)

// RowCache is the per-snapshot work the dashboards of one process share:
// the rows of the Balances, Open Orders and Fills panes for each mode and
// sort (built, sorted and measured once, then read by every dashboard
// that shows them), and the Fills pane's fee totals. serve gives one to
// every viewer (WithRowCache); a dashboard without one keeps its own. It
// is safe for concurrent use; what it hands out is read-only.
type RowCache struct {
	mu   sync.Mutex
	rows []*sharedRows // newest first
	fees []*feeSums    // newest first
}

// rowCacheSize bounds the entries of each kind: the panes' modes and
// sorts in use, times the accounts of a desk, keep their newest.
const rowCacheSize = 32

// NewRowCache returns an empty cache.
func NewRowCache() *RowCache { return &RowCache{} }

// WithRowCache shares c's rows and fee totals with the other dashboards
// that have it (the viewers of one serve process).
func WithRowCache(c *RowCache) Option { return func(m *Model) { m.shared = c } }

// rowsKey is what a shared pane's rows depend on. Panes without a filter
// sorted by a column that reads no market data share rows.
type rowsKey struct {
	snap *state.Snapshot
	pane paneID
	mode int
	col  int // the sort column; -1: the natural order
	desc bool
}

// sharedRows is one pane's rows for one snapshot, mode and sort: the rows
// (pinned leading ones unsorted), and the widths of the columns that read
// no market data. Read-only once in the cache.
type sharedRows struct {
	key    rowsKey
	rows   []item
	pinned int
	widths []colWidth
	stats  colStats     // what widths are made of
	quotes *quoteWidths // shared by the entries of the same rows
}

// quoteWidths is the market columns' widths over some shared rows for
// the latest market snapshot asked, for panes whose market cells read
// the quotes alone (cellsQuotes).
type quoteWidths struct {
	mu    sync.Mutex
	ms    *market.Snapshot
	stats colStats
	by    []colWidth
}

// isMarket picks the market columns.
func isMarket(c *column) bool { return c.mkt }

// notMarket picks the other columns.
func notMarket(c *column) bool { return !c.mkt }

// widths returns the widths of p's market columns over rows for mk's
// market snapshot, measured once per snapshot.
func (q *quoteWidths) widths(p *pane, rows []item, mk *mktView) []colWidth {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.by == nil || q.ms != mk.snap {
		q.ms, q.stats = mk.snap, measureStats(p.cols, rows, &cellCtx{mk: mk}, isMarket)
		q.by = make([]colWidth, len(p.cols))
		q.stats.widths(p.cols, q.by, isMarket)
	}
	return q.by
}

// patch returns the quote widths of rows, which are q's rows less gone
// plus added, for the market snapshot q was measured for (nothing when
// it was not measured).
func (q *quoteWidths) patch(p *pane, rows, gone, added []item) *quoteWidths {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.by == nil {
		return &quoteWidths{}
	}
	// The pane's market cells read the quotes alone (cellsQuotes).
	cc := &cellCtx{mk: &mktView{snap: q.ms}}
	out := &quoteWidths{ms: q.ms, stats: q.stats.patch(p.cols, rows, gone, added, cc, isMarket), by: make([]colWidth, len(p.cols))}
	out.stats.widths(p.cols, out.by, isMarket)
	return out
}

// feeNote is the Fills pane's fee note over fills.
func (c *RowCache) feeNote(fills []state.Fill) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.fees {
		if f.same(fills) {
			return f.note
		}
	}
	var f *feeSums
	for _, old := range c.fees {
		if old.shift(fills) >= 0 {
			f = old.next(fills)
			break
		}
	}
	if f == nil {
		f = newFeeSums(fills)
	}
	c.fees = pushFront(c.fees, f)
	return f.note
}

// paneRows returns p's rows for snapshot s in mode (0 or 1), built by p's
// columns, or nil when p's filter or sort reads the market (the pane
// builds its own).
func (c *RowCache) paneRows(p *pane, s *state.Snapshot, mode int) *sharedRows {
	col := -1
	if p.sortIdx >= 0 && p.sortIdx < len(p.sorts) {
		col = p.sorts[p.sortIdx]
		if p.cols[col].cmp == nil {
			return nil
		}
	}
	if p.filter != "" {
		return nil
	}
	k := rowsKey{snap: s, pane: p.id, mode: mode, col: col, desc: p.desc}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.rows {
		if r.key == k {
			return r
		}
	}
	var r *sharedRows
	for _, old := range c.rows {
		if old.key.pane == k.pane && old.key.mode == k.mode && old.key.col == k.col && old.key.desc == k.desc &&
			sameSource(p.id, old.key.snap, s) {
			r = &sharedRows{key: k, rows: old.rows, pinned: old.pinned, widths: old.widths, stats: old.stats, quotes: old.quotes}
			break
		}
	}
	if r == nil && k.pane == paneOrders {
		for _, old := range c.rows {
			if old.key.pane == k.pane && old.key.mode == k.mode && old.key.col == k.col && old.key.desc == k.desc {
				r = patchOrders(p, old, k)
				break
			}
		}
	}
	if r == nil {
		r = buildRows(p, k)
	}
	c.rows = pushFront(c.rows, r)
	return r
}

// sameSource reports whether pane id's rows are the same in a and b: the
// parts of the snapshots they are built from are shared.
func sameSource(id paneID, a, b *state.Snapshot) bool {
	switch id {
	case paneBalances:
		return sameSlice(a.Balances, b.Balances)
	case paneOrders:
		return a.Orders.Same(b.Orders) && sameSlice(a.Pending, b.Pending)
	case paneFills:
		return sameSlice(a.Fills, b.Fills)
	}
	return false
}

// sameSlice reports whether a and b are the same elements in memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// buildRows makes the rows of key k: p's items, the pinned ones first,
// the rest sorted, and the widths of the columns that read no market.
func buildRows(p *pane, k rowsKey) *sharedRows {
	var rows []item
	pinned := 0
	switch k.pane {
	case paneBalances:
		rows = balanceItems(k.snap, k.mode == 1)
	case paneOrders:
		rows, pinned = orderItems(k.snap, k.mode == 1)
	case paneFills:
		rows = fillItems(k.snap)
	}
	if k.col >= 0 {
		sortRows(rows[pinned:], p.cols[k.col].cmp, k.desc)
	}
	return withWidths(p, k, rows, pinned, measureStats(p.cols, rows, &cellCtx{mk: &mktView{}}, notMarket), &quoteWidths{})
}

// withWidths is rows with the widths stats make.
func withWidths(p *pane, k rowsKey, rows []item, pinned int, stats colStats, q *quoteWidths) *sharedRows {
	widths := make([]colWidth, len(p.cols))
	stats.widths(p.cols, widths, notMarket)
	return &sharedRows{key: k, rows: rows, pinned: pinned, widths: widths, stats: stats, quotes: q}
}

// pushFront puts x first in list, dropping the oldest past rowCacheSize.
func pushFront[T any](list []T, x T) []T {
	if len(list) < rowCacheSize {
		var zero T
		list = append(list, zero)
	}
	copy(list[1:], list)
	list[0] = x
	return list
}
