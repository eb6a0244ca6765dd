package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bhtop/api"
	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// weightFixture is a live session on a simulator whose REQUEST_WEIGHT
// limit is low, everything on one fake clock; its REST client paces
// itself (and waits) on that clock, so the test moves time.
type weightFixture struct {
	srv      *simtest.Sim
	clk      *clock.Fake
	rest     *rest.Client
	s        *Session
	inflight *testkit.Inflight
}

func newWeightFixture(t *testing.T, limit int, tweaks ...func(*Config)) *weightFixture {
	t.Helper()
	// Activity 1 starts the simulator's activity loop; SetActivity sets the rate.
	srv, clk := simtest.StartOnClock(t, sim.Options{Activity: 1, RateLimits: sim.RateLimits{WeightPerMinute: limit}})
	srv.SetActivity(0)
	inflight := &testkit.Inflight{}
	c := srv.Client(append(simtest.OnClock(clk), rest.WithResyncInterval(100*365*24*time.Hour),
		rest.WithHTTPClient(inflight.Client()))...)
	if _, err := c.BrokerInfo(context.Background()); err != nil {
		t.Fatal(err)
	}
	cfg := Config{REST: c, WSURL: srv.WSURL(), Simulated: true, Clock: clk, PingEvery: 24 * time.Hour}
	for _, tweak := range tweaks {
		tweak(&cfg)
	}
	s, err := New(polled(cfg))
	testkit.Started(t, s, err)
	f := &weightFixture{srv: srv, clk: clk, rest: c, s: s, inflight: inflight}
	if !inflight.Advancing(clk, time.Second, 10*time.Second, func() bool { return live(s) }) {
		t.Fatalf("not live: %+v", s.Status())
	}
	return f
}

// emptyWindow waits until no request is under way, then moves the clock
// 2 minutes on: the weight's window is empty.
func (f *weightFixture) emptyWindow(t *testing.T) {
	t.Helper()
	if !f.inflight.Idle(5 * time.Second) {
		t.Fatal("a request still under way")
	}
	f.clk.Advance(2 * time.Minute)
}

