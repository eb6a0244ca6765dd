package state

import (
	"bhtop/event"
)

// acctState is the account flags with the E of their last applied update.
type acctState struct {
	canTrade, canWithdraw, canDeposit bool
	e                                 int64
}

// balance is one asset's balance; free and locked are reused buffers.
type balance struct {
	asset        string
	free, locked []byte
	e            int64
}

// position is one contract position row.
type position struct {
	Position
}

// applyAccount folds an account update: the flags and each balance apply
// when E is at least their last applied E. It reports whether anything
// was accepted.
func (s *Store) applyAccount(a *event.AccountView) bool {
	ok := s.applyFlags(a.EventTime, a.CanTrade, a.CanWithdraw, a.CanDeposit)
	for i := range a.Balances {
		if s.applyBalance(a.EventTime, a.Balances[i].Asset, a.Balances[i].Free, a.Balances[i].Locked) {
			ok = true
		}
	}
	return ok
}

func (s *Store) applyFlags(e int64, t, w, d bool) bool {
	if s.acct != nil && e < s.acct.e {
		return false
	}
	if s.acct == nil {
		s.acct = &acctState{}
	}
	s.acct.canTrade, s.acct.canWithdraw, s.acct.canDeposit, s.acct.e = t, w, d, e
	s.acctRow = nil
	return true
}

func (s *Store) applyBalance(e int64, asset, free, locked []byte) bool {
	b := s.balances[string(asset)]
	if b == nil {
		b = &balance{asset: string(asset), e: e}
		s.balances[b.asset] = b
	} else if e < b.e {
		return false
	}
	b.free = append(b.free[:0], free...)
	b.locked = append(b.locked[:0], locked...)
	b.e = e
	s.balDirty = true
	return true
}

// applyPosition folds a position update: the last to arrive wins, keyed by
// (A, s, S); a REST row ("", s, S) is taken over and given A.
func (s *Store) applyPosition(p *event.PositionView) {
	var row *position
	for _, q := range s.positions {
		if q.AccountID == string(p.AccountID) && q.Symbol == string(p.Symbol) && q.Side == string(p.Side) {
			row = q
			break
		}
	}
	if row == nil {
		for _, q := range s.positions {
			if q.AccountID == "" && q.Symbol == string(p.Symbol) && q.Side == string(p.Side) {
				row = q
				break
			}
		}
	}
	if row == nil {
		row = &position{}
		s.positions = append(s.positions, row)
	}
	setStr(&row.AccountID, p.AccountID)
	setStr(&row.Symbol, p.Symbol)
	setStr(&row.Side, p.Side)
	setStr(&row.AvgPrice, p.AvgPrice)
	setStr(&row.Total, p.Total)
	setStr(&row.Available, p.Available)
	setStr(&row.LiquidationPrice, p.LiquidationPrice)
	setStr(&row.Margin, p.Margin)
	setStr(&row.RealizedPnl, p.RealizedPnl)
	s.posDirty = true
}

// replacePositions applies a positions snapshot: each record updates the
// row of its (symbol, side), keeping its accountId ("" when new), and rows
// absent from the snapshot are removed.
func (s *Store) replacePositions(ps []Position) {
	next := make([]*position, 0, len(ps))
	used := make(map[*position]bool)
	for _, p := range ps {
		var row *position
		for _, q := range s.positions {
			if !used[q] && q.Symbol == p.Symbol && q.Side == p.Side {
				row = q
				break
			}
		}
		if row == nil {
			row = &position{}
		}
		used[row] = true
		acc := row.AccountID
		row.Position = p
		row.AccountID = acc
		next = append(next, row)
	}
	s.positions = next
	s.posDirty = true
}
