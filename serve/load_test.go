package serve

import (
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/state"
)

// publisher publishes snapshots to hub at about rate per second (each one
// changes every balance) until ctx ends, counts them and records the
// longest Publish call in slowest (ns).
func publisher(ctx context.Context, hub *state.Hub, rate int, count, slowest *atomic.Int64) {
	const batch = 10 // a tick every batch/rate seconds, to keep timer overhead low
	tick := time.NewTicker(time.Second * batch / time.Duration(rate))
	defer tick.Stop()
	v := hub.Latest().Version
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		for range batch {
			v++
			bals := make([]state.Balance, 8)
			for i := range bals {
				bals[i] = state.Balance{Asset: fmt.Sprintf("AS%d", i), Free: fmt.Sprintf("%d.%08d", i, v), Locked: "0"}
			}
			start := time.Now()
			hub.Publish(&state.Snapshot{Version: v, Balances: bals})
			if d := int64(time.Since(start)); d > slowest.Load() {
				slowest.Store(d)
			}
			count.Add(1)
		}
	}
}

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

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

func TestStalledViewerDelaysNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const viewers = 20
	f := newFixture(t, func(c *Config) { c.Logger = nil })
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var published, slowest atomic.Int64
	go publisher(ctx, f.hub, 2000, &published, &slowest)

	// The stalled viewer: a big screen, every frame a full redraw, and a
	// client that stops reading the network once the dashboard is up.
	sc, gate := dialStalling(t, f.addr, f.client)
	stalled := openViewer(t, sc, 500, 200, map[string]string{"FILL": "1"})
	stalled.screen.waitFor(t, "Balances", 5*time.Second)
	gate.stalled.Store(true)

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
			v := openViewer(t, c, 100, 30, nil)
			screens[i] = v.screen
		}()
	}
	wg.Wait()
	for _, s := range screens {
		s.waitFor(t, "Balances", 5*time.Second)
	}

	// Wait until the stalled session's writes are blocked: its byte count
	// stops moving while the stream is busy.
	stalledID := f.srv.lastID.Load() - viewers
	blocked := false
	waitStart := time.Now()
	for range 50 {
		before := sessionBytes(f.srv)[stalledID]
		time.Sleep(300 * time.Millisecond)
		if sessionBytes(f.srv)[stalledID] == before {
			blocked = true
			break
		}
	}
	if !blocked {
		t.Fatal("the stalled viewer's session never blocked; the test does not test anything")
	}
	t.Logf("the stalled session blocked after %d bytes (waited %s)", sessionBytes(f.srv)[stalledID], time.Since(waitStart).Round(time.Millisecond))

	heap0 := heapInUse()
	pub0 := published.Load()
	got0 := make([]int64, viewers)
	for i, s := range screens {
		got0[i] = s.bytes()
	}
	const window = 2 * time.Second
	time.Sleep(window)
	for i, s := range screens {
		if d := s.bytes() - got0[i]; d == 0 {
			t.Errorf("viewer %d received nothing in %s while one viewer was stalled", i, window)
		}
	}
	t.Logf("published %d snapshots in %s; slowest Publish %s", published.Load()-pub0, window, time.Duration(slowest.Load()))
	// Publish never waits on a reader (state.Hub); a long pause here can
	// only be the scheduler of a loaded machine, so the bound is loose.
	if d := time.Duration(slowest.Load()); d > time.Second {
		t.Errorf("slowest Publish took %s, want well under 1s: ingest waited on a viewer", d)
	}
	heap1 := heapInUse()
	t.Logf("heap in use %d -> %d bytes over %s", heap0, heap1, window)
	if heap1 > heap0+32<<20 {
		t.Errorf("heap grew from %d to %d bytes in %s: something queues", heap0, heap1, window)
	}
	if n := f.srv.Sessions(); n != viewers+1 {
		t.Errorf("Sessions() = %d, want %d", n, viewers+1)
	}

	// Shutdown does not wait on the stalled viewer beyond the grace period.
	start := time.Now()
	sctx, scancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer scancel()
	if err := f.srv.Shutdown(sctx); err != nil {
		t.Errorf("Shutdown with a stalled viewer: %v", err)
	}
	t.Logf("Shutdown with a stalled viewer took %s", time.Since(start).Round(time.Millisecond))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Shutdown took %s with a stalled viewer, want about the grace period", d)
	}
}
