package e2e

import (
	"strings"
	"testing"
)

// TestOrderInFlightShowsItsTerms: an order whose answer is lost (504,
// not placed) shows in Open Orders with what was sent (type, quantity,
// price) while UNKNOWN and once NOT_PLACED, and a NOT_PLACED order is
// not counted as open.
func TestOrderInFlightShowsItsTerms(t *testing.T) {
	s := startSim(t, "--activity", "0", "--order-error-rate", "1")
	tm := s.dashboard(t, 160, 48)
	tm.waitText("USDT")
	tm.keys("2")
	tm.waitText("Open Orders (0)")

	tm.keys("n")
	tm.waitText("New spot order")
	tm.text("XRPUSDT")
	tm.keys("Tab", "Tab", "Tab", "Tab")
	tm.text("123")
	tm.keys("Tab")
	tm.text("0.0987")
	tm.keys("Enter")
	tm.waitText("SEND THIS ORDER?")
	tm.keys("y")
	row := func(status string) func(string) bool {
		return func(sc string) bool {
			for _, line := range strings.Split(sc, "\n") {
				if strings.Contains(line, "XRPUSDT") && strings.Contains(line, status) {
					return strings.Contains(line, "LIMIT") && strings.Contains(line, "123") && strings.Contains(line, "0.0987")
				}
			}
			return false
		}
	}
	tm.waitFor("the UNKNOWN row with its terms", row("UNKNOWN"))
	screen := tm.waitFor("the NOT_PLACED row with its terms", row("NOT_PLACED"))
	if !strings.Contains(screen, "Open Orders (0)  +1 not placed") {
		t.Errorf("the order not placed is counted as open, or not said:\n%s", screen)
	}
	tm.quit()
	wantSent(t, s.requests(t), map[string]int{"POST /openapi/v1/order": 1})
}
