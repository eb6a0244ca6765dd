package serve

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
	"bhtop/state"
)

func TestAuthorizedKeyGetsDashboard(t *testing.T) {
	f := newFixture(t, nil)
	f.hub.Publish(&state.Snapshot{Version: 7, Balances: []state.Balance{{Asset: "BTC", Free: "1.50000000", Locked: "0"}}})
	c := mustDial(t, f.addr, f.client)
	v := openViewer(t, c, 100, 30, nil)
	v.screen.waitFor(t, "Balances", 5*time.Second)
	v.screen.waitFor(t, "BTC    1.50000000", 5*time.Second)
	v.screen.waitFor(t, "size 100x30", 5*time.Second)

	f.hub.Publish(&state.Snapshot{Version: 8, Balances: []state.Balance{{Asset: "ETH", Free: "2", Locked: "0"}}})
	v.screen.waitFor(t, "ETH", 5*time.Second)

	if _, err := v.stdin.Write([]byte("q")); err != nil {
		t.Fatal(err)
	}
	if err := v.wait(t, 5*time.Second); err != nil {
		t.Errorf("session after q ended with %v, want exit 0", err)
	}
}

func TestRefusedAuthentication(t *testing.T) {
	f := newFixture(t, nil)
	stranger := newClientKey(t)
	tests := []struct {
		name string
		auth gossh.AuthMethod
	}{
		{"unknown key", gossh.PublicKeys(stranger)},
		{"password", gossh.Password("hunter2")},
		{"keyboard-interactive", gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) {
			return []string{"hunter2"}, nil
		})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := dial(f.addr, tt.auth)
			if err == nil {
				c.Close()
				t.Fatalf("dial with %s = ok, want refused", tt.name)
			}
			if !strings.Contains(err.Error(), "unable to authenticate") {
				t.Errorf("dial with %s = %v, want an authentication failure", tt.name, err)
			}
		})
	}
}

func TestNoPtyGetsMessage(t *testing.T) {
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	out, err := sess.CombinedOutput("dump")
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Errorf("session without pty ended with %v, want exit status 1", err)
	}
	if !strings.Contains(string(out), "needs a terminal") || !strings.Contains(string(out), "ssh -t") {
		t.Errorf("session without pty printed %q, want the needs-a-terminal message", out)
	}
}

func TestAuthorizedKeysReread(t *testing.T) {
	f := newFixture(t, nil)
	second := newClientKey(t)
	if c, err := dial(f.addr, gossh.PublicKeys(second)); err == nil {
		c.Close()
		t.Fatal("second key accepted before it was listed")
	}
	writeAuthorizedKeys(t, f.keysFile, second)
	c, err := dial(f.addr, gossh.PublicKeys(second))
	if err != nil {
		t.Fatalf("second key after it was listed: %v", err)
	}
	c.Close()
	if c, err := dial(f.addr, gossh.PublicKeys(f.client)); err == nil {
		c.Close()
		t.Fatal("first key still accepted after it was removed")
	}

	for _, broken := range []struct {
		name  string
		spoil func()
	}{
		{"deleted", func() { os.Remove(f.keysFile) }},
		{"unparsable", func() { os.WriteFile(f.keysFile, []byte("ssh-ed25519 ???\n"), 0o600) }},
	} {
		writeAuthorizedKeys(t, f.keysFile, second)
		if c, err := dial(f.addr, gossh.PublicKeys(second)); err != nil {
			t.Fatalf("listed key before the file was %s: %v", broken.name, err)
		} else {
			c.Close()
		}
		broken.spoil()
		if c, err := dial(f.addr, gossh.PublicKeys(second)); err == nil {
			c.Close()
			t.Errorf("key accepted after the file was %s, want refused (fail closed)", broken.name)
		}
	}
}

func TestMaxSessions(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxSessions = 2 })
	c := mustDial(t, f.addr, f.client)
	for i := 0; i < 2; i++ {
		openViewer(t, c, 80, 24, nil).screen.waitFor(t, "Balances", 5*time.Second)
	}
	third := openViewer(t, c, 80, 24, nil)
	err := third.wait(t, 5*time.Second)
	var exit *gossh.ExitError
	if !errors.As(err, &exit) || exit.ExitStatus() != 1 {
		t.Errorf("third session ended with %v, want exit status 1", err)
	}
	third.screen.waitFor(t, "too many viewers (the limit is 2)", time.Second)
	if n := f.srv.Sessions(); n != 2 {
		t.Errorf("Sessions() = %d, want 2", n)
	}
}

func TestIdleTimeout(t *testing.T) {
	const idle = 400 * time.Millisecond
	f := newFixture(t, func(c *Config) { c.IdleTimeout = idle })
	c := mustDial(t, f.addr, f.client)
	quiet := openViewer(t, c, 80, 24, nil)
	typing := openViewer(t, c, 80, 24, nil)

	start := time.Now()
	tick := time.NewTicker(idle / 4)
	defer tick.Stop()
	for time.Since(start) < 3*idle {
		<-tick.C
		if _, err := typing.stdin.Write([]byte("j")); err != nil {
			t.Fatalf("typing: %v", err)
		}
	}
	select {
	case err := <-quiet.done:
		if err != nil {
			t.Errorf("idle session ended with %v, want exit 0", err)
		}
	default:
		t.Fatalf("session without input still open after %s", time.Since(start))
	}
	quiet.screen.waitFor(t, "without input", time.Second)
	select {
	case err := <-typing.done:
		t.Fatalf("session with input every %s ended (%v)", idle/4, err)
	default:
	}
}