// spend spends the client's request weight (as many resyncs, or the
// dashboard's other requests, would) until a resync's snapshots no longer
// fit the minute, after the window emptied: they fit again a minute (and
// the governor's margin) later.
func (f *weightFixture) spend(t *testing.T) {
	t.Helper()
	f.emptyWindow(t)
	for f.rest.WeightWait(snapshotWeight) == 0 {
		if _, err := f.rest.Account(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// resynced moves the clock a second at a time, between requests, until
// the Resync done answers, and returns its answer; it fails the test
// when none came within 10 s.
func (f *weightFixture) resynced(t *testing.T, done <-chan error) error {
	t.Helper()
	start := f.clk.Now()
	var err error
	if !f.inflight.Advancing(f.clk, time.Second, 10*time.Second, func() bool {
		select {
		case err = <-done:
			return true
		default:
			return false
		}
	}) {
		t.Fatalf("the resync still waits (clock +%s): %+v", f.clk.Now().Sub(start), f.s.Status())
	}
	return err
}

// resyncWaiting asks for a resync (no deadline) and waits until its
// status says it waits for request weight; the channel has its answer.
func (f *weightFixture) resyncWaiting(t *testing.T) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f.s.Resync(context.Background()) }()
	if !testkit.Within(5*time.Second, func() bool {
		st := f.s.Status()
		return st.State == StateResyncing && strings.Contains(st.Reason, "request weight")
	}) {
		t.Fatalf("status while the resync waits for weight: %+v, want resyncing, waiting for request weight", f.s.Status())
	}
	return done
}

// liveAgainTrue moves the clock until the session is live again (after a
// reconnect), stops the activity, and fails the test unless the balances
// then are the simulator's: no gap.
func (f *weightFixture) liveAgainTrue(t *testing.T) {
	t.Helper()
	if !f.inflight.Advancing(f.clk, time.Second, 10*time.Second, func() bool { return f.s.Status().State == StateLive }) {
		t.Fatalf("not live again: %+v", f.s.Status())
	}
	f.srv.SetActivity(0)
	if !testkit.Within(5*time.Second, f.balancesTrue) {
		t.Fatalf("balances after the reconnect differ from the simulator's: %+v vs %v",
			f.s.Hub().Latest().Balances, f.srv.AccountTruth(f.srv.APIKey()))
	}
}

// balancesTrue says the session's balances are the simulator's.
func (f *weightFixture) balancesTrue() bool {
	truth := f.srv.AccountTruth(f.srv.APIKey())
	snap := f.s.Hub().Latest()
	if len(snap.Balances) != len(truth) {
		return false
	}
	for _, b := range snap.Balances {
		w, ok := truth[b.Asset]
		if !ok || !decEq(b.Free, w[0]) || !decEq(b.Locked, w[1]) {
			return false
		}
	}
	return true
}

// TestResyncWaitingForWeightKeepsFolding: a resync asked for while the
// account's request weight is spent waits for it with the stream's events
// still folded (the panes move), the status saying it waits for request
// weight and until when, not "live"; once the weight frees, the snapshots
// are taken and the events that came while they were asked for are folded
// on top of them: no gap, the state is the simulator's. Nothing hangs
// past the wait.
func TestResyncWaitingForWeightKeepsFolding(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.spend(t)
	wait := f.rest.WeightWait(snapshotWeight)
	f.srv.SetActivity(40)
	before := f.s.Hub().Latest().Stats.Events
	start := f.clk.Now()

	done := f.resyncWaiting(t)
	if st := f.s.Status(); !st.RetryAt.Equal(start.Add(wait)) {
		t.Errorf("RetryAt %s, want the end of the wait %s", st.RetryAt, start.Add(wait))
	}
	if !testkit.Within(5*time.Second, func() bool { return f.s.Hub().Latest().Stats.Events >= before+20 }) {
		t.Fatalf("events folded while waiting for weight: %d, want >= %d (the fold is held)",
			f.s.Hub().Latest().Stats.Events-before, 20)
	}
	select {
	case err := <-done:
		t.Fatalf("the resync returned (%v) before the weight freed", err)
	default:
	}

	// The activity goes on while the snapshots are asked for and folded.
	if err := f.resynced(t, done); err != nil {
		t.Fatalf("resync: %v", err)
	}
	if st := f.s.Status(); st.State != StateLive || st.Reason != "" || !st.RetryAt.IsZero() {
		t.Errorf("status after the resync: %s %q retry %s, want live", st.State, st.Reason, st.RetryAt)
	}
	if got := f.s.Status().LastSnapshot; got.Before(start.Add(wait)) {
		t.Errorf("LastSnapshot %s, want after the wait (%s)", got, start.Add(wait))
	}
	f.srv.SetActivity(0)
	if !testkit.Within(5*time.Second, f.balancesTrue) {
		t.Fatalf("balances after the resync differ from the simulator's: %+v vs %v",
			f.s.Hub().Latest().Balances, f.srv.AccountTruth(f.srv.APIKey()))
	}
	f.clk.Advance(2 * time.Minute) // room for the truth's requests
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if diff, err := truthDiff(ctx, f.rest, f.s.Hub().Latest()); err != nil || diff != "" {
		t.Errorf("state after the resync differs from the REST truth (%v):\n%s", err, diff)
	}
}

// streamLost takes the user stream down and waits until the session is
// no longer live.
func (f *weightFixture) streamLost(t *testing.T) {
	t.Helper()
	f.srv.SetUserStreamDown(true)
	if !testkit.Within(5*time.Second, func() bool { return f.s.Status().State != StateLive }) {
		t.Fatalf("still live with the stream down: %+v", f.s.Status())
	}
}

// reconnectWaits brings the stream back and moves the clock until the
// reconnect says it waits: connecting, its reason holding want.
func (f *weightFixture) reconnectWaits(t *testing.T, want string) {
	t.Helper()
	f.srv.SetUserStreamDown(false)
	waiting := func() bool {
		st := f.s.Status()
		return st.State == StateConnecting && strings.Contains(st.Reason, want)
	}
	if !f.inflight.Advancing(f.clk, 100*time.Millisecond, 5*time.Second, waiting) {
		t.Fatalf("status while the reconnect waits: %+v, want connecting, %q", f.s.Status(), want)
	}
}

// TestReconnectWaitsForWeightUnheld: a reconnect while the request weight
// is spent waits for it before it opens the socket (whose frames it would
// hold until the snapshots are in), saying so and until when; then it
// connects, resyncs and is live, with the events of the outage known.
func TestReconnectWaitsForWeightUnheld(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.srv.SetActivity(40)
	f.spend(t)
	f.streamLost(t)
	f.reconnectWaits(t, "waiting for request weight until ")
	if st := f.s.Status(); !st.ConnectedAt.IsZero() {
		t.Errorf("connected at %s while waiting for weight, want no socket", st.ConnectedAt)
	}
	f.liveAgainTrue(t)
}

// TestResyncPacedWhileHeldSaysSo: when another request takes the weight
// between the resync's wait and its snapshots, the snapshots are paced
// with the frames held (the rare case left); the status says so, with
// when they go, and is live again once they are in.
func TestResyncPacedWhileHeldSaysSo(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.emptyWindow(t)
	start := f.clk.Now()
	f.s.beforeHold = func() { // another request of the host, just before the hold
		for f.rest.WeightWait(snapshotWeight) == 0 {
			if _, err := f.rest.Account(context.Background()); err != nil {
				t.Error(err)
				return
			}
		}
	}
	done := make(chan error, 1)
	go func() { done <- f.s.Resync(context.Background()) }()
	if !testkit.Within(5*time.Second, func() bool {
		st := f.s.Status()
		return st.State == StateResyncing && strings.Contains(st.Reason, "request weight") && st.RetryAt.After(start)
	}) {
		t.Fatalf("status while the held snapshots are paced: %+v, want resyncing, waiting for request weight", f.s.Status())
	}
	if err := f.resynced(t, done); err != nil {
		t.Fatalf("resync: %v", err)
	}
	if st := f.s.Status(); st.State != StateLive || st.Reason != "" {
		t.Errorf("status after the resync: %s %q, want live", st.State, st.Reason)
	}
}

// TestResyncPastDeadlineSaysWhen: a resync whose wait for request weight
// would outlast the caller's deadline (the dashboard's 30 s) returns at
// once, saying until when the weight is spent, and resyncs nothing: the
// caller is not told "deadline exceeded" half a minute later about a
// resync that then happens anyway.
func TestResyncPastDeadlineSaysWhen(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.spend(t)
	wait := f.rest.WeightWait(snapshotWeight)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second) // as the dashboard asks
	defer cancel()
	err := f.s.Resync(ctx)
	var be *rest.BackoffError
	if !errors.As(err, &be) || !errors.Is(err, rest.ErrRateLimited) || !be.Local || !be.Until.Equal(f.clk.Now().Add(wait)) {
		t.Fatalf("Resync = %v, want a local rate limit until %s", err, f.clk.Now().Add(wait))
	}
	if ctx.Err() != nil {
		t.Fatal("Resync returned only at the deadline")
	}
	if st := f.s.Status(); st.State != StateLive {
		t.Errorf("status %s %q after a resync refused, want live", st.State, st.Reason)
	}
}

