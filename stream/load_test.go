package stream

import (
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/sim"
)

// TestExactAt20kEventsWithReader: at the simulator's 20,000 events/s, with
// a UI-like reader taking every snapshot it is told of and walking its
// orders, the state still folds to the simulator's REST truth once the
// activity stops. (Throughput is measured by ui's BenchmarkLiveIngest, not
// timed here; a reconnect is logged, and the state must be exact anyway.)
func TestExactAt20kEventsWithReader(t *testing.T) {
	testkit.Long(t, "runs ~3s")
	t.Parallel() // real time: overlaps the other throughput tests
	f := newFixture(t, sim.Options{Seed: 3, Activity: 20000}, Config{}, false)
	hub := f.s.Hub()
	notice, unsub := hub.Subscribe()
	defer unsub()
	done := make(chan struct{})
	defer close(done)
	seen := 0
	go func() {
		for {
			select {
			case <-notice:
			case <-done:
				return
			}
			for _, o := range hub.Latest().Orders {
				if o.Open() {
					seen++
				}
			}
		}
	}()
	time.Sleep(time.Second) // let the stream run; nothing is asserted on time
	f.srv.SetActivity(0)

	diff, ok := f.settled(5 * time.Second)
	snap := hub.Latest()
	t.Logf("events %d applied %d stale %d; orders retained %d; snapshots %d; reconnects %d",
		snap.Stats.Events, snap.Stats.Applied, snap.Stats.Stale, len(snap.Orders), snap.Version, f.s.Status().Connects-1)
	if !ok {
		t.Fatalf("state differs from the REST truth:\n%s", diff)
	}
	if snap.Stats.Events < 10000 {
		t.Errorf("events = %d, want a busy stream (>= 10000)", snap.Stats.Events)
	}
	if snap.Stats.Malformed != 0 {
		t.Errorf("malformed = %d, want 0", snap.Stats.Malformed)
	}
}
