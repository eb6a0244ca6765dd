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
	testkit.Long(t, "runs ~1s, longer on a loaded machine")
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
			for _, o := range hub.Latest().Orders.All() {
				if o.Open() {
					seen++
				}
			}
		}
	}()
	// Busy until 10,000 events are folded, however long a loaded machine
	// takes; nothing is asserted on time.
	testkit.Eventually(t, 60*time.Second, func() bool { return hub.Latest().Stats.Events >= 10000 },
		"the stream folded fewer than 10,000 events in 60 s")
	f.srv.SetActivity(0)

	f.wantTruth(t, 30*time.Second, 10000) // returns once equal; the backlog of a loaded machine drains first
}
