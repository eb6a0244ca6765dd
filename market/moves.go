package market

// moveDepth is how many publications a snapshot's move log reaches back:
// a reader further behind than that learns nothing from it and checks
// every quote it reads.
const moveDepth = 64

// moveLog is one publication's moved quotes, linked to the publication
// before it. Nodes are immutable once published; the chain is cut every
// moveDepth nodes so old nodes become garbage.
type moveLog struct {
	syms  []string // symbols whose Quote changed or vanished (may repeat)
	prev  *moveLog
	depth int // nodes before this one in the chain
}

// MovedSince calls each for every symbol whose Quote may differ between
// old and s (changed, appeared or vanished), and reports true, when both
// were published by the same store and s's log reaches back to old;
// otherwise (snapshots made by hand, another store, old too far behind)
// it calls nothing and reports false, and the caller must compare the
// quotes itself. A symbol may be named more than once.
func (s *Snapshot) MovedSince(old *Snapshot, each func(symbol string)) bool {
	if s == old {
		return s != nil
	}
	if s == nil || old == nil || old.moves == nil || s.moves == nil {
		return false
	}
	n := s.moves
	for n != nil && n != old.moves {
		n = n.prev
	}
	if n == nil {
		return false
	}
	for n := s.moves; n != old.moves; n = n.prev {
		for _, sym := range n.syms {
			each(sym)
		}
	}
	return true
}

// moved records that symbol's quote changes in the next publication.
func (s *Store) moved(q *quoteState) {
	if q.movedIn != s.version+1 {
		q.movedIn = s.version + 1
		s.movedSyms = append(s.movedSyms, q.Symbol)
	}
}

// logMoves is the move log of the publication being made.
func (s *Store) logMoves() *moveLog {
	n := &moveLog{syms: s.movedSyms, prev: s.last.moves}
	if n.prev != nil {
		n.depth = n.prev.depth + 1
	}
	if n.depth >= moveDepth {
		n.prev, n.depth = nil, 0
	}
	s.movedSyms = nil
	return n
}