func TestWindowChangeResizes(t *testing.T) {
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	v := openViewer(t, c, 80, 24, nil)
	v.screen.waitFor(t, "size 80x24", 5*time.Second)
	v.windowChange(t, 132, 40)
	v.screen.waitFor(t, "size 132x40", 5*time.Second)
}

func TestViewerEnvironment(t *testing.T) {
	tests := []struct {
		name        string
		env         map[string]string
		wantProfile colorprofile.Profile
		wantNoColor bool
	}{
		{"xterm-256color", nil, colorprofile.ANSI256, false},
		{"truecolor", map[string]string{"COLORTERM": "truecolor"}, colorprofile.TrueColor, false},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, colorprofile.ASCII, true},
	}
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			openViewer(t, c, 80, 24, tt.env)
			var v Viewer
			select {
			case v = <-f.viewers:
			case <-time.After(5 * time.Second):
				t.Fatal("no session started")
			}
			if v.Profile != tt.wantProfile {
				t.Errorf("Profile(env %v) = %v, want %v", tt.env, v.Profile, tt.wantProfile)
			}
			if v.NoColor() != tt.wantNoColor {
				t.Errorf("NoColor(env %v) = %v, want %v", tt.env, v.NoColor(), tt.wantNoColor)
			}
			if v.Term != "xterm-256color" || v.Width != 80 || v.Height != 24 {
				t.Errorf("Viewer = %q %dx%d, want xterm-256color 80x24", v.Term, v.Width, v.Height)
			}
			if v.Fingerprint != gossh.FingerprintSHA256(f.client.PublicKey()) {
				t.Errorf("Fingerprint = %q, want the client key's", v.Fingerprint)
			}
		})
	}
}

func TestShutdownEndsSessions(t *testing.T) {
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	a := openViewer(t, c, 80, 24, nil)
	b := openViewer(t, c, 80, 24, nil)
	a.screen.waitFor(t, "Balances", 5*time.Second)
	b.screen.waitFor(t, "Balances", 5*time.Second)
	go func() { _ = f.srv.Shutdown(t.Context()) }()
	for _, v := range []*viewer{a, b} {
		_ = v.wait(t, 5*time.Second)
		v.screen.waitFor(t, "the server is shutting down", time.Second)
	}
	if _, err := dial(f.addr, gossh.PublicKeys(f.client)); err == nil {
		t.Error("dial after Shutdown succeeded, want refused")
	}
}

func TestHugeWindowIsCapped(t *testing.T) {
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	v := openViewer(t, c, 100000, 50000, nil)
	got := testkit.Recv(t, f.viewers, 10*time.Second, "no viewer for the 100000x50000 pty")
	if got.Width != MaxWidth || got.Height != MaxHeight {
		t.Errorf("Viewer size for a 100000x50000 pty = %dx%d, want %dx%d", got.Width, got.Height, MaxWidth, MaxHeight)
	}
	v.screen.waitFor(t, fmt.Sprintf("size %dx%d", MaxWidth, MaxHeight), 5*time.Second)
	v.windowChange(t, 1<<20, 1<<20)
	v.windowChange(t, 60, 20)
	v.screen.waitFor(t, "size 60x20", 5*time.Second)
}

func TestClamp(t *testing.T) {
	tests := []struct{ n, limit, want int }{
		{-5, 10, 1}, {0, 10, 1}, {1, 10, 1}, {9, 10, 9}, {10, 10, 10}, {1 << 30, 10, 10},
	}
	for _, tt := range tests {
		if got := clamp(tt.n, tt.limit); got != tt.want {
			t.Errorf("clamp(%d, %d) = %d, want %d", tt.n, tt.limit, got, tt.want)
		}
	}
}

func TestNoForwardingNoSubsystems(t *testing.T) {
	f := newFixture(t, nil)
	c := mustDial(t, f.addr, f.client)
	t.Run("local port forwarding", func(t *testing.T) {
		if conn, err := c.Dial("tcp", f.addr); err == nil {
			conn.Close()
			t.Error("direct-tcpip to the server's own port was accepted, want refused")
		}
	})
	t.Run("remote port forwarding", func(t *testing.T) {
		if ln, err := c.Listen("tcp", "127.0.0.1:0"); err == nil {
			ln.Close()
			t.Error("tcpip-forward was accepted, want refused")
		}
	})
	t.Run("sftp subsystem", func(t *testing.T) {
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		if err := sess.RequestSubsystem("sftp"); err == nil {
			t.Error("the sftp subsystem was accepted, want refused")
		}
	})
}
