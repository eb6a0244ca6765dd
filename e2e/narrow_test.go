package e2e

import (
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
