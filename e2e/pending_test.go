package e2e

import (
	"net/http"
	"os"
	"path/filepath"
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

// TestQuitWithAnOrderInFlightSaysSo: q while an order's request has no
// answer yet (the service holds it) ends bhtop, and stderr says that
// order's outcome is unknown, with its terms and client order id, so
// that it can be checked; bhtop used to exit saying nothing of it.
func TestQuitWithAnOrderInFlightSaysSo(t *testing.T) {
	s := startSim(t, "--activity", "0")
	env, posted := holdingFront(t, s, http.MethodPost, "/openapi/v1/order", 1) // the service never answers the order
	stderr := filepath.Join(t.TempDir(), "stderr")
	tm := startTerm(t, 160, 48, env, "2>"+stderr)
	tm.waitText("● live")
	tm.reviewXRPOrder()
	tm.keys("y")
	<-posted
	tm.waitText("PENDING")
	tm.quit()
	b, err := os.ReadFile(stderr)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{"BUY 100 XRPUSDT LIMIT @ 0.1", "outcome is unknown", "client order id bh"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr %q lacks %q", got, want)
		}
	}
}
