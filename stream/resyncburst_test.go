package stream

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestResyncRateLimitedIsNoBan: the service's weight is spent by another
// client of the same key (which this session's governor cannot know), so
// the resync's first snapshot is answered 429. The service bans (418) a
// client that sends again while told to wait (SPEC.md): the resync must
// stop at the 429, not have its other snapshots arrive during the wait.
func TestResyncRateLimitedIsNoBan(t *testing.T) {
	t.Parallel()
	for round := range 5 { // (a race: five tries)
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			t.Parallel()
			srv, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 6}})
			other := srv.Client(rest.WithClock(clk.Now))
			if _, err := other.Account(context.Background()); err != nil { // weight 5 of 6
				t.Fatal(err)
			}
			c := srv.Client(rest.WithClock(clk.Now))
			s := startSession(t, c, srv.WSURL(), clk) // the listenKey: 6 of 6
			testkit.Eventually(t, 5*time.Second, func() bool { return srv.Log.Count("GET", "/openapi/v1/account") >= 2 },
				"the resync's account request")
			testkit.Eventually(t, 5*time.Second, func() bool { return s.Status().State == StateResyncing && s.Status().Reason != "" },
				"the resync failed")
			time.Sleep(50 * time.Millisecond) // (requests still under way arrive)
			if n := srv.Log.Banned(); n > 0 || !c.BannedUntil().IsZero() {
				t.Fatalf("%d requests answered 418 (banned until %v) after the resync's 429:\n%s",
					n, c.BannedUntil(), srv.Log.Raw())
			}
			// The minute's weight is spent and the clock stands still: the
			// key's DELETE at Close would wait, in real time, for what is left
			// of the clock's minute (5 s in a test started at hh:mm:55).
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			_ = s.Close(ctx)
			cancel()
		})
	}
}
