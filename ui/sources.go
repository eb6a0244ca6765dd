package ui

import (
	declit "bhtop/dec"
	"bhtop/state"
	"bhtop/upstream"
)

// The row sources: each turns the snapshot into a pane's rows. They run
// only when the snapshot version or the pane's mode changed.

func balanceItems(s *state.Snapshot, showZero bool) []item {
	out := make([]item, 0, len(s.Balances))
	for i := range s.Balances {
		b := &s.Balances[i]
		if !showZero && isZeroAmount(b.Free) && isZeroAmount(b.Locked) {
			continue
		}
		total := b.Free
		if !isZeroAmount(b.Locked) {
			total = declit.AddOrFirst(b.Free, b.Locked)
		}
		out = append(out, item{bal: b, total: total})
	}
	return out
}

// orderItems lists the pending orders not yet matched by a report (they
// stay pinned on top), then the open orders, or in history mode the
// closed ones. It returns the rows and how many are pending.
func orderItems(s *state.Snapshot, history bool) ([]item, int) {
	var out []item
	pinned := 0
	if !history && len(s.Pending) > 0 {
		seen := make(map[string]bool, len(s.Pending))
		for i := range s.Pending {
			seen[s.Pending[i].ClientOrderID] = false
		}
		for _, o := range s.Orders.All() {
			if _, ok := seen[o.ClientOrderID]; ok {
				seen[o.ClientOrderID] = true
			}
		}
		for i := range s.Pending {
			if !seen[s.Pending[i].ClientOrderID] {
				out = append(out, item{pend: &s.Pending[i]})
			}
		}
		pinned = len(out)
	}
	if out == nil {
		out = make([]item, 0, s.Orders.Len())
	}
	for _, o := range s.Orders.All() {
		if o.Open() != history {
			out = append(out, item{ord: o})
		}
	}
	return out, pinned
}

// positionItems lists the positions with their index into the market
// view's cells (valued against the same snapshot) and their PnL's sign.
func positionItems(s *state.Snapshot, mk *mktView) []item {
	out := make([]item, len(s.Positions))
	for i := range s.Positions {
		out[i] = item{pos: &s.Positions[i], idx: i}
		if mk.state == s.Version && i < len(mk.pos) {
			out[i].upnlSign = int8(mk.pos[i].sign)
		} else {
			out[i].idx = -1 // valued against another snapshot: no cells
		}
	}
	return out
}

// marketItems lists the Market pane's rows.
func marketItems(mk *mktView) []item {
	out := make([]item, len(mk.rows))
	for i := range mk.rows {
		out[i] = item{mrow: &mk.rows[i]}
	}
	return out
}

func noteItems(notes []upstream.Note) []item {
	out := make([]item, len(notes))
	for i := range notes {
		out[i] = item{note: &notes[i]}
	}
	return out
}
