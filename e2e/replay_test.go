package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestReplayJournalOnStdin (QA): `bhtop replay - --speed 1000 < day.jsonl`
// ended at once with "bubbletea: could not create cancelable reader: add
// reader to epoll interest list" (exit 1): the dashboard read its keys
// from stdin, the journal. It now reads them from the terminal
// (/dev/tty), as less does; a journal given by name with stdin not a
// terminal is refused in one line, exit 2, as the dashboard refuses it.
func TestReplayJournalOnStdin(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, "day.jsonl")
	gen, err := exec.Command(binary, "gen", "--events", "500", "--seed", "3").Output()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journal, gen, 0o600); err != nil {
		t.Fatal(err)
	}
	tm := startTerm(t, 100, 30, []string{"TERM=xterm-256color"}, "replay", "-", "--speed", "1000000", "<", journal)
	tm.waitText("■ replay ended")
	tm.quit()

	stderr := filepath.Join(dir, "stderr")
	tm = startTerm(t, 100, 30, []string{"TERM=xterm-256color"}, "replay", journal, "</dev/null", "2>"+stderr)
	if !testkit.WithinEvery(10*time.Second, 20*time.Millisecond, tm.dead) {
		t.Fatalf("replay with stdin /dev/null did not end; screen:\n%s", tm.Screen())
	}
	if code := tm.Format("#{pane_dead_status}"); code != "2" && code != "" {
		t.Errorf("exit %s, want 2", code)
	}
	b, _ := os.ReadFile(stderr)
	if line := strings.TrimSpace(string(b)); !strings.Contains(line, "needs a terminal") || strings.Contains(line, "\n") {
		t.Errorf("stderr %q, want one line saying the dashboard needs a terminal", b)
	}
}
