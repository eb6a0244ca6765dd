package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
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

// TestQuitWithAnOrderInFlightSaysSo: quitting while an order's request,
// or a cancel's, has no answer yet (the service holds it) ends bhtop, and
// stderr names it as of unknown outcome, with the order's terms (and its
// client order id), so that it can be checked: on q, and on a second
// ctrl+c during the shutdown (the listenKey's DELETE held too), when the
// user most needs it. bhtop used to exit saying nothing of the order,
// and on the second interrupt, or of a cancel, still said nothing.
func TestQuitWithAnOrderInFlightSaysSo(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cancel    bool // a cancel in flight, else a new order
		interrupt bool // ctrl+c during the shutdown, else q alone
		want      []string
	}{
		{"order/q", false, false, []string{"order BUY 100 XRPUSDT LIMIT @ 0.1 (client order id bh", "outcome is unknown"}},
		{"order/interrupted", false, true, []string{"order BUY 100 XRPUSDT LIMIT @ 0.1 (client order id bh", "outcome is unknown"}},
		{"cancel/q", true, false, []string{"cancel of order SELL 7 XRPUSDT LIMIT @ 9.5 (order ", "outcome is unknown"}},
		{"cancel/interrupted", true, true, []string{"cancel of order SELL 7 XRPUSDT LIMIT @ 9.5 (order ", "outcome is unknown"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // two of the four wait out the shutdown's 5 s DELETE
			s := startSim(t, "--activity", "0")
			if tc.cancel {
				orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "SELL", "--quantity", "7", "--price", "9.5")
			}
			// The service never answers the order nor the cancel, nor the
			// listenKey's DELETE.
			env, held := holdingFront(t, s, 8, "POST /openapi/v1/order", "DELETE /openapi/v1/order", "DELETE /openapi/v1/userDataStream")
			posted, cancelling, deleting := held[0], held[1], held[2]
			stderr := filepath.Join(t.TempDir(), "stderr")
			tm := startTerm(t, 160, 48, env, "2>"+stderr)
			tm.waitText("● live")
			if tc.cancel {
				tm.keys("2")
				tm.waitText("Open Orders (1)")
				tm.keys("x")
				tm.waitText("CANCEL")
				tm.keys("y")
				<-cancelling
			} else {
				tm.reviewXRPOrder()
				tm.keys("y")
				<-posted
				tm.waitText("PENDING")
			}
			tm.quitUntilDelete(deleting)
			if tc.interrupt {
				tm.keys("C-c")
				if !testkit.WithinEvery(3*time.Second, 20*time.Millisecond, tm.dead) {
					t.Fatalf("bhtop went on for 3 s after ctrl+c during its shutdown; screen:\n%s", tm.Screen())
				}
			} else {
				tm.waitFor("bhtop to exit", func(string) bool { return tm.dead() }) // the DELETE given up after 5 s
			}
			b, err := os.ReadFile(stderr)
			if err != nil {
				t.Fatal(err)
			}
			got := string(b)
			for _, want := range tc.want {
				if !strings.Contains(got, want) {
					t.Errorf("stderr %q lacks %q", got, want)
				}
			}
		})
	}
}
