package e2e

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// TestAlertsFiringTogetherAllShow: two rules that fire at once (both
// prices are above their level from the start) show one toast, the
// newest, and both in the Events pane as "alert" lines, so the first is
// not lost under the second.
func TestAlertsFiringTogetherAllShow(t *testing.T) {
	s := startSim(t, "--activity", "0")
	rules := "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 1\n" +
		"[[alerts]]\nkind = \"price_cross\"\nsymbol = \"ETHUSDT\"\nabove = 1\n"
	cfg := testkit.WriteFile(t, filepath.Join(t.TempDir(), "config.toml"), rules)
	tm := s.dashboard(t, 160, 48, "--config", cfg)
	tm.waitText("⚑ ")
	tm.keys("4") // Events
	tm.waitFor("both alerts in Events", func(screen string) bool {
		return alertLines(screen, "BTCUSDT price", "ETHUSDT price") == 2
	})
	tm.quit()
}

// alertLines counts the Events pane's alert lines on screen; with about,
// only those that contain one of its texts.
func alertLines(screen string, about ...string) int {
	n := 0
	for line := range strings.SplitSeq(screen, "\n") {
		if strings.Contains(line, " alert ") && (len(about) == 0 || slices.ContainsFunc(about, func(a string) bool {
			return strings.Contains(line, a)
		})) {
			n++
		}
	}
	return n
}
