package serve

import (
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
	"bhtop/state"
)

// TestUnauthenticatedBudget: connections that never finish their
// handshake share MaxHandshakes; one more evicts the oldest (closed at
// once), so a flood cannot hold every slot, and a viewer still gets in.
func TestUnauthenticatedBudget(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxHandshakes = 3; c.MaxHandshakesPerHost = 10 })
	var idle []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", f.addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		idle = append(idle, c)
	}
	// The three are held: each has been sent the server's version line.
	for _, c := range idle {
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Read(make([]byte, 64)); err != nil {
			t.Fatalf("a connection within the budget: %v", err)
		}
	}
	extra, err := net.Dial("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	if _, err := extra.Read(make([]byte, 64)); err != nil {
		t.Fatalf("the newest connection was not served: %v", err)
	}
	// The oldest was evicted.
	_ = idle[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := idle[0].Read(make([]byte, 64)); err == nil {
		t.Fatal("the oldest unauthenticated connection still open, want it evicted")
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("the oldest unauthenticated connection still open, want it evicted")
	}
	viewerGetsIn(t, f, 5*time.Second)
}

// TestAuthenticatedConnectionsAreCapped: beyond MaxConnections logged-in
// connections a login is refused; a freed slot lets a viewer in again.
func TestAuthenticatedConnectionsAreCapped(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxConnections = 1 })
	first, err := dial(f.addr, gossh.PublicKeys(f.client))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := dial(f.addr, gossh.PublicKeys(f.client)); err == nil {
		c.Close()
		t.Fatal("a second login over MaxConnections=1 was let in")
	}
	first.Close()
	viewerGetsIn(t, f, 5*time.Second)
}

// TestRefusalLogIsRateLimited: one WARN line per period, the next one
// carrying how many were held back.
func TestRefusalLogIsRateLimited(t *testing.T) {
	var out strings.Builder
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &rateLimitedLog{log: slog.New(slog.NewTextHandler(&out, nil)), every: 10 * time.Second,
		now: func() time.Time { return now }}
	for range 1000 {
		r.warn("connection refused")
	}
	now = now.Add(10 * time.Second)
	r.warn("connection refused")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines for 1001 refusals over 10 s, want 2:\n%s", len(lines), out.String())
	}
	if !strings.Contains(lines[1], "suppressed_since_last=999") {
		t.Errorf("second line = %q, want suppressed_since_last=999", lines[1])
	}
}

// slowClient opens a TCP connection from the loopback address from (e.g.
// "127.0.0.2") and sends one byte every `every` until stop closes, never
// finishing the SSH handshake: the attack of issue 15 item 1.
func slowClient(t *testing.T, addr, from string, every time.Duration, stop <-chan struct{}) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("dial from %s: %v", from, err)
	}
	t.Cleanup(func() { c.Close() })
	go func() {
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := c.Write([]byte("S")); err != nil {
					return
				}
			}
		}
	}()
	return c
}

// viewerGetsIn dials as the authorized client until a session shows the
// dashboard, failing after within.
func viewerGetsIn(t *testing.T, f *fixture, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		c, err := dial(f.addr, gossh.PublicKeys(f.client))
		if err == nil {
			t.Cleanup(func() { c.Close() })
			openViewer(t, c, 80, 24, nil).screen.waitFor(t, "Balances", 5*time.Second)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the viewer was kept out for %s: %v", within, err)
		}
		time.Sleep(20 * time.Millisecond) // polls; bounded by deadline
	}
}

// TestSlowHandshakesDoNotLockViewersOut: 64 connections that never
// authenticate, trickling one byte now and then, used to fill the one
// connection limit for minutes. Now they get a small budget of their
// own (per source address too), a viewer still gets in at once, a viewer
// already watching keeps its session, and the refusals are logged a few
// lines at a time, not one per connection.
func TestSlowHandshakesDoNotLockViewersOut(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hosts int // the 64 slow connections come from this many addresses
	}{
		{"one address", 1},
		{"many addresses", 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			logs := &testkit.Buffer{}
			f := newFixture(t, func(c *Config) {
				c.Logger = slog.New(slog.NewTextHandler(logs, nil))
				// HandshakeTimeout stays long: the budget, not the deadline, must let the viewer in
			})
			c := mustDial(t, f.addr, f.client)
			watching := openViewer(t, c, 80, 24, nil)
			watching.screen.waitFor(t, "Balances", 5*time.Second)

			stop := make(chan struct{})
			defer close(stop)
			for i := range 64 {
				slowClient(t, f.addr, fmt.Sprintf("127.0.0.%d", 2+i%tc.hosts), 50*time.Millisecond, stop)
			}
			viewerGetsIn(t, f, 3*time.Second)

			// The viewer who was already in is still served.
			f.hub.Publish(&state.Snapshot{Version: 4242})
			watching.screen.waitFor(t, "4242", 5*time.Second)

			if n := strings.Count(logs.String(), "level=WARN"); n > 3 {
				t.Errorf("%d WARN lines for 64 refused connections, want a rate-limited few:\n%s", n, logs.String())
			}
		})
	}
}

// TestHandshakeDeadline: a connection that has not authenticated within
// HandshakeTimeout is closed, however busily it trickles bytes.
func TestHandshakeDeadline(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.HandshakeTimeout = 300 * time.Millisecond })
	stop := make(chan struct{})
	defer close(stop)
	c := slowClient(t, f.addr, "127.0.0.1", 20*time.Millisecond, stop)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 256)
	for {
		_, err := c.Read(buf)
		if err == nil {
			continue // the server's version line
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("an unauthenticated connection was still open after 5 s, want it closed after 300 ms")
		}
		break
	}
	// A viewer who authenticates in time stays on well past the deadline.
	cl := mustDial(t, f.addr, f.client)
	v := openViewer(t, cl, 80, 24, nil)
	v.screen.waitFor(t, "Balances", 5*time.Second)
	time.Sleep(600 * time.Millisecond) // twice the handshake deadline
	f.hub.Publish(&state.Snapshot{Version: 4243})
	v.screen.waitFor(t, "4243", 5*time.Second)
}
