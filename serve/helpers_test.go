package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
	"bhtop/internal/vtemu"
	"bhtop/state"
)

// fixture is a running Server on 127.0.0.1 with one authorized client key.
type fixture struct {
	srv      *Server
	addr     string
	dir      string
	keysFile string
	client   gossh.Signer // authorized
	hub      *state.Hub
	viewers  chan Viewer // every Viewer handed to NewModel
}

// newFixture starts a server whose sessions run the stand-in model over
// f.hub, after edit adjusts the config.
func newFixture(t testing.TB, edit func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	f := &fixture{dir: dir, keysFile: filepath.Join(dir, "authorized_keys"), client: newClientKey(t),
		hub: &state.Hub{}, viewers: make(chan Viewer, 64)}
	writeAuthorizedKeys(t, f.keysFile, f.client)
	cfg := Config{
		AuthorizedKeys: f.keysFile,
		HostKey:        filepath.Join(dir, "ssh_host_ed25519"),
		Grace:          500 * time.Millisecond,
		NewModel: func(_ context.Context, v Viewer) tea.Model {
			select {
			case f.viewers <- v:
			default:
			}
			m := newHubModel(f.hub)
			m.fill = slices.Contains(v.Environ, "FILL=1")
			return m
		},
		Logger: slog.New(slog.NewTextHandler(t.Output(), nil)),
	}
	if edit != nil {
		edit(&cfg)
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f.srv, f.addr = srv, ln.Addr().String()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := srv.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := testkit.Recv(t, served, 10*time.Second, "Serve did not return after Shutdown"); !errors.Is(err, ErrServerClosed) {
			t.Errorf("Serve = %v, want ErrServerClosed", err)
		}
	})
	return f
}

// newClientKey and writeAuthorizedKeys are the test kit's SSH key
// helpers (shared with cli's tests).
func newClientKey(t testing.TB) gossh.Signer { return testkit.SSHKey(t) }

func writeAuthorizedKeys(t testing.TB, path string, keys ...gossh.Signer) {
	t.Helper()
	testkit.WriteAuthorizedKeys(t, path, keys...)
}

// dial connects as user "desk" with the given auth methods.
func dial(addr string, auth ...gossh.AuthMethod) (*gossh.Client, error) {
	return gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            "desk",
		Auth:            auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Timeout:         5 * time.Second,
	})
}

func mustDial(t testing.TB, addr string, key gossh.Signer) *gossh.Client {
	t.Helper()
	c, err := dial(addr, gossh.PublicKeys(key))
	if err != nil {
		t.Fatalf("dial with an authorized key: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// screen is a session's terminal (what a terminal of the session's size
// shows, and the stream; benchmarks' screens keep the stream only) that
// can also record when each write came.
type screen struct {
	*vtemu.Screen
	mu     sync.Mutex
	stamps bool        // record write times (BenchmarkCapacity)
	writes []time.Time // the write times while stamps is on
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	if s.stamps {
		s.writes = append(s.writes, time.Now())
	}
	s.mu.Unlock()
	return s.Screen.Write(p)
}

// stamp turns the recording of write times on or off.
func (s *screen) stamp(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stamps = on
}

// writeTimes are the recorded write times, oldest first.
func (s *screen) writeTimes() []time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.writes)
}

// waitFor waits until the stream or the screen shows want.
func (s *screen) waitFor(t testing.TB, want string, within time.Duration) {
	t.Helper()
	if !testkit.Within(within, func() bool { return s.Shows(want) }) {
		t.Fatalf("screen never showed %q; it shows:\n%s", want, s.Text())
	}
}

// openViewers opens n viewers at 120×40, 16 handshakes at a time, and
// waits until each shows the dashboard.
func openViewers(t testing.TB, f *fixture, n int) []*viewer {
	t.Helper()
	vs := make([]*viewer, n)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			c, err := dial(f.addr, gossh.PublicKeys(f.client))
			if err != nil {
				t.Errorf("viewer %d: %v", i, err)
				return
			}
			t.Cleanup(func() { c.Close() })
			vs[i] = openViewer(t, c, 120, 40, nil)
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	for _, v := range vs {
		v.screen.waitFor(t, "Balances", 60*time.Second)
	}
	return vs
}

// viewer is one client session with a pty.
type viewer struct {
	sess   *gossh.Session
	stdin  io.WriteCloser
	screen *screen
	done   chan error // Wait's result
}

// openViewer requests a pty of w×h and a shell, and copies the output to
// its screen.
func openViewer(t testing.TB, c *gossh.Client, w, h int, env map[string]string) *viewer {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	for k, v := range env {
		if err := sess.Setenv(k, v); err != nil {
			t.Fatalf("setenv %s: %v", k, err)
		}
	}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		t.Fatalf("request pty: %v", err)
	}
	term := vtemu.NewScreen(clamp(w, MaxWidth), clamp(h, MaxHeight))
	if _, bench := t.(*testing.B); bench {
		term = vtemu.NewScreen(0, 0)
	}
	v := &viewer{sess: sess, screen: &screen{Screen: term}, done: make(chan error, 1)}
	sess.Stdout = v.screen
	sess.Stderr = v.screen
	if v.stdin, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatalf("shell: %v", err)
	}
	go func() { v.done <- sess.Wait() }()
	t.Cleanup(func() { sess.Close() })
	return v
}

// windowChange resizes the client's window to w×h.
func (v *viewer) windowChange(t testing.TB, w, h int) {
	t.Helper()
	v.screen.Resize(clamp(w, MaxWidth), clamp(h, MaxHeight))
	if err := v.sess.WindowChange(h, w); err != nil {
		t.Fatal(err)
	}
}

// wait returns the session's exit error, failing after within.
func (v *viewer) wait(t testing.TB, within time.Duration) error {
	t.Helper()
	select {
	case err := <-v.done:
		return err
	case <-time.After(within):
		t.Fatalf("session did not end within %s; screen:\n%s", within, v.screen.Text())
		return nil
	}
}

// hubModel is a stand-in dashboard: it shows the Hub's version and the
// balances, quits on q, and shows its window size.
type hubModel struct {
	hub    *state.Hub
	notice <-chan struct{}
	unsub  func()
	snap   *state.Snapshot
	w, h   int
	fill   bool // fill the screen with the version, so every frame is a full one
}

type changedMsg struct{}

func newHubModel(hub *state.Hub) *hubModel {
	c, unsub := hub.Subscribe()
	return &hubModel{hub: hub, notice: c, unsub: unsub, snap: hub.Latest()}
}

func (m *hubModel) wait() tea.Msg { <-m.notice; return changedMsg{} }

func (m *hubModel) Init() tea.Cmd { return m.wait }

func (m *hubModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case changedMsg:
		m.snap = m.hub.Latest()
		return m, m.wait
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			m.unsub()
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *hubModel) View() tea.View {
	var b strings.Builder
	fmt.Fprintf(&b, "Balances  size %dx%d  version %d\n", m.w, m.h, m.snap.Version)
	for _, bal := range m.snap.Balances {
		fmt.Fprintf(&b, "%-6s %s %s\n", bal.Asset, bal.Free, bal.Locked)
	}
	if m.fill {
		row := strings.Repeat(fmt.Sprintf("%d ", m.snap.Version), m.w/2+1)[:max(m.w-1, 0)]
		for i := len(m.snap.Balances) + 1; i < m.h; i++ {
			b.WriteString(row + "\n")
		}
	}
	v := tea.NewView(b.String())
	v.AltScreen = true
	return v
}
