package ui

import (
	"slices"
	"sort"
	"strings"

	"bhtop/event"
	"bhtop/state"
)

// patchOrders makes the Open Orders rows of k from old's, another
// snapshot's rows in the same mode and sort, by the orders that changed
// between the two (OrderRows.Changes skips the shared chunks): the rows
// of the changed orders are taken out, their new rows put in place, and
// nothing else is compared or moved, so the rows are the ones buildRows
// would make without sorting them all again. It returns nil when it
// cannot (pending orders are pinned on top, or too many orders changed).
func patchOrders(p *pane, old *sharedRows, k rowsKey) *sharedRows {
	prev, s := old.key.snap, k.snap
	if old.pinned > 0 || len(prev.Pending) > 0 || len(s.Pending) > 0 {
		return nil
	}
	history := k.mode == 1
	shown := func(o *state.Order) bool { return o != nil && o.Open() != history }
	limit := max(len(old.rows)/8, 8)
	var gone, added []*state.Order
	for a, b := range s.Orders.Changes(prev.Orders) {
		if shown(a) {
			gone = append(gone, a)
		}
		if shown(b) {
			added = append(added, b)
		}
		if len(gone)+len(added) > limit {
			return nil
		}
	}
	order := func(a, b *item) int { // sortRows' order: the column's, ties in the dump's
		if k.col >= 0 {
			c := p.cols[k.col].cmp(a, b)
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return dumpOrder(a.ord, b.ord)
	}
	// after is where x goes in old's rows: before the first row after it.
	after := func(x *item) int {
		return sort.Search(len(old.rows), func(i int) bool { return order(&old.rows[i], x) > 0 })
	}
	drop := make([]int, 0, len(gone))
	for _, o := range gone {
		i := after(&item{ord: o}) - 1
		if i < 0 || old.rows[i].ord != o {
			return nil // not where the order says: build them all
		}
		drop = append(drop, i)
	}
	slices.Sort(drop)
	adds := make([]item, len(added))
	for i, o := range added {
		adds[i] = item{ord: o}
	}
	addedRows := slices.Clone(adds)
	slices.SortFunc(adds, func(a, b item) int { return order(&a, &b) })
	at := make([]int, len(adds))
	for i := range adds {
		at[i] = after(&adds[i])
	}
	rows := make([]item, 0, len(old.rows)-len(drop)+len(adds))
	from := 0
	for i := 0; i <= len(old.rows); i++ {
		if i == len(old.rows) || (len(drop) > 0 && drop[0] == i) || (len(at) > 0 && at[0] == i) {
			rows = append(rows, old.rows[from:i]...)
			from = i
		}
		for len(at) > 0 && at[0] == i {
			rows = append(rows, adds[0])
			adds, at = adds[1:], at[1:]
		}
		if len(drop) > 0 && drop[0] == i {
			drop = drop[1:]
			from = i + 1
		}
	}
	goneRows := make([]item, len(gone))
	for i, o := range gone {
		goneRows[i] = item{ord: o}
	}
	stats := old.stats.patch(p.cols, rows, goneRows, addedRows, &cellCtx{mk: &mktView{}}, notMarket)
	return withWidths(p, k, rows, 0, stats, old.quotes.patch(p, rows, goneRows, addedRows))
}

// dumpOrder orders order rows as a Snapshot's are: market, then orderId
// by number.
func dumpOrder(a, b *state.Order) int {
	if c := strings.Compare(a.Market, b.Market); c != 0 {
		return c
	}
	return event.CompareIDs(a.OrderID, b.OrderID)
}
