package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/upstream"
)

// holdTurn takes the host's turn as another account of the host would
// (its connect or resync), until the returned release.
func (f *weightFixture) holdTurn(t *testing.T) (release func()) {
	t.Helper()
	if !f.inflight.Idle(5 * time.Second) {
		t.Fatal("a request still under way")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	release, err := f.rest.Turn(ctx, nil)
	if err != nil {
		t.Fatalf("take the host's turn: %v", err)
	}
	return release
}

// wantTurnError fails the test unless err says the session waits for the
// host's turn, not the bare context error.
func wantTurnError(t *testing.T, err error) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), "turn") || strings.HasPrefix(err.Error(), "context deadline") {
		t.Errorf("Resync = %v, want it to say the session waits for the host's turn", err)
	}
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, upstream.ErrNotAnswered) {
		t.Errorf("Resync = %v, want it to wrap the deadline and upstream.ErrNotAnswered", err)
	}
}

// TestResyncWaitingForTurnSaysSo: a resync asked for while another
// account of the host holds the turn says so in the status (not "live",
// not a bare "resyncing"), and the caller whose deadline passes meanwhile
// is told the resync waits for its turn and goes on, not "context
// deadline exceeded". When the turn frees, the resync is done and the
// session is live again.
func TestResyncWaitingForTurnSaysSo(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 1000)
	release := f.holdTurn(t)
	before := countNotes(f.s, "resynced from REST")

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err := f.s.Resync(ctx)
	wantTurnError(t, err)
	if st := f.s.Status(); st.State != StateResyncing || !strings.Contains(st.Reason, "waiting for turn") {
		t.Errorf("status while the resync waits for the turn: %s %q, want resyncing, waiting for turn", st.State, st.Reason)
	}

	release()
	if !f.inflight.Advancing(f.clk, time.Second, 10*time.Second, func() bool {
		st := f.s.Status()
		return st.State == StateLive && countNotes(f.s, "resynced from REST") > before
	}) {
		notes, _ := f.s.Notes(0)
		t.Fatalf("the resync did not follow once the turn freed: %+v\nnotes: %v", f.s.Status(), notes)
	}
	if st := f.s.Status(); st.Reason != "" {
		t.Errorf("status after the resync: %s %q, want live", st.State, st.Reason)
	}
}

// TestConnectWaitingForTurnSaysSo: a reconnect while another account of
// the host holds the turn says it waits for the turn, and a resync asked
// for meanwhile is told so (a connect takes its own snapshots), not
// "context deadline exceeded". Once the turn frees the session is live.
func TestConnectWaitingForTurnSaysSo(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 1000)
	f.srv.SetActivity(40) // an outage is found on the next frame
	f.streamLost(t)
	release := f.holdTurn(t)
	f.reconnectWaits(t, "waiting for turn")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	wantTurnError(t, f.s.Resync(ctx))

	release()
	f.liveAgainTrue(t)
}

