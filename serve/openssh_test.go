package serve

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
)

// openSSHViewer serves the dashboard of a live simulator account and
// runs the stock OpenSSH client against it in a w×h tmux window, checking
// the host key strictly.
func openSSHViewer(t *testing.T, w, h int) (*fixture, *testkit.Term) {
	t.Helper()
	needTools(t, "ssh", "tmux")
	f := liveServer(t, newLive(t, 20))
	return f, f.openSSHTerm(t, "", w, h)
}

// showsReadOnlyDashboard says a viewer's screen shows the read-only dashboard.
func showsReadOnlyDashboard(s string) bool {
	return strings.Contains(s, "Balances") && strings.Contains(s, "READ-ONLY")
}

// quitViewer presses q in the viewer's terminal and waits until the
// server has no session left.
func (f *fixture) quitViewer(t *testing.T, term *testkit.Term) {
	t.Helper()
	term.Keys("q")
	testkit.Eventually(t, 10*time.Second, func() bool { return f.srv.Sessions() == 0 }, "q to end the session")
}

// openSSHTerm runs the stock OpenSSH client in a w×h tmux window, logging
// in to f with a new key whose authorized_keys line (beside f.client's)
// carries options, checking the host key strictly.
func (f *fixture) openSSHTerm(t *testing.T, options string, w, h int) *testkit.Term {
	t.Helper()
	keyFile, signer := testkit.OpenSSHKey(t)
	writeAuthorizedKeys(t, f.keysFile, f.client, signer)
	if options != "" {
		line := options + " " + strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
		testkit.WriteFile(t, f.keysFile, line+"\n")
	}
	sshCmd := "ssh " + strings.Join(testkit.OpenSSHArgs(f.addr, keyFile, f.knownHosts(t)), " ")
	return testkit.NewTmux(t).Term(t, w, h, sshCmd+"; sleep 30")
}

// TestSingleAccountHonoursKeyAccounts: one unnamed account served (it is
// "default"); a stock OpenSSH key whose BHTOP_ACCOUNTS names only other
// accounts is refused at login (the log says why, the client is told
// nothing), and one that names default sees the dashboard.
func TestSingleAccountHonoursKeyAccounts(t *testing.T) {
	needTools(t, "ssh", "tmux")
	l := newLive(t, 20)
	logs := &testkit.Buffer{}
	f := newFixture(t, func(c *Config) {
		c.NewModel, c.Upstream = nil, l.sess
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})
	refused := f.openSSHTerm(t, `environment="BHTOP_ACCOUNTS=main,bot"`, 100, 30)
	scr := refused.WaitFor("the login refused", func(s string) bool { return strings.Contains(s, "Permission denied") })
	if strings.Contains(scr, "Balances") || strings.Contains(scr, "BHTOP_ACCOUNTS") || strings.Contains(scr, "main") {
		t.Errorf("a key allowed only other accounts saw the dashboard or was told why:\n%s", scr)
	}
	testkit.Eventually(t, 5*time.Second, func() bool {
		return strings.Contains(logs.String(), "allows none of the accounts served")
	}, "the log to say why the key was refused")

	term := f.openSSHTerm(t, `environment="BHTOP_ACCOUNTS=main,default"`, 120, 40)
	term.WaitFor("the dashboard for a key naming default", showsReadOnlyDashboard)
	f.quitViewer(t, term)
}

// TestStockOpenSSHClient runs the OpenSSH client in a tmux window against
// the server (real simulator, real dashboard), checking the host key
// strictly, and reads the screen tmux shows.
func TestStockOpenSSHClient(t *testing.T) {
	f, term := openSSHViewer(t, 120, 40)
	term.WaitFor("the dashboard over OpenSSH", showsReadOnlyDashboard)
	f.quitViewer(t, term)
}

// TestOpenSSHWindowResize: resizing the stock OpenSSH client's window
// (its tmux window) redraws the dashboard for the new size: tabs at
// 80×24, the panes side by side at 160×48, no line wider than the window.
func TestOpenSSHWindowResize(t *testing.T) {
	f, term := openSSHViewer(t, 160, 48)
	wide := func(s string) bool {
		return strings.Contains(s, "Balances (") && strings.Contains(s, "│  Positions (")
	}
	tabs := func(s string) bool { return strings.Contains(s, "1 Balances") || strings.Contains(s, "1 Bal") }
	term.WaitFor("the panes side by side at 160x48", wide)
	for _, size := range []struct {
		w, h int
		what string
		ok   func(string) bool
	}{{80, 24, "tabs at 80x24", tabs}, {160, 48, "the panes side by side again", wide}} {
		term.Resize(size.w, size.h)
		scr := term.WaitFor(size.what, size.ok)
		for _, line := range strings.Split(scr, "\n") {
			if w := len([]rune(line)); w > size.w {
				t.Errorf("a line of %d columns in a %d-column window: %q", w, size.w, line)
			}
		}
	}
	f.quitViewer(t, term)
}

// TestOpenSSHNoPtyKey: an interactive stock OpenSSH client whose key's
// line says no-pty asks for a terminal, is refused one, and is told that
// the key does not allow a terminal (never to connect with ssh -t).
func TestOpenSSHNoPtyKey(t *testing.T) {
	needTools(t, "ssh", "tmux")
	f := newFixture(t, nil)
	term := f.openSSHTerm(t, "no-pty", 100, 30)
	scr := term.WaitFor("the refusal", func(s string) bool { return strings.Contains(s, "bhtop serve:") })
	if !strings.Contains(scr, "key does not allow a terminal") || strings.Contains(scr, "ssh -t") {
		t.Errorf("a no-pty key was not told its key allows no terminal:\n%s", scr)
	}
}
