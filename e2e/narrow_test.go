package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestNarrowStatusAndEvents: on the real binary, at 40×15 the status
// line's two lines show every item it must (the error count included),
// and at 60×20 an order's event, longer than the Events pane, goes on
// under itself with its price and order id instead of being cut.
func TestNarrowStatusAndEvents(t *testing.T) {
	s := startSim(t, "--activity", "0")
	small := s.dashboard(t, 40, 15)
	screen := small.waitText("err 0")
	lines := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	status := strings.Join(lines[len(lines)-2:], "\n")
	for _, w := range []string{"ev/s", "lag ", "off ", "wt ", "err 0"} {
		if !strings.Contains(status, w) {
			t.Errorf("status %q lacks %q", status, w)
		}
	}
	if strings.Contains(status, "…") {
		t.Errorf("status %q cuts an item", status)
	}
	small.quit()

	tm := s.dashboard(t, 60, 20)
	tm.keys("4")
	tm.waitText("Events (")
	orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "BUY", "--quantity", "100", "--price", "0.1234")
	screen = tm.waitFor("the new order's event, whole", func(s string) bool {
		return strings.Contains(s, "@ 0.1234") && strings.Contains(s, "(order ")
	})
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, "XRPUSDT") && strings.Contains(l, "…") {
			t.Errorf("the order's event is cut: %q", l)
		}
	}
	tm.quit()
}

// TestNarrowPositionsShowPnL (QA): on the real binary at 40×10 the
// Positions pane never showed the uPnL (the last of the columns that
// always show fell off the line); the Mark now gives way before it, at
// 40 and at 80 columns, with the simulator's long BTC-PERP-REV.
func TestNarrowPositionsShowPnL(t *testing.T) {
	s := startSim(t, "--activity", "0")
	orderCLI(t, s, "new", "--market", "contract", "--symbol", "BTC-PERP-REV", "--side", "BUY_OPEN", "--quantity", "5",
		"--price-type", "MARKET", "--leverage", "10")
	pnl := regexp.MustCompile(`(?m)^. BTC-PERP-REV .* [+-][0-9]+\.[0-9]+( |$)`) // the uPnL, not its %
	for _, sz := range [][2]int{{40, 10}, {80, 24}} {
		tm := s.dashboard(t, sz[0], sz[1])
		tm.keys("3")
		tm.waitText("uPnL")
		tm.waitFor(fmt.Sprintf("the position's uPnL at %d columns", sz[0]), pnl.MatchString)
		tm.quit()
	}
}
