package stream

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
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
	before := f.s.Status().LastSnapshot

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
		return st.State == StateLive && st.LastSnapshot.After(before)
	}) {
		t.Fatalf("the resync did not follow once the turn freed: %+v", f.s.Status())
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
	f.srv.SetUserStreamDown(true)
	if !testkit.Within(5*time.Second, func() bool { return f.s.Status().State != StateLive }) {
		t.Fatalf("still live with the stream down: %+v", f.s.Status())
	}
	release := f.holdTurn(t)
	f.srv.SetUserStreamDown(false)
	waiting := func() bool {
		st := f.s.Status()
		return st.State == StateConnecting && strings.Contains(st.Reason, "waiting for turn")
	}
	if !f.inflight.Advancing(f.clk, 100*time.Millisecond, 5*time.Second, waiting) {
		t.Fatalf("status while the reconnect waits for the turn: %+v, want connecting, waiting for turn", f.s.Status())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	wantTurnError(t, f.s.Resync(ctx))

	release()
	f.liveAgainTrue(t)
}