// TestResyncWithinDeadlineWaits: a resync whose wait for request weight
// ends before the caller's deadline is not refused: it waits, then
// resyncs. The deadline is the context's (the wall clock's), the wait the
// session's clock's: they are compared as durations, not as instants of
// two clocks (the fake clock here runs minutes ahead of the wall).
func TestResyncWithinDeadlineWaits(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.spend(t)
	f.clk.Advance(f.rest.WeightWait(snapshotWeight) - 20*time.Second) // 20 s left
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f.s.Resync(ctx) }()
	if err := f.resynced(t, done); err != nil {
		t.Fatalf("Resync with 20 s to wait and 30 s to the deadline = %v, want it done", err)
	}
	if st := f.s.Status(); st.State != StateLive {
		t.Errorf("status %s %q after the resync, want live", st.State, st.Reason)
	}
}

// TestConnectionLostWhileResyncWaitsForWeight: the connection lost while
// a resync waits for request weight ends the wait: the resync fails (it
// would snapshot for a dead socket, spending the weight the reconnect
// needs) and the session reconnects, saying so, instead of showing a
// connection it no longer has as resyncing for up to a minute. Once the
// stream is back it is live with the simulator's state.
func TestConnectionLostWhileResyncWaitsForWeight(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.srv.SetActivity(40)
	f.spend(t)
	done := f.resyncWaiting(t)
	f.srv.SetUserStreamDown(true)
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("the resync still waits for weight with its connection lost: %+v", f.s.Status())
	}
	if err == nil {
		t.Error("Resync = nil with the connection lost during its wait, want an error")
	}
	if !testkit.Within(5*time.Second, func() bool {
		st := f.s.Status()
		return st.State != StateResyncing && st.State != StateLive && st.ConnectedAt.IsZero()
	}) {
		t.Fatalf("status after the connection was lost: %+v, want reconnecting, no connection", f.s.Status())
	}
	f.srv.SetUserStreamDown(false)
	f.liveAgainTrue(t)
}

