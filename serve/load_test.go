//go:build unix

package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
	"bhtop/state"
)

// gatedConn is a client connection that stops reading from the network
// when stalled, so the server's writes to it fill the TCP buffers and block.
type gatedConn struct {
	net.Conn
	stalled atomic.Bool
	release chan struct{}
}

func (c *gatedConn) Read(p []byte) (int, error) {
	if c.stalled.Load() {
		<-c.release
		return 0, io.EOF
	}
	return c.Conn.Read(p)
}

// dialStalling connects with a small receive buffer and returns the client
// and its gate.
func dialStalling(t *testing.T, addr string, key gossh.Signer) (*gossh.Client, *gatedConn) {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var serr error
		err := rc.Control(func(fd uintptr) { serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		if err != nil {
			return err
		}
		return serr
	}}
	raw, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	gc := &gatedConn{Conn: raw, release: make(chan struct{})}
	conn, chans, reqs, err := gossh.NewClientConn(gc, addr, &gossh.ClientConfig{
		User: "stalled", Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
	})
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(conn, chans, reqs)
	t.Cleanup(func() { close(gc.release); c.Close() })
	return c, gc
}

// sessionBytes returns the bytes the server has sent to each session, by
// the user name of its connection.
func sessionBytes(s *Server) map[uint64]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[uint64]int64, len(s.sessions))
	for v := range s.sessions {
		out[v.id] = v.out.n.Load()
	}
	return out
}

// othersSent reports whether any session but the one excluded was sent
// bytes between the two counts.
func othersSent(before, after map[uint64]int64, excluded uint64) bool {
	for id, n := range after {
		if id != excluded && n > before[id] {
			return true
		}
	}
	return false
}

func TestStalledViewerDelaysNobody(t *testing.T) {
	testkit.Long(t, "load test")
	const viewers = 20
	activity := 2000.0
	if raceEnabled {
		activity = 200 // the race detector makes 2,000/s more than two cores can fold and draw
	}
	l := newLive(t, activity)
	f := newFixture(t, func(c *Config) {
		c.NewModel = nil
		c.Upstream = l.sess
		c.sendBuffer = 4 << 10 // the stalled viewer blocks within a few frames
	})

	// The stalled viewer: the biggest screen, and a client that stops
	// reading the network once the dashboard is up.
	sc, gate := dialStalling(t, f.addr, f.client)
	stalled := openViewer(t, sc, MaxWidth, MaxHeight, nil)
	stalled.screen.waitFor(t, "Balances", 10*time.Second)
	gate.stalled.Store(true)
	stalledID := f.srv.lastID.Load()

	screens := make([]*screen, viewers)
	var wg sync.WaitGroup
	for i := range viewers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := dial(f.addr, gossh.PublicKeys(f.client))
			if err != nil {
				t.Errorf("viewer %d: %v", i, err)
				return
			}
			t.Cleanup(func() { c.Close() })
			screens[i] = openViewer(t, c, 100, 30, nil).screen
		}()
	}
	wg.Wait()
	for _, s := range screens {
		s.waitFor(t, "Balances", 10*time.Second)
	}

	// Wait until the stalled session's writes are blocked: its byte count
	// stops moving while the others' keep moving. Its keys still arrive
	// (the other direction): t (next theme) repaints its whole screen, so
	// it always has something to send.
	waitStart := time.Now()
	for {
		before := sessionBytes(f.srv)
		for range 20 {
			stalled.stdin.Write([]byte("t"))
			time.Sleep(50 * time.Millisecond)
		}
		after := sessionBytes(f.srv)
		if after[stalledID] == before[stalledID] && othersSent(before, after, stalledID) {
			break
		}
		if time.Since(waitStart) > 30*time.Second {
			t.Fatal("the stalled viewer's session never blocked; the test does not test anything")
		}
	}
	t.Logf("the stalled session blocked after %d bytes (waited %s)", sessionBytes(f.srv)[stalledID], time.Since(waitStart).Round(time.Millisecond))

	heap0 := testkit.HeapInUse()
	events0 := l.sess.Hub().Latest().Stats.Events
	got0 := make([]int64, viewers)
	for i, s := range screens {
		got0[i] = s.Bytes()
	}
	// Every viewer gets frames, and the upstream folds events, while one
	// viewer is stalled: a window of 2 s, longer (up to 15 s) when a
	// viewer has had nothing yet; on a loaded machine under -race 20
	// viewers' frames can take more than 2 s, while a viewer the stall
	// blocked would never get one.
	const window, most = 2 * time.Second, 15 * time.Second
	windowStart := time.Now()
	time.Sleep(window)
	quiet := func() (idle []int) {
		for i, s := range screens {
			if s.Bytes() == got0[i] {
				idle = append(idle, i)
			}
		}
		return idle
	}
	testkit.Within(most-window, func() bool {
		return len(quiet()) == 0 && l.sess.Hub().Latest().Stats.Events > events0
	})
	waited := time.Since(windowStart).Round(time.Millisecond)
	for _, i := range quiet() {
		t.Errorf("viewer %d received nothing in %s while one viewer was stalled", i, waited)
	}
	events := l.sess.Hub().Latest().Stats.Events - events0
	t.Logf("the upstream folded %d events in %s", events, waited)
	if events == 0 {
		t.Errorf("the upstream folded no events in %s while one viewer was stalled", waited)
	}
	heap1 := testkit.HeapInUse()
	t.Logf("heap in use %d -> %d bytes over %s", heap0, heap1, waited)
	if !raceEnabled && heap1 > heap0+64<<20 {
		t.Errorf("heap grew from %d to %d bytes in %s: something queues", heap0, heap1, waited)
	}
	if n := f.srv.Sessions(); n != viewers+1 {
		t.Errorf("Sessions() = %d, want %d", n, viewers+1)
	}

	// Once the activity stops, serve's state is the simulator's truth.
	l.sim.SetActivity(0)
	waitForTruth(t, l, 15*time.Second)

	// Shutdown does not wait on the stalled viewer beyond the grace period.
	start := time.Now()
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := f.srv.Shutdown(sctx); err != nil {
		t.Errorf("Shutdown with a stalled viewer: %v", err)
	}
	t.Logf("Shutdown with a stalled viewer took %s", time.Since(start).Round(time.Millisecond))
}

