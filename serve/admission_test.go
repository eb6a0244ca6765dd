package serve

import (
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
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
