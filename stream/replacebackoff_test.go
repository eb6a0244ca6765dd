package stream

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/clock"
	"bhtop/internal/testkit"
)

// refusingDialer is a WebSocket dialer whose TCP dials fail while refuse
// is set, each refused one's time (on clk) recorded: a replacement can
// then fail while the connection it replaces goes on.
type refusingDialer struct {
	refuse atomic.Bool
	clk    atomic.Pointer[clock.Fake]
	mu     sync.Mutex
	at     []time.Time // the refused dials
}

func (d *refusingDialer) dialer() *websocket.Dialer {
	return &websocket.Dialer{HandshakeTimeout: 10 * time.Second,
		NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if d.refuse.Load() {
				d.mu.Lock()
				d.at = append(d.at, d.clk.Load().Now())
				d.mu.Unlock()
				return nil, errors.New("dial refused by the test")
			}
			return (&net.Dialer{}).DialContext(ctx, network, addr)
		}}
}

// refused is the times of the refused dials so far.
func (d *refusingDialer) refused() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]time.Time(nil), d.at...)
}

// TestReconnectResetsReplaceBackoff: a rotation whose old connection ends
// while it waits for the host's turn is no failed replacement, and a
// successful reconnect starts the replacements' backoff afresh: twice
// that, then a replacement that fails, and the next try comes after the
// first retry's delay (below BackoffBase), not after a backoff grown by
// the connections that ended (4 × BackoffBase and more).
func TestReconnectResetsReplaceBackoff(t *testing.T) {
	t.Parallel()
	const base = 20 * time.Second
	d := &refusingDialer{}
	f := newWeightFixture(t, 1000, func(c *Config) {
		c.Rotate, c.BackoffBase, c.BackoffCap = 150*time.Second, base, 10*time.Minute
		c.Dialer = d.dialer()
	})
	d.clk.Store(f.clk)
	for range 2 {
		old := f.s.Status().ConnectedAt
		release := f.holdTurn(t)
		f.clk.Advance(140 * time.Second)
		f.pastRotation(t, old, 150*time.Second)
		if !testkit.Within(5*time.Second, func() bool { return strings.Contains(f.s.Status().Reason, "rotating, waiting for turn") }) {
			t.Fatalf("status while the rotation waits for the turn: %+v", f.s.Status())
		}
		f.srv.SetActivity(40) // the cut is found on the next frame
		f.srv.SetUserStreamDown(true)
		if !testkit.Within(5*time.Second, func() bool { return f.s.Status().ConnectedAt.IsZero() }) {
			t.Fatalf("the old connection lost while the rotation waits: %+v, want no connection", f.s.Status())
		}
		f.srv.SetUserStreamDown(false)
		release()
		f.liveAgainTrue(t)
	}

	old := f.s.Status().ConnectedAt
	d.refuse.Store(true)
	f.clk.Advance(140 * time.Second)
	f.pastRotation(t, old, 150*time.Second)
	if !testkit.Within(5*time.Second, func() bool { return len(d.refused()) > 0 }) {
		t.Fatalf("no replacement tried at the rotation: %+v", f.s.Status())
	}
	if !testkit.Within(5*time.Second, func() bool { return countNotes(f.s, "replace connection:") > 0 }) {
		t.Fatalf("the refused replacement was not noted: %+v", f.s.Status())
	}
	d.refuse.Store(false)
	failed := d.refused()[0]
	if !f.inflight.Advancing(f.clk, time.Second, 10*time.Second, func() bool { return f.s.Status().ConnectedAt.After(old) }) {
		t.Fatalf("no new connection %s after the refused replacement: %+v", f.clk.Now().Sub(failed), f.s.Status())
	}
	// The first retry's delay is below base, the check ticks each second.
	if gap := f.s.Status().ConnectedAt.Sub(failed); gap > base+2*time.Second {
		t.Errorf("the replacement was tried again %s after it failed, want within %s (the backoff of a first failure)", gap, base+2*time.Second)
	}
}