// waitForTruth waits until the upstream's balances equal the simulator's
// account, by exact decimal value.
func waitForTruth(t *testing.T, l *live, within time.Duration) {
	t.Helper()
	var diff string
	if !testkit.Within(within, func() bool {
		diff = balanceDiff(l.sess.Hub().Latest().Balances, l.sim.AccountTruth(l.sim.APIKey()))
		return diff == ""
	}) {
		t.Fatalf("serve's balances differ from the simulator's: %s", diff)
	}
}

func balanceDiff(got []state.Balance, truth map[string][2]string) string {
	if len(got) != len(truth) {
		return fmt.Sprintf("%d balances, truth has %d", len(got), len(truth))
	}
	for _, b := range got {
		want, ok := truth[b.Asset]
		if !ok || !testkit.DecEqual(b.Free, want[0]) || !testkit.DecEqual(b.Locked, want[1]) {
			return fmt.Sprintf("%s = %s/%s, truth %v", b.Asset, b.Free, b.Locked, want)
		}
	}
	return ""
}

func TestStalledConnectionIsCut(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Stall = time.Second; c.sendBuffer = 4 << 10 })
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { // a busy account: something to draw every 20 ms
		for v := uint64(1); ctx.Err() == nil; v++ {
			f.hub.Publish(&state.Snapshot{Version: v})
			time.Sleep(20 * time.Millisecond)
		}
	}()
	healthy := openViewer(t, mustDial(t, f.addr, f.client), 80, 24, nil)
	sc, gate := dialStalling(t, f.addr, f.client)
	stalled := openViewer(t, sc, MaxWidth, MaxHeight, map[string]string{"FILL": "1"})
	stalled.screen.waitFor(t, "Balances", 5*time.Second)
	gate.stalled.Store(true)

	testkit.Eventually(t, 20*time.Second, func() bool { return f.srv.Sessions() <= 1 },
		"the stalled viewer's session cut (Sessions() down to 1)")
	before := healthy.screen.Bytes()
	time.Sleep(1500 * time.Millisecond) // longer than Stall
	select {
	case err := <-healthy.done:
		t.Fatalf("the healthy viewer was closed too (%v)", err)
	default:
	}
	if healthy.screen.Bytes() == before {
		t.Error("the healthy viewer stopped receiving frames")
	}
}
