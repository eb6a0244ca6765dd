package testkit

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tmux is a tmux server of the test's own (its socket in a temporary
// directory), so neither the test nor anyone's tmux disturbs the other.
type Tmux struct {
	socket string
}

// NewTmux starts using a private tmux server, killed when the test ends;
// it fails the test when tmux is not installed (.ci/run installs it).
func NewTmux(t testing.TB) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is needed for this test (.ci/run installs it)")
	}
	x := &Tmux{socket: filepath.Join(t.TempDir(), "tmux.sock")}
	t.Cleanup(func() { _, _ = x.Run("kill-server") })
	return x
}

// Run runs a tmux command on this server and returns its combined output.
func (x *Tmux) Run(args ...string) (string, error) {
	out, err := exec.Command("tmux", append([]string{"-S", x.socket}, args...)...).CombinedOutput()
	return string(out), err
}

// Term is one tmux session running a command.
type Term struct {
	t    testing.TB
	x    *Tmux
	name string
}

// Term opens a w×h session running cmdline (a shell command line); the
// pane stays after the program exits, so its exit can be seen.
func (x *Tmux) Term(t testing.TB, w, h int, cmdline string) *Term {
	t.Helper()
	tm := &Term{t: t, x: x, name: fmt.Sprintf("term-%d", time.Now().UnixNano())}
	if out, err := x.Run("new-session", "-d", "-s", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmdline); err != nil {
		t.Fatalf("tmux new-session: %v: %s", err, out)
	}
	_, _ = x.Run("set-option", "-t", tm.name, "remain-on-exit", "on")
	t.Cleanup(func() { _, _ = x.Run("kill-session", "-t", tm.name) })
	return tm
}

// Keys sends tmux key names (or, after "-l", literal text).
func (tm *Term) Keys(keys ...string) {
	tm.t.Helper()
	if out, err := tm.x.Run(append([]string{"send-keys", "-t", tm.name}, keys...)...); err != nil {
		tm.t.Fatalf("tmux send-keys %q: %v: %s", keys, err, out)
	}
}

// Type types literal text.
func (tm *Term) Type(s string) { tm.Keys("-l", s) }

// Screen is what the pane shows now ("" when it cannot be read).
func (tm *Term) Screen() string {
	out, err := tm.x.Run("capture-pane", "-p", "-t", tm.name)
	if err != nil {
		return ""
	}
	return out
}

// TermWithin is how long the screen waits wait.
const TermWithin = 20 * time.Second

// WaitFor polls the screen until cond holds, failing the test with what
// and the screen after TermWithin.
func (tm *Term) WaitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	var s string
	if !WithinEvery(TermWithin, 50*time.Millisecond, func() bool { s = tm.Screen(); return cond(s) }) {
		tm.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
	}
	return s
}

// WaitText waits until the screen shows sub.
func (tm *Term) WaitText(sub string) string {
	tm.t.Helper()
	return tm.WaitFor(fmt.Sprintf("%q", sub), func(s string) bool { return strings.Contains(s, sub) })
}

// Dead reports whether the program in the pane has exited.
func (tm *Term) Dead() bool {
	out, _ := tm.x.Run("display-message", "-p", "-t", tm.name, "#{pane_dead}")
	return strings.TrimSpace(out) == "1"
}

// Resize changes the session's window to w×h (the program gets SIGWINCH).
func (tm *Term) Resize(w, h int) {
	tm.t.Helper()
	if out, err := tm.x.Run("resize-window", "-t", tm.name, "-x", fmt.Sprint(w), "-y", fmt.Sprint(h)); err != nil {
		tm.t.Fatalf("tmux resize-window: %v: %s", err, out)
	}
}

// Format is a tmux format of the pane (e.g. "#{alternate_on}"): the
// terminal's modes as the program left them.
func (tm *Term) Format(format string) string {
	out, _ := tm.x.Run("display-message", "-p", "-t", tm.name, format)
	return strings.TrimSpace(out)
}