// TestSnapshotWeightIsWhatSnapshotsSpend: the weight a resync waits for
// before it holds the events is what its snapshots then spend: the
// account, the spot open orders and the two contract requests, which
// takeSnapshots asks for whatever the account holds (a spot-only account
// too: there is no spot-only path; an extension's failure costs its
// weight all the same).
func TestSnapshotWeightIsWhatSnapshotsSpend(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 1000)
	f.emptyWindow(t) // the window empties
	before, _ := f.rest.Weight()
	if _, err := f.s.takeSnapshots(context.Background()); err != nil {
		t.Fatal(err)
	}
	after, _ := f.rest.Weight()
	if spent := after - before; spent != snapshotWeight {
		t.Errorf("the snapshots spent weight %d, the resync waits for %d", spent, snapshotWeight)
	}
}

// TestResyncTradesWaitSaysSo: a resync whose snapshots fit the minute's
// request weight but whose newest executions (myTrades, after the
// snapshots) do not waits for them, and the status says so and until
// when, instead of a live (or, at a connect, a bare "resyncing") status
// with nothing under way to see; once they are in the status is put back.
func TestResyncTradesWaitSaysSo(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60)
	f.emptyWindow(t)
	trades := api.MyTrades.Weight + api.ContractMyTrades.Weight
	for f.rest.WeightWait(snapshotWeight+trades) == 0 {
		if _, err := f.rest.Account(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if f.rest.WeightWait(snapshotWeight) > 0 {
		t.Fatal("the snapshots do not fit: the test wants them to")
	}
	start := f.clk.Now()
	done := make(chan error, 1)
	go func() { done <- f.s.Resync(context.Background()) }()
	if !testkit.Within(5*time.Second, func() bool {
		st := f.s.Status()
		return strings.Contains(st.Reason, "waiting for request weight") && strings.Contains(st.Reason, "recent trades")
	}) {
		t.Fatalf("status while the resync's trades wait for weight: %+v, want it to say so", f.s.Status())
	}
	if st := f.s.Status(); st.State != StateLive || !strings.Contains(st.Reason, " until ") || !st.RetryAt.After(start) {
		t.Errorf("status while the trades wait: %s %q retry %s, want live (the snapshots are in), until when", st.State, st.Reason, st.RetryAt)
	}
	if err := f.resynced(t, done); err != nil {
		t.Fatalf("resync: %v", err)
	}
	if st := f.s.Status(); st.State != StateLive || st.Reason != "" || !st.RetryAt.IsZero() {
		t.Errorf("status after the resync: %s %q retry %s, want live", st.State, st.Reason, st.RetryAt)
	}
}