// TestRotationWaitingForWeightStaysLive: a rotation due while the request
// weight is spent waits for it with the old connection still folding
// events: the status stays live and says it is rotating, waiting for
// request weight (not "connecting", which said the account's data was
// not flowing); once the weight frees the new connection takes over, the
// session live on it with the simulator's state.
func TestRotationWaitingForWeightStaysLive(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 60, func(c *Config) { c.Rotate = 150 * time.Second })
	f.srv.SetActivity(40)
	old := f.s.Status().ConnectedAt
	f.spend(t) // the clock +2m: the rotation is due 30 s later, the weight spent for a minute
	f.pastRotation(t, old, 150*time.Second)
	waiting := func() bool { return strings.Contains(f.s.Status().Reason, "waiting for request weight") }
	if !testkit.Within(5*time.Second, waiting) {
		t.Fatalf("status while the rotation waits for weight: %+v, want live, rotating, waiting for request weight", f.s.Status())
	}
	st := f.s.Status()
	if st.State != StateLive || !strings.Contains(st.Reason, "rotating") || !st.ConnectedAt.Equal(old) {
		t.Errorf("status while the rotation waits for weight: %s %q, connected at %s; want live, rotating, waiting for request weight, on the old connection (%s)",
			st.State, st.Reason, st.ConnectedAt, old)
	}
	before := f.s.Hub().Latest().Stats.Events
	if !testkit.Within(5*time.Second, func() bool { return f.s.Hub().Latest().Stats.Events >= before+20 }) {
		t.Fatalf("events folded while the rotation waits for weight: %d, want >= 20", f.s.Hub().Latest().Stats.Events-before)
	}
	if !f.inflight.Advancing(f.clk, time.Second, 10*time.Second, func() bool {
		st := f.s.Status()
		return lives(f.s) >= 2 && st.State == StateLive && st.Reason == "" && st.ConnectedAt.After(old)
	}) {
		t.Fatalf("the rotation did not end live on a new connection: %+v", f.s.Status())
	}
	f.liveAgainTrue(t)
}

// TestRotationWaitOldConnectionLost: a rotation waiting for the host's
// turn (another account holds it) or for request weight says live only
// while the old connection folds events: when that connection is lost
// meanwhile, the status no longer says live (rotating) until the turn or
// the weight frees, but that the session reconnects; once the turn and
// the stream are back it is live with the simulator's state.
func TestRotationWaitOldConnectionLost(t *testing.T) {
	for _, tc := range []struct {
		name, waits string
		limit       int
		hold        func(f *weightFixture, t *testing.T) (release func())
	}{
		{"turn", "waiting for turn", 1000, func(f *weightFixture, t *testing.T) func() {
			release := f.holdTurn(t)
			f.clk.Advance(2 * time.Minute) // the rotation is due 30 s later
			return release
		}},
		{"weight", "waiting for request weight", 60, func(f *weightFixture, t *testing.T) func() {
			f.spend(t) // the clock +2m: the rotation is due 30 s later, the weight spent for a minute
			return func() {}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newWeightFixture(t, tc.limit, func(c *Config) { c.Rotate = 150 * time.Second })
			old := f.s.Status().ConnectedAt
			release := tc.hold(f, t)
			defer func() {
				if release != nil {
					release()
				}
			}()
			waiting := func() bool {
				st := f.s.Status()
				return st.State == StateLive && strings.Contains(st.Reason, "rotating, "+tc.waits)
			}
			f.pastRotation(t, old, 150*time.Second)
			if !testkit.Within(5*time.Second, waiting) {
				t.Fatalf("status while the rotation waits: %+v, want live, rotating, %s", f.s.Status(), tc.waits)
			}
			f.srv.SetActivity(40) // the cut is found on the next frame
			f.srv.SetUserStreamDown(true)
			if !testkit.Within(5*time.Second, func() bool {
				st := f.s.Status()
				return st.State != StateLive && st.ConnectedAt.IsZero()
			}) {
				t.Fatalf("status with the old connection lost while the rotation waits: %+v, want not live, no connection", f.s.Status())
			}
			f.srv.SetUserStreamDown(false)
			release()
			release = nil
			f.liveAgainTrue(t)
		})
	}
}

// pastRotation moves the clock a second at a time, between requests,
// until it is 2 s past the rotation of the connection made at connected
// (rotate later), and no further: the supervisor's check may run after
// any number of those steps on a loaded machine, so a test that kept the
// clock moving until it saw the rotation wait could move it past the
// weight's or the turn's release first, and see no wait at all.
func (f *weightFixture) pastRotation(t *testing.T, connected time.Time, rotate time.Duration) {
	t.Helper()
	due := connected.Add(rotate + 2*time.Second)
	if !f.inflight.Advancing(f.clk, time.Second, 5*time.Second, func() bool { return !f.clk.Now().Before(due) }) {
		t.Fatalf("the clock did not reach the rotation's time %s: at %s", due, f.clk.Now())
	}
}

