//go:build unix

package e2e

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDashboardEndsOnSIGTERM: kill (SIGTERM) ends the dashboard, its
// terminal restored, every time. Bubble Tea's own signal handler and
// bhtop's both answered SIGTERM; when bhtop's won, Bubble Tea's stayed
// blocked sending its quit to the stopped program, and the program's
// shutdown waited for it for ever (2 runs of 10 never exited).
func TestDashboardEndsOnSIGTERM(t *testing.T) {
	for i := range 12 {
		tm := startTerm(t, 100, 30, []string{"XDG_CONFIG_HOME=/nonexistent", "TERM=xterm-256color"})
		tm.waitText("● live")
		pid, err := strconv.Atoi(strings.TrimSpace(tm.Format("#{pane_pid}")))
		if err != nil {
			t.Fatalf("pane pid: %v", err)
		}
		time.Sleep(time.Duration(i%4) * 150 * time.Millisecond)
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil {
			t.Fatalf("kill %d: %v", pid, err)
		}
		tm.waitFor("bhtop to exit on SIGTERM (run "+strconv.Itoa(i)+")", func(string) bool { return tm.dead() })
		if alt := tm.Format("#{alternate_on}"); alt != "0" {
			t.Errorf("run %d: the terminal was left on the alternate screen", i)
		}
	}
}
