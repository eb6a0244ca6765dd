//go:build !race

package state

import (
	"runtime"
	"testing"

	"bhtop/gen"
	"bhtop/internal/testkit"
)

// TestHeapAfterMillionEvents: after folding 1,000,000 events with 10,000
// open orders (and the default 10,000 closed ones retained), the live heap
// stays under 64 MiB. (Skipped under -race, which inflates memory.)
func TestHeapAfterMillionEvents(t *testing.T) {
	testkit.Long(t, "folds a million events")
	s := NewStore()
	gen.Each(gen.Options{Events: 1_000_000, Seed: 42, OpenOrders: 10_000}, func(f gen.Frame) { s.ApplyFrame(f.Data, nil) })
	snap := s.Snapshot()
	open := 0
	for _, o := range snap.Orders.All() {
		if o.Open() {
			open++
		}
	}
	snap = nil
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	runtime.KeepAlive(s)
	mib := float64(m.HeapAlloc) / (1 << 20)
	t.Logf("events %d, open orders %d, closed kept %d, heap %.1f MiB", s.Stats().Events, open, s.closedCount, mib)
	if open < 9_000 || s.Stats().Events != 1_000_000 {
		t.Errorf("open orders = %d, events = %d: the corpus is not the one meant", open, s.Stats().Events)
	}
	if mib >= 64 {
		t.Errorf("heap after 1M events = %.1f MiB, want < 64", mib)
	}
}
