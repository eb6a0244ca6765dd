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
// built once per change and shared by every snapshot it did not change
// in; the order rows' chunks are shared likewise, so a snapshot costs
// about what changed since the previous one (see OrderRows).
func (s *Store) Snapshot() *Snapshot {
	s.version++
	snap := &Snapshot{Version: s.version, Stats: s.stats, LastEventTime: s.lastEvent}
	prev := s.prev
	if prev == nil {
		prev = &Snapshot{Balances: []Balance{}, Positions: []Position{}, Pending: []Pending{}, Fills: []Fill{}}
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
		snap.Orders = s.orderRows(prev.Orders, s.version)
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

// rowKey is an order's key in the rows: market, then orderId.
type rowKey struct {
	mkt uint8
	id  string
}

// orderRows makes the order rows of the next snapshot (gen is its
// Version) from prev's: the rows of orders evicted since are deleted,
// added orders inserted and changed ones replaced, each by key in the
// chunk it falls in, so every other chunk is shared with prev. Many adds
// or deletes at once (a first snapshot, a REST snapshot) merge all rows
// into full chunks instead.
func (s *Store) orderRows(prev OrderRows, gen uint64) OrderRows {
	s.compactOrders() // s.added and s.changed hold live orders only, s.gone the rows to delete
	slices.SortFunc(s.added, compareOrders)
	for _, o := range s.added {
		o.row, o.shown, o.pending = o.materialize(), true, pendNone
	}
	for _, o := range s.changed {
		o.row, o.pending = o.materialize(), pendNone
	}
	var rows OrderRows
	if edits := len(s.added) + len(s.gone); edits > 0 && edits >= prev.Len()/16 {
		rows = s.mergeRows(prev, gen)
	} else {
		e := prev.edit(gen)
		for _, k := range s.gone {
			e.delete(k.mkt, k.id)
		}
		for _, o := range s.added {
			e.insert(o.mkt, o.row)
		}
		for _, o := range s.changed {
			e.set(o.mkt, o.row)
		}
		rows = e.done()
	}
	clear(s.added)
	s.added = s.added[:0]
	clear(s.changed)
	s.changed = s.changed[:0]
	clear(s.gone)
	s.gone = s.gone[:0]
	return rows
}

// mergeRows merges prev's rows, less the gone ones and with the changed
// ones replaced, with the added ones (sorted) into full chunks.
func (s *Store) mergeRows(prev OrderRows, gen uint64) OrderRows {
	byKey := func(k rowKey) func(r *Order) int {
		return func(r *Order) int { return compareKey(r, k.mkt, k.id) }
	}
	slices.SortFunc(s.gone, func(a, b rowKey) int { return cmp.Or(cmp.Compare(a.mkt, b.mkt), event.CompareIDs(a.id, b.id)) })
	slices.SortFunc(s.changed, compareOrders)
	out := make([]*Order, 0, prev.Len()+len(s.added)-len(s.gone))
	gone, added, changed := s.gone, s.added, s.changed
	for _, r := range prev.All() {
		for len(added) > 0 && byKey(rowKey{added[0].mkt, added[0].id})(r) > 0 {
			out = append(out, added[0].row)
			added = added[1:]
		}
		switch {
		case len(gone) > 0 && byKey(gone[0])(r) == 0:
			gone = gone[1:]
		case len(changed) > 0 && byKey(rowKey{changed[0].mkt, changed[0].id})(r) == 0:
			out = append(out, changed[0].row)
			changed = changed[1:]
		default:
			out = append(out, r)
		}
	}
	for _, o := range added {
		out = append(out, o.row)
	}
	return packedRows(out, gen)
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
