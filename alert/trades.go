package alert

import (
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/api"
	"bhtop/dec"
	"bhtop/state"
)

// tradeWatch finds an account's new fills and rejections by comparing each
// snapshot's orders with the previous one's. The first snapshot is the
// baseline: what happened before bhtop started never fires.
type tradeWatch struct {
	version uint64
	primed  bool
	orders  map[orderKey]orderSeen
	rows    state.OrderRows   // the last snapshot's orders (rows and chunks are shared while unchanged)
	pending map[string]string // clientOrderId -> status

	fills    []state.Order // orders filled further in the last update
	rejected []string      // what was rejected in the last update

	// Fills of orders the state has no row of (placed and filled while
	// the stream was down: the resync reads open orders only, the fills
	// come with the myTrades records) are reported from the fills.
	fillScan state.FillScan // the fills seen
	orphans  []state.Fill   // such fills new in the last update
	// since is when the baseline was taken (unix ms): fills older than it
	// come from before the start (the start's myTrades records can be
	// folded in after the baseline) and are no news.
	since int64
}

type orderKey struct{ market, id string }

type orderSeen struct {
	executed string
	status   string
}

// update compares s with the previous snapshot, once per Version; fresh
// is false when s was already seen.
func (t *tradeWatch) update(s *state.Snapshot, now time.Time) (fresh bool) {
	if t.primed && s.Version == t.version {
		return false
	}
	if !t.primed {
		t.since = now.UnixMilli()
	}
	t.fills, t.rejected, t.orphans = t.fills[:0], t.rejected[:0], t.orphans[:0]
	t.scanOrders(s.Orders)
	t.scanFills(s.Fills)
	pending := make(map[string]string, len(s.Pending))
	for _, p := range s.Pending {
		pending[p.ClientOrderID] = p.Status
		if t.primed && p.Status == "NOT_PLACED" && t.pending[p.ClientOrderID] != "NOT_PLACED" {
			t.rejected = append(t.rejected, fmt.Sprintf("%s %s order %s not placed (%s)", p.Symbol, p.Side, p.ClientOrderID, p.Reason))
		}
	}
	t.pending, t.version, t.primed = pending, s.Version, true
	return true
}

// scanOrders compares the orders with the previous snapshot's. Rows and
// chunks of rows a snapshot shares with the previous one are skipped by
// pointer (state.OrderRows.Changes), so the cost follows what changed;
// the map is updated in place (no allocation per order) and orders no
// longer retained leave it.
func (t *tradeWatch) scanOrders(orders state.OrderRows) {
	if t.orders == nil {
		t.orders = make(map[orderKey]orderSeen, orders.Len())
	}
	for gone, o := range orders.Changes(t.rows) {
		if o == nil {
			delete(t.orders, orderKey{gone.Market, gone.OrderID})
			continue
		}
		k := orderKey{o.Market, o.OrderID}
		prev, had := t.orders[k]
		if had && prev.executed == o.ExecutedQty && prev.status == o.Status {
			continue
		}
		t.orders[k] = orderSeen{o.ExecutedQty, o.Status}
		if !t.primed {
			continue
		}
		if o.ExecutedQty != prev.executed && increased(prev.executed, o.ExecutedQty) {
			t.fills = append(t.fills, *o)
		}
		if o.Status == api.StatusRejected && (!had || prev.status != api.StatusRejected) {
			t.rejected = append(t.rejected, fmt.Sprintf("%s %s %s order %s", o.Symbol, o.Side, o.Type, o.OrderID))
		}
	}
	t.rows = orders
}

// scanFills finds the fills new since the last snapshot whose order has
// no row (the order watch reports the others); fills shared with the last
// snapshot are not read again (state.FillScan).
func (t *tradeWatch) scanFills(fills []state.Fill) {
	t.fillScan.Scan(fills, func(f *state.Fill) {
		if _, known := t.orders[orderKey{f.Market, f.OrderID}]; t.primed && !known && f.Time >= t.since {
			t.orphans = append(t.orphans, *f)
		}
	})
}

// increased reports whether the executed quantity grew ("" is zero).
func increased(before, after string) bool {
	a, ok := dec.Parse(after)
	if !ok {
		return false
	}
	b := decimal.Zero
	if before != "" {
		if b, ok = dec.Parse(before); !ok {
			return false
		}
	}
	return a.GreaterThan(b)
}

// message describes what the last update brought for a fill or
// order_rejected rule; "" when nothing.
func (t *tradeWatch) message(r Rule) string {
	var items []string
	switch r.Kind {
	case KindFill:
		for _, o := range t.fills {
			if r.Symbol == "" || o.Symbol == r.Symbol {
				item := fmt.Sprintf("%s %s %s filled %s of %s", o.Symbol, o.Side, o.Type, o.ExecutedQty, o.Quantity)
				if o.AvgPrice != nil && *o.AvgPrice != "" {
					item += " at avg " + *o.AvgPrice
				}
				items = append(items, item)
			}
		}
		for _, f := range t.orphans {
			if r.Symbol == "" || f.Symbol == r.Symbol {
				items = append(items, fmt.Sprintf("%s %s %s at %s", f.Symbol, f.Side, f.Qty, f.Price))
			}
		}
	case KindOrderRejected:
		items = t.rejected
	}
	if len(items) == 0 {
		return ""
	}
	return summarize(string(r.Kind), items)
}

// summarize joins up to three items and counts the rest.
func summarize(what string, items []string) string {
	label := map[string]string{"fill": "fill", "order_rejected": "order rejected"}[what]
	if len(items) == 1 {
		return label + ": " + items[0]
	}
	shown := items[:min(len(items), 3)]
	msg := fmt.Sprintf("%d × %s: %s", len(items), label, strings.Join(shown, "; "))
	if len(items) > len(shown) {
		msg += fmt.Sprintf("; and %d more", len(items)-len(shown))
	}
	return msg
}
