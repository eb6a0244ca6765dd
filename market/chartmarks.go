package market

import "maps"

// What the store knows of the charts (Client.LoadCandles): which symbols
// they show, whose bars are published even while the symbol is hidden
// (it left the account's symbols, the chart stays on it), and why a
// series they asked for has no bars yet.

// Why a chart's series has no bars (Snapshot.BarsWait); a failed load
// says its error instead.
const (
	BarsLoading  = "loading"
	BarsNoWeight = "waiting for request weight (the account's requests come first)"
	BarsNone     = "none from the service yet"
)

// chartMarks is the store's part of the charts.
type chartMarks struct {
	charted map[string]bool   // symbols charts show
	wait    map[string]string // by CandleKey: why no bars yet
	history map[string]bool   // by CandleKey: REST history applied (not just pushes)
	moved   bool              // wait changed since the last publication
}

func newChartMarks() chartMarks {
	return chartMarks{charted: map[string]bool{}, wait: map[string]string{}, history: map[string]bool{}}
}

// SetCharted sets the symbols charts show: their bars are published
// even while hidden.
func (s *Store) SetCharted(symbols []string) {
	now := map[string]bool{}
	for _, sym := range symbols {
		now[sym] = true
	}
	if maps.Equal(now, s.charts.charted) {
		return
	}
	for sym := range s.hidden {
		if now[sym] != s.charts.charted[sym] {
			s.candlesMoved, s.dirty = true, true // a hidden symbol's bars appear or go
		}
	}
	s.charts.charted = now
}

// SetBarsWait sets why the series key has no bars ("" clears it).
func (s *Store) SetBarsWait(key, why string) {
	if s.charts.wait[key] == why {
		return
	}
	if why == "" {
		delete(s.charts.wait, key)
	} else {
		s.charts.wait[key] = why
	}
	s.charts.moved, s.dirty = true, true
}

// HasHistory reports whether the series key got its history by REST
// (ApplyKlines), not only the socket's pushes of the current bar.
func (s *Store) HasHistory(key string) bool { return s.charts.history[key] }

// forget drops a removed symbol's reasons.
func (m *chartMarks) forget(symbol string) {
	for k := range m.wait {
		if keySymbol(k) == symbol {
			delete(m.wait, k)
			m.moved = true
		}
	}
	for k := range m.history {
		if keySymbol(k) == symbol {
			delete(m.history, k)
		}
	}
}

// publish is the BarsWait of the next snapshot: prev when unchanged.
func (m *chartMarks) publish(prev map[string]string) map[string]string {
	if !m.moved && prev != nil {
		return prev
	}
	m.moved = false
	return maps.Clone(m.wait)
}
