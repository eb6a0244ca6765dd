package state

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"bhtop/event"
)

// Snapshot returns an immutable copy of the state for readers, with a
// Version one greater than the previous one. Parts that did not change
// since the previous Snapshot are shared with it, and each order's row is
// built once per change, so a snapshot costs a copy of the order rows'
// pointers (each row is shared by every snapshot it did not change in).
func (s *Store) Snapshot() *Snapshot {
	s.version++
	snap := &Snapshot{Version: s.version, Stats: s.stats, LastEventTime: s.lastEvent}
	prev := s.prev
	if prev == nil {
		prev = &Snapshot{Balances: []Balance{}, Orders: []*Order{}, Positions: []Position{}, Pending: []Pending{}, Fills: []Fill{}}
	}
	if s.acct != nil && s.acctRow == nil {
		s.acctRow = &Account{CanTrade: s.acct.canTrade, CanWithdraw: s.acct.canWithdraw, CanDeposit: s.acct.canDeposit, Updated: s.acct.e}
	}
	snap.Account = s.acctRow
	snap.Balances, snap.Orders, snap.Positions, snap.Pending = prev.Balances, prev.Orders, prev.Positions, prev.Pending
	snap.Fills = prev.Fills
	if s.fills.dirty {
		snap.Fills = s.fillRows(prev.Fills)
		s.fills.dirty = false
	}
	if s.balDirty {
		snap.Balances = s.balanceRows()
		s.balDirty = false
	}
	if s.ordersDirty {
		snap.Orders = s.orderRows(prev.Orders)
		s.ordersDirty = false
	}
	if s.posDirty {
		snap.Positions = s.positionRows()
		s.posDirty = false
	}
	if s.pendDirty {
		snap.Pending = slices.Clone(s.pending)
		slices.SortStableFunc(snap.Pending, func(a, b Pending) int {
			return cmp.Or(cmp.Compare(a.Since, b.Since), cmp.Compare(a.ClientOrderID, b.ClientOrderID))
		})
		if snap.Pending == nil {
			snap.Pending = []Pending{}
		}
		s.pendDirty = false
	}
	s.prev = snap
	return snap
}

func (s *Store) balanceRows() []Balance {
	rows := make([]Balance, 0, len(s.balances))
	for _, b := range s.balances {
		rows = append(rows, Balance{Asset: b.asset, Free: string(b.free), Locked: string(b.locked), Updated: b.e})
	}
	slices.SortFunc(rows, func(a, b Balance) int { return cmp.Compare(a.Asset, b.Asset) })
	return rows
}

func (s *Store) positionRows() []Position {
	rows := make([]Position, 0, len(s.positions))
	for _, p := range s.positions {
		if !p.zero() {
			rows = append(rows, p.row())
		}
	}
	slices.SortFunc(rows, func(a, b Position) int {
		return cmp.Or(cmp.Compare(a.Symbol, b.Symbol), cmp.Compare(a.Side, b.Side), cmp.Compare(a.AccountID, b.AccountID))
	})
	return rows
}

func compareOrders(a, b *order) int {
	if a.mkt != b.mkt {
		return cmp.Compare(a.mkt, b.mkt)
	}
	return event.CompareIDs(a.id, b.id)
}

// orderRows keeps s.sorted in dump order (merging orders added since the
// last call, dropping removed ones) and returns the rows. When no order
// was added or removed, it copies prev's rows in one move and rebuilds
// only the changed ones.
func (s *Store) orderRows(prev []*Order) []*Order {
	if len(s.added) == 0 && s.removed == 0 && len(prev) == len(s.sorted) {
		rows := slices.Clone(prev)
		for _, o := range s.changed {
			if o.row == nil && !o.removed {
				o.row = o.materialize()
				rows[o.idx] = o.row
			}
		}
		clear(s.changed)
		s.changed = s.changed[:0]
		return rows
	}
	if len(s.added) > 0 || s.removed > 0 {
		// Each added order's place is found by binary search (after the
		// orders equal to it), so a few orders added among many cost a
		// few comparisons each, not a comparison per retained order.
		slices.SortFunc(s.added, compareOrders)
		merged := make([]*order, 0, len(s.sorted)+len(s.added)-s.removed)
		i := 0
		for _, a := range s.added {
			rest := s.sorted[i:]
			k, _ := slices.BinarySearchFunc(rest, a, func(o, a *order) int {
				return cmp.Or(compareOrders(o, a), -1) // equal ones go first
			})
			merged = s.keepRetained(merged, rest[:k])
			merged = s.keepRetained(merged, []*order{a})
			i += k
		}
		merged = s.keepRetained(merged, s.sorted[i:])
		s.sorted, s.removed = merged, 0
		clear(s.added)
		s.added = s.added[:0]
	}
	clear(s.changed)
	s.changed = s.changed[:0]
	rows := make([]*Order, len(s.sorted))
	for i, o := range s.sorted {
		if o.row == nil {
			o.row = o.materialize()
		}
		o.idx = i
		rows[i] = o.row
	}
	return rows
}

// keepRetained appends the orders of run that are not removed to rows,
// and recycles the removed ones.
func (s *Store) keepRetained(rows []*order, run []*order) []*order {
	for _, o := range run {
		if !o.removed {
			rows = append(rows, o)
		} else {
			s.recycle(o)
		}
	}
	return rows
}

// materialize builds the read-model row of o.
func (o *order) materialize() *Order {
	r := &Order{
		Market: marketNames[o.mkt], Symbol: o.symbol, OrderID: o.id, ClientOrderID: string(o.lit(litClient)),
		Side: o.side, Type: o.typ, TimeInForce: o.tif, Price: string(o.lit(litPrice)), Quantity: string(o.lit(litQty)),
		ExecutedQty: string(o.lit(litZ)), CumulativeQuoteQty: string(o.lit(litCumQuote)), Status: o.status,
		Working: o.working, Maker: o.maker, Created: o.created, Updated: o.updated,
	}
	r.AvgPrice = AvgPrice(r.CumulativeQuoteQty, r.ExecutedQty)
	if o.mkt == mContract {
		lev, cl := o.leverage, o.close
		r.Leverage, r.Close = &lev, &cl
	}
	return r
}

// Dump writes the state dump JSON of DESIGN.md (indented) to w.
func (s *Store) Dump(w io.Writer) error {
	return WriteDump(w, s.Snapshot(), "  ")
}

// WriteDump writes snap as the state dump JSON; indent "" writes it on one
// line.
func WriteDump(w io.Writer, snap *Snapshot, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(snap); err != nil {
		return fmt.Errorf("write state dump: %w", err)
	}
	return nil
}
