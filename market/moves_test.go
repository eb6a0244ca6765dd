package market

import (
	"slices"
	"testing"
)

// movedSince is what MovedSince reports, sorted and without repeats; ok false
// is nil.
func movedSince(s, old *Snapshot) []string {
	var syms []string
	if !s.MovedSince(old, func(sym string) { syms = append(syms, sym) }) {
		return nil
	}
	slices.Sort(syms)
	return append([]string{}, slices.Compact(syms)...)
}

// TestMovedSince: a snapshot names the quotes that changed, appeared or
// vanished since an earlier one of its store (ticker, book, trade, index,
// Remove); it knows nothing of
// a snapshot made by hand, of another store's, or of one more than
// moveDepth publications back.
func TestMovedSince(t *testing.T) {
	s := testStore()
	push(t, s, `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1000,"s":"BTCUSDT","c":"100","h":"110","l":"90","o":"95","v":"7","qv":"700"}]}`)
	s0 := s.Publish()
	if got := movedSince(s0, s0); got == nil || len(got) != 0 {
		t.Errorf("a snapshot against itself: %v, want nothing moved", got)
	}
	push(t, s, `{"symbol":"ETH-PERP","topic":"trade","data":[{"v":"9","t":1500,"p":"3011.5","q":"1"}]}`)
	s1 := s.Publish()
	push(t, s, `{"symbol":"BTCUSDT","topic":"depth","data":[{"t":1001,"b":[["99","1"]],"a":[["101","3"]]}]}`)
	s.SetIndex(map[string]string{"ETHUSDT": "3000"})
	s2 := s.Publish()
	for _, c := range []struct {
		s, old *Snapshot
		want   []string
	}{
		{s1, s0, []string{"ETH-PERP"}},
		{s2, s1, []string{"BTCUSDT", "ETH-PERP"}},
		{s2, s0, []string{"BTCUSDT", "ETH-PERP"}},
		{s0, s2, nil}, // old is newer: unknown
		{s2, &Snapshot{Version: 1}, nil},
		{&Snapshot{Version: 3}, s2, nil},
		{s2, testStore().Publish(), nil},
	} {
		if got := movedSince(c.s, c.old); !slices.Equal(got, c.want) {
			t.Errorf("MovedSince(%d, %d) = %v, want %v", c.s.Version, c.old.Version, got, c.want)
		}
	}
	s.Remove("BTCUSDT")
	ins := map[string]Instrument{"ETH-PERP": {Symbol: "ETH-PERP", Contract: true}}
	s.SetInstruments(ins)
	s3 := s.Publish()
	if got := movedSince(s3, s2); !slices.Equal(got, []string{"BTCUSDT"}) {
		t.Errorf("after Remove: %v", got)
	}
	for range moveDepth + 1 {
		push(t, s, `{"symbol":"ETH-PERP","topic":"trade","data":[{"v":"9","t":1500,"p":"3012","q":"1"}]}`)
		s.Publish()
	}
	if got := movedSince(s.Publish(), s3); got != nil {
		t.Errorf("%d publications back: %v, want unknown", moveDepth+1, got)
	}
}
