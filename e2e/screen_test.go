package e2e

import (
	"regexp"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// TestResizeAndExitRestoreTheTerminal: the dashboard redraws the whole
// screen for a larger and a smaller window, and q gives the terminal back
// as it was: main screen, cursor shown, mouse and keypad modes off,
// auto-wrap on, and the TTY out of raw mode (stty after bhtop, in the
// same pane, shows icanon and echo; the shell then waits, as a dead
// pane shows no cursor).
func TestResizeAndExitRestoreTheTerminal(t *testing.T) {
	s := startSim(t, "--activity", "5")
	cmdline := "env " + strings.Join(credentials(s), " ") + " " + binary + "; stty -a; echo STTY-DONE; sleep 60"
	tm := &term{t: t, Term: testkit.NewTmux(t).Term(t, 100, 30, cmdline)}
	tm.waitText("● live")
	if got := tm.Format("#{alternate_on}"); got != "1" {
		t.Errorf("alternate screen while running = %q, want 1", got)
	}

	for _, size := range [][2]int{{140, 44}, {90, 24}} {
		w, h := size[0], size[1]
		tm.Resize(w, h)
		tm.waitFor("a frame for the new size", func(screen string) bool {
			lines := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
			// The header is the first row, the status line the last.
			return len(lines) == h && strings.Contains(lines[0], "● live") &&
				strings.Contains(lines[h-1], "silent")
		})
	}

	tm.keys("q")
	screen := tm.waitText("STTY-DONE")
	want := map[string]string{
		"#{alternate_on}":      "0",
		"#{cursor_flag}":       "1",
		"#{mouse_any_flag}":    "0",
		"#{mouse_button_flag}": "0",
		"#{mouse_sgr_flag}":    "0",
		"#{wrap_flag}":         "1",
	}
	for f, w := range want {
		if got := tm.Format(f); got != w {
			t.Errorf("after q: %s = %q, want %q", f, got, w)
		}
	}
	for _, mode := range []string{"icanon", "echo", "isig"} {
		if !regexp.MustCompile(`(^|\s)` + mode + `(\s|$)`).MatchString(screen) {
			t.Errorf("after q, stty shows no %s (raw mode left on):\n%s", mode, screen)
		}
	}
}
