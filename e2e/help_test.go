package e2e

import (
	"strings"
	"testing"
)

// TestHelpScrollsOnASmallTerminal: at 60×20 `?` opens the help in two
// columns that do not fit the height; the scroll keys reach its last
// line (q quit) and say where they are, esc closes it, and q in the help
// quits as it did.
func TestHelpScrollsOnASmallTerminal(t *testing.T) {
	s := startSim(t)
	tm := s.dashboard(t, 60, 20)

	tm.keys("?")
	first := tm.waitText("1–10 of ")
	if !strings.Contains(first, "tab       next pane") || !strings.Contains(first, "new order") {
		t.Fatalf("the help does not show two columns:\n%s", first)
	}
	if strings.Contains(first, "q   quit") {
		t.Fatalf("the help fits 60×20, nothing to scroll:\n%s", first)
	}
	tm.keys("j")
	tm.waitText("2–11 of ")
	tm.keys("End")
	end := tm.waitText("q   quit")
	if !strings.Contains(end, "↑") || !strings.Contains(end, "?   help") {
		t.Errorf("the end of the help:\n%s", end)
	}
	tm.keys("Escape")
	tm.waitFor("the help to close", func(s string) bool { return !strings.Contains(s, "Keys") && strings.Contains(s, "Open Orders") })

	tm.keys("?")
	tm.waitText("1–10 of ")
	tm.quit()
}
