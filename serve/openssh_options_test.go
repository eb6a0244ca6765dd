package serve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"bhtop/internal/testkit"
)

// needTools skips the test when one of tools is not installed.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

// knownHosts writes a known_hosts file naming the server's host key at
// its address, and returns its path.
func (f *fixture) knownHosts(t *testing.T) string {
	t.Helper()
	host, port, _ := net.SplitHostPort(f.addr)
	line := fmt.Sprintf("[%s]:%s %s", host, port, gossh.MarshalAuthorizedKey(f.srv.HostKey()))
	return testkit.WriteFile(t, filepath.Join(f.dir, "known_hosts"), line)
}

// TestOpenSSHKeyOptions runs the stock OpenSSH client against keys whose
// authorized_keys lines carry options: from= refuses a login (the client
// is told nothing, the log says why), BHTOP_ACCOUNTS reaches the viewer,
// no-pty and restrict refuse the terminal, and a keys file made writable by
// others revokes every key.
func TestOpenSSHKeyOptions(t *testing.T) {
	needTools(t, "ssh")
	logs := &testkit.Buffer{}
	var tick atomic.Int64 // the refusal log's clock: a minute per call, so no line is held back
	f := newFixture(t, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
		c.now = func() time.Time { return time.Unix(tick.Add(60), 0) }
	})
	keyFile, signer := testkit.OpenSSHKey(t)
	pub := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))
	setLine := func(options string) {
		t.Helper()
		line := pub + " desk@test\n"
		if options != "" {
			line = options + " " + line
		}
		if err := os.WriteFile(f.keysFile, []byte(line), 0o600); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Duration(len(options)) * time.Millisecond) // a new mtime: re-read
		_ = os.Chtimes(f.keysFile, later, later)
	}
	ssh := func(ctx context.Context, tty bool, stdin io.Reader) (string, int) {
		t.Helper()
		tt := "-T"
		if tty {
			tt = "-tt"
		}
		cmd := exec.CommandContext(ctx, "ssh", testkit.OpenSSHArgs(f.addr, keyFile, "", "-o", "LogLevel=ERROR", "-o", "ConnectTimeout=5", tt)...)
		cmd.Stdin = stdin
		out, _ := cmd.CombinedOutput()
		return string(out), cmd.ProcessState.ExitCode()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	t.Run("from refuses", func(t *testing.T) {
		setLine(`from="10.0.0.0/8"`)
		out, code := ssh(ctx, false, nil)
		if code != 255 || !strings.Contains(out, "Permission denied") {
			t.Errorf("ssh: exit %d, %q; want 255 and permission denied", code, out)
		}
		if strings.Contains(out, "from") || strings.Contains(out, "10.0.0.0") {
			t.Errorf("the client was told why: %q", out)
		}
		if !strings.Contains(logs.String(), `does not match from=\"10.0.0.0/8\"`) {
			t.Errorf("the log does not say why:\n%s", logs.String())
		}
	})

	t.Run("negation refuses", func(t *testing.T) {
		setLine(`from="*,!127.0.0.1"`)
		if out, code := ssh(ctx, false, nil); code != 255 {
			t.Errorf("ssh: exit %d, %q; want 255", code, out)
		}
	})

	// As sshd: a line with two from= grants nothing (a second one must
	// not widen the first), of several expiry-time= the earliest holds
	// (a later one must not revive an expired key), and an environment=
	// that is not NAME=value grants nothing (a mistyped BHTOP_ACCOUNTS
	// must not mean every account).
	for _, opts := range []string{`from="10.0.0.0/8",from="*"`, `expiry-time="20000101",expiry-time="20991231"`,
		`environment="BHTOP_ACCOUNTS:main"`, `environment="BHTOP_ACCOUNTS =main"`} {
		t.Run(opts, func(t *testing.T) {
			setLine(opts)
			if out, code := ssh(ctx, false, nil); code != 255 {
				t.Errorf("ssh with %s: exit %d, %q; want 255 (refused)", opts, code, out)
			}
		})
	}

	// pipe is the client's stdin: an *os.File, so that exec does not wait
	// for a copying goroutine after ssh exits.
	pipe := func() (*os.File, *os.File) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Close(); w.Close() })
		return r, w
	}

	t.Run("from and accounts allow", func(t *testing.T) {
		setLine(`from="10.*,127.0.0.0/8",environment="BHTOP_ACCOUNTS=main,bot1"`)
		stdin, w := pipe()
		done := make(chan struct{})
		var out string
		var code int
		go func() { out, code = ssh(ctx, true, stdin); close(done) }()
		select {
		case v := <-f.viewers:
			if !slices.Equal(v.Accounts, []string{"main", "bot1"}) {
				t.Errorf("Viewer.Accounts = %q, want [main bot1]", v.Accounts)
			}
		case <-time.After(15 * time.Second):
			t.Fatalf("no session; log:\n%s", logs.String())
		}
		_, _ = w.Write([]byte("q"))
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Fatal("q did not end the session")
		}
		if code != 0 {
			t.Errorf("ssh: exit %d, %q", code, out)
		}
	})

	for _, opts := range []string{"no-pty", "restrict"} {
		t.Run(opts, func(t *testing.T) {
			setLine(opts)
			// OpenSSH's -tt makes a refused pty fatal; an interactive ssh
			// goes on and is told the dashboard needs a terminal.
			out, code := ssh(ctx, true, strings.NewReader(""))
			if code == 0 || !strings.Contains(out, "PTY allocation request failed") {
				t.Errorf("ssh -tt with %s: exit %d, %q; want a refused pty", opts, code, out)
			}
			if f.srv.Sessions() != 0 {
				t.Error("a session is open")
			}
			// Without -tt the session goes on: it is told the key allows
			// no terminal, never to retry with ssh -t, which cannot help.
			out, code = ssh(ctx, false, strings.NewReader(""))
			if code != 1 || !strings.Contains(out, "key does not allow a terminal") || strings.Contains(out, "ssh -t") {
				t.Errorf("ssh -T with %s: exit %d, %q; want 1 and that the key allows no terminal", opts, code, out)
			}
		})
	}

	t.Run("restrict,pty allows", func(t *testing.T) {
		setLine(`restrict,pty`)
		stdin, w := pipe()
		done := make(chan int)
		go func() { _, code := ssh(ctx, true, stdin); done <- code }()
		select {
		case v := <-f.viewers:
			if v.Accounts != nil {
				t.Errorf("Viewer.Accounts = %q, want nil (all)", v.Accounts)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("no session")
		}
		_, _ = w.Write([]byte("q"))
		if code := testkit.Recv(t, done, 10*time.Second, "ssh did not exit after q"); code != 0 {
			t.Errorf("exit %d", code)
		}
	})

	t.Run("writable file revokes", func(t *testing.T) {
		setLine("")
		if err := os.Chmod(f.keysFile, 0o666); err != nil {
			t.Fatal(err)
		}
		later := time.Now().Add(time.Hour)
		_ = os.Chtimes(f.keysFile, later, later)
		if out, code := ssh(ctx, false, nil); code != 255 {
			t.Errorf("ssh with a mode 0666 keys file: exit %d, %q; want 255", code, out)
		}
		if !strings.Contains(logs.String(), "writable by group or others") {
			t.Errorf("the log does not say why:\n%s", logs.String())
		}
	})
}
