package serve

import (
	"net"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestConnectionsAreCapped: connections that never finish their handshake
// (a scanner, a flood) each hold memory until Stall cuts them; beyond
// MaxConnections a new one is closed at once, and a freed slot lets a
// viewer in again.
func TestConnectionsAreCapped(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxConnections = 3 })
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
			t.Fatalf("a connection under the cap: %v", err)
		}
	}
	extra, err := net.Dial("tcp", f.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer extra.Close()
	_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 64)
	if n, err := extra.Read(buf); err == nil {
		t.Fatalf("a connection over the cap was served (read %q), want it closed", buf[:n])
	} else if ne, ok := err.(net.Error); ok && ne.Timeout() {
		t.Fatal("a connection over the cap was left open, want it closed at once")
	}

	idle[0].Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := dial(f.addr, gossh.PublicKeys(f.client))
		if err == nil {
			t.Cleanup(func() { c.Close() })
			openViewer(t, c, 80, 24, nil).screen.waitFor(t, "Balances", 5*time.Second)
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no viewer let in after a slot was freed: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // polls until the server has released the slot
	}
}
