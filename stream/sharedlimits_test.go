package stream

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestSharedLimitsAccountsGoLive: eight accounts on one simulator whose
// REQUEST_WEIGHT limit (per IP as well as per key) is far below what
// they need to start and resync together. Their REST clients share one
// rest.HostLimits, as the cli wiring gives the accounts of one base URL:
// together they stay within the host's budget, so the simulator never
// answers 429 or 418, and every account goes live and resyncs, paced
// over several minutes of the fake clock.
func TestSharedLimitsAccountsGoLive(t *testing.T) {
	t.Parallel()
	const accounts, limit = 8, 40
	srv, clk := simtest.StartOnClock(t, sim.Options{Accounts: accounts, RateLimits: sim.RateLimits{WeightPerMinute: limit}})
	host := rest.NewHostLimits()
	inflight := &testkit.Inflight{}
	sessions := make([]*Session, accounts)
	var c *rest.Client
	for i, k := range srv.Accounts(sim.DemoSecret) {
		c = srv.ClientAs(k.APIKey, k.SecretKey, simtest.SharedOnClock(clk, host, rest.WithHTTPClient(inflight.Client()))...)
		if _, err := c.BrokerInfo(context.Background()); err != nil { // weight 0; sets the host's limits
			t.Fatal(err)
		}
		sessions[i] = startSession(t, c, srv.WSURL(), clk)
	}
	// The clock moves a second at a time, between requests, and stops at
	// each moment a governor's timer is due: in steps of 15 s a governor
	// whose window were 10 s short met no 429 (the clock jumped past the
	// moments it sent too early).
	// No account's snapshots are paced with its events held: a session
	// waits for its turn and its weight with the events folded.
	held := map[int]string{}
	noneHeld := func() {
		for i, s := range sessions {
			if st := s.Status(); strings.Contains(st.Reason, "events held") && held[i] == "" {
				held[i] = fmt.Sprintf("%s %q at %s", st.State, st.Reason, clk.Now().Format(time.TimeOnly))
			}
		}
	}
	allLive := func() bool {
		noneHeld()
		for _, s := range sessions {
			if !live(s) {
				return false
			}
		}
		return true
	}
	if !inflight.Advancing(clk, time.Second, 10*time.Second, allLive) {
		t.Fatalf("not every account live (clock at %s)", clk.Now().Format(time.TimeOnly))
	}

	var wg sync.WaitGroup
	errs := make([]error, accounts)
	done := make(chan struct{})
	for i, s := range sessions {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = s.Resync(context.Background()) }()
	}
	go func() { wg.Wait(); close(done) }()
	resynced := func() bool {
		noneHeld()
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	if !inflight.Advancing(clk, time.Second, 10*time.Second, resynced) {
		t.Fatalf("not every account resynced (clock at %s)", clk.Now().Format(time.TimeOnly))
	}
	for i, err := range errs {
		if err != nil {
			t.Errorf("account %d resync: %v", i, err)
		}
	}
	for i, h := range held {
		t.Errorf("account %d: snapshots paced with events held: %s", i, h)
	}

	// The sessions close while the clock moves: a listenKey's DELETE that
	// waits for the host's weight waits on the clock (closed at the test's
	// end with the clock standing still, two of them waited out their 5 s
	// deadline, one test in six), and is paced with the rest.
	closed := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for _, s := range sessions {
			wg.Go(func() { _ = s.Close(context.Background()) }) // (a DELETE held too long is not sent: best effort)
		}
		wg.Wait()
		close(closed)
	}()
	if !inflight.Advancing(clk, time.Second, 10*time.Second, func() bool {
		select {
		case <-closed:
			return true
		default:
			return false
		}
	}) {
		t.Fatalf("the sessions did not close (clock at %s)", clk.Now().Format(time.TimeOnly))
	}

	n, minutes := 0, map[int64]int{}
	for _, e := range srv.Log.Entries(t) {
		if e.Status == 429 || e.Status == 418 {
			t.Errorf("%s %s got HTTP %d", e.Method, e.Path, e.Status)
		}
		minutes[e.Time/60_000]++
		n++
	}
	if len(minutes) < 3 {
		t.Errorf("the %d requests fit in %d minutes: the limit %d did not make the clients pace", n, len(minutes), limit)
	}
	if used, lim := c.Weight(); used > lim || lim != limit {
		t.Errorf("Weight() = %d/%d, want the host's, within the advertised %d", used, lim, limit)
	}
	t.Logf("%d requests over %d minutes of the fake clock", n, len(minutes))
}