// TestTurnWaitNamesHolder: an account waiting for the host's turn says
// which account holds it and whether that one connects or resyncs (the
// documented reason, then the holder), and says nothing more once its
// own turn came and went.
func TestTurnWaitNamesHolder(t *testing.T) {
	t.Parallel()
	srv, clk := simtest.StartOnClock(t, sim.Options{Accounts: 2, RateLimits: sim.RateLimits{WeightPerMinute: 60}})
	host := rest.NewHostLimits()
	inflight := &testkit.Inflight{}
	var c *rest.Client
	var sessions []*Session
	for i, k := range srv.Accounts(sim.DemoSecret) {
		c = srv.ClientAs(k.APIKey, k.SecretKey, simtest.SharedOnClock(clk, host, rest.WithHTTPClient(inflight.Client()))...)
		if _, err := c.BrokerInfo(context.Background()); err != nil {
			t.Fatal(err)
		}
		s, err := New(polled(Config{REST: c, WSURL: srv.WSURL(), Simulated: true, Clock: clk, PingEvery: 24 * time.Hour,
			Name: []string{"alpha", "beta"}[i]}))
		sessions = append(sessions, testkit.Started(t, s, err))
	}
	alpha, beta := sessions[0], sessions[1]
	if !inflight.Advancing(clk, time.Second, 10*time.Second, func() bool { return live(alpha) && live(beta) }) {
		t.Fatalf("not live: %+v / %+v", alpha.Status(), beta.Status())
	}
	if !inflight.Idle(5 * time.Second) {
		t.Fatal("a request still under way")
	}
	clk.Advance(2 * time.Minute)
	for c.WeightWait(snapshotWeight) == 0 {
		if _, err := c.Account(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 2)
	go func() { done <- alpha.Resync(context.Background()) }()
	if !testkit.Within(5*time.Second, func() bool { return strings.Contains(alpha.Status().Reason, "waiting for request weight") }) {
		t.Fatalf("alpha's status while its resync waits for weight: %+v", alpha.Status())
	}
	go func() { done <- beta.Resync(context.Background()) }()
	want := waitingForTurn + " (alpha resyncing)"
	if !testkit.Within(5*time.Second, func() bool { return beta.Status().Reason == want }) {
		t.Fatalf("beta's status while alpha holds the turn: %q, want %q", beta.Status().Reason, want)
	}
	n := 0
	if !inflight.Advancing(clk, time.Second, 10*time.Second, func() bool {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("resync: %v", err)
			}
			n++
		default:
		}
		return n == 2
	}) {
		t.Fatalf("the resyncs did not end: %+v / %+v", alpha.Status(), beta.Status())
	}
	for _, s := range sessions {
		if st := s.Status(); st.State != StateLive || st.Reason != "" {
			t.Errorf("status after the resyncs: %s %q, want live", st.State, st.Reason)
		}
	}
}

// TestTurnWaitNeverNamesItself: from the moment a session takes the
// host's turn until its status is put back (turn: the turn taken, the
// holder said, then the wait's reason put back), the reason it still
// shows names no holder: the holder is itself ("waiting for turn: …
// (alpha resyncing)" on alpha).
func TestTurnWaitNeverNamesItself(t *testing.T) {
	t.Parallel()
	f := newWeightFixture(t, 1000, func(c *Config) { c.Name = "alpha" })
	f.s.setStatus(func(st *Status) { st.State, st.Reason = StateResyncing, waitingForTurn })
	release := f.s.holdTurn(waitAs{state: StateResyncing}, func() {})
	defer release()
	if got := f.s.Status().Reason; got != waitingForTurn {
		t.Errorf("alpha's reason while it holds the turn, its wait's reason not yet put back: %q, want %q", got, waitingForTurn)
	}
}
