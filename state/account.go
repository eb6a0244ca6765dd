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

// position is one contract position row: the key texts, and the six
// decimals back to back in one buffer reused in place.
type position struct {
	accountID, symbol, side string
	lits                    []byte
	ends                    [6]int32
}

func (p *position) setLits(vals ...[]byte) { p.lits = packLits(p.lits, p.ends[:], vals...) }

func (p *position) lit(k int) string {
	start := int32(0)
	if k > 0 {
		start = p.ends[k-1]
	}
	return string(p.lits[start:p.ends[k]])
}

// row materializes the read-model row.
func (p *position) row() Position {
	return Position{AccountID: p.accountID, Symbol: p.symbol, Side: p.side, AvgPrice: p.lit(0), Total: p.lit(1),
		Available: p.lit(2), LiquidationPrice: p.lit(3), Margin: p.lit(4), RealizedPnl: p.lit(5)}
}

// zero reports whether the position total is zero by value.
func (p *position) zero() bool { return event.IsZeroDecimal(p.lits[p.ends[0]:p.ends[1]]) }

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
		if len(s.newAssets) < maxNotes {
			s.newAssets = append(s.newAssets, b.asset)
		}
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
		if q.accountID == string(p.AccountID) && q.symbol == string(p.Symbol) && q.side == string(p.Side) {
			row = q
			break
		}
	}
	if row == nil {
		for _, q := range s.positions {
			if q.accountID == "" && q.symbol == string(p.Symbol) && q.side == string(p.Side) {
				row = q
				break
			}
		}
	}
	fresh := row == nil
	if fresh {
		row = &position{}
		s.positions = append(s.positions, row)
	}
	s.setText(&row.accountID, p.AccountID)
	s.setText(&row.symbol, p.Symbol)
	s.setText(&row.side, p.Side)
	if fresh {
		s.noteSymbol(row.symbol)
	}
	row.setLits(p.AvgPrice, p.Total, p.Available, p.LiquidationPrice, p.Margin, p.RealizedPnl)
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
			if !used[q] && q.symbol == p.Symbol && q.side == p.Side {
				row = q
				break
			}
		}
		if row == nil {
			row = &position{symbol: p.Symbol, side: p.Side}
		}
		used[row] = true
		row.setLits([]byte(p.AvgPrice), []byte(p.Total), []byte(p.Available), []byte(p.LiquidationPrice),
			[]byte(p.Margin), []byte(p.RealizedPnl))
		next = append(next, row)
	}
	s.positions = next
	s.posDirty = true
}
