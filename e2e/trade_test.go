package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// orderCLI runs `bhtop order ARGS` against the sim and fails the test
// when it is not accepted.
func orderCLI(t *testing.T, s *simProc, args ...string) {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"order"}, args...)...)
	cmd.Env = append(os.Environ(), credentials(s)...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"outcome":"accepted"`) {
		t.Fatalf("bhtop order %v: %v\n%s", args, err, out)
	}
}

// wantSent checks that each request of want is in the simulator's log
// (reqs) as many times as want says.
func wantSent(t *testing.T, reqs []string, want map[string]int) {
	t.Helper()
	for what, n := range want {
		got := 0
		for _, r := range reqs {
			if r == what {
				got++
			}
		}
		if got != n {
			t.Errorf("%s sent %d times, want %d", what, got, n)
		}
	}
}

// TestCancelAllAndCloseWithKeyboard: X / y in Open Orders cancels every
// order shown (3 spot, 1 contract), and x / y on a position closes it.
func TestCancelAllAndCloseWithKeyboard(t *testing.T) {
	s := startSim(t, "--activity", "0")
	for _, p := range []string{"0.1", "0.11", "0.12"} {
		orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "BUY", "--quantity", "100", "--price", p)
	}
	orderCLI(t, s, "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1",
		"--price", "100", "--leverage", "10")
	orderCLI(t, s, "new", "--market", "contract", "--symbol", "BTC-PERP-REV", "--side", "BUY_OPEN", "--quantity", "5",
		"--price-type", "MARKET", "--leverage", "10")

	tm := s.dashboard(t, 160, 48)
	tm.waitText("Open Orders (4)")
	tm.keys("2", "X")
	tm.waitText("CANCEL 4 OPEN ORDERS?")
	tm.keys("y")
	tm.waitText("CANCEL-ALL DONE: 4 orders")
	tm.keys("Escape") // closes the summary
	tm.waitText("Open Orders (0)")

	tm.keys("3")
	tm.waitText("BTC-PERP-REV")
	tm.keys("x")
	tm.waitText("CLOSE THIS POSITION?")
	tm.keys("y")
	tm.waitText("order accepted: SELL_CLOSE 5 BTC-PERP-REV")
	tm.waitText("Positions (0)")
	tm.keys("6")
	tm.waitText("SELL_CLOSE")
	tm.quit()

	wantSent(t, s.requests(t), map[string]int{
		"DELETE /openapi/v1/order":                      3,
		"DELETE /openapi/contract/v1/order/batchCancel": 1,
		"POST /openapi/contract/v1/order":               3, // 2 by the CLI, 1 closing
	})
}

// TestReadOnlySendsNothing: with --read-only the help offers no trade
// key, and x and X on the orders, x on a position, x and X in Fills, n
// in Open Orders and Positions, each followed by y (and Enter y after
// n), send nothing, as the request log shows.
func TestReadOnlySendsNothing(t *testing.T) {
	s := startSim(t, "--activity", "0")
	orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "BUY", "--quantity", "100", "--price", "0.1")
	orderCLI(t, s, "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1",
		"--price-type", "MARKET", "--leverage", "10")
	before := len(s.requests(t))
	tm := s.dashboard(t, 160, 48, "--read-only")
	tm.waitText("Open Orders (1)")
	tm.keys("?")
	const helpEnd = "? or esc closes this help"
	help := tm.waitText(helpEnd)
	for _, k := range []string{"new order", "cancel / close", "cancel all"} {
		if strings.Contains(help, k) {
			t.Errorf("read-only help offers %q:\n%s", k, help)
		}
	}
	tm.keys("Escape")
	tm.waitFor("the help to close", func(s string) bool { return !strings.Contains(s, helpEnd) })
	// One key at a time, as a person types: in a check without
	// --read-only, keys sent all at once reached fewer of the reviews, so
	// this test would catch less.
	for _, k := range strings.Fields("2 x y X y 3 x y 6 x X y 2 n y Enter y 3 n y Enter y") {
		tm.keys(k)
		time.Sleep(50 * time.Millisecond)
	}
	tm.waitText("read-only: orders are not sent") // the keys say why
	time.Sleep(500 * time.Millisecond)            // give a wrongly sent request time to reach the log
	for _, r := range s.requests(t)[before:] {
		if strings.Contains(r, "/order") || strings.Contains(r, "batchCancel") {
			t.Errorf("read-only dashboard sent %s", r)
		}
	}
	tm.quit()
}

// TestContractOrderFromForm: the form's contract side sends one signed
// contract order the simulator accepts, and the review shows its margin.
func TestContractOrderFromForm(t *testing.T) {
	s := startSim(t, "--activity", "0")
	tm := s.dashboard(t, 160, 48)
	tm.keys("n")
	tm.waitText("New spot order")
	tm.keys("Up", "Right")
	tm.waitText("New contract order")
	tm.keys("Down")
	tm.text("ETH-PERP")
	tm.keys("Down", "Down", "Down", "Down", "Down") // side, type, price type, TIF, leverage
	tm.text("10")
	tm.keys("Down")
	tm.text("2")
	tm.keys("Down")
	tm.text("100")
	tm.keys("Enter")
	tm.waitText("SEND THIS CONTRACT ORDER?")
	tm.waitText("margin needed")
	tm.keys("y")
	tm.waitText("order accepted: BUY_OPEN 2 ETH-PERP")
	tm.quit()
	wantSent(t, s.requests(t), map[string]int{"POST /openapi/contract/v1/order": 1})
}

// TestNoYesToAReviewTheWindowHides: with the review open the window is
// shrunk to "terminal too small": y sends nothing; grown again, the
// review is back and y sends the order once.
func TestNoYesToAReviewTheWindowHides(t *testing.T) {
	s := startSim(t, "--activity", "0")
	tm := s.dashboard(t, 100, 30)
	tm.waitText("Balances")
	tm.reviewXRPOrder()
	tm.Resize(15, 5)
	tm.waitText("terminal too s")
	tm.keys("y")
	time.Sleep(300 * time.Millisecond) // what y would have sent has had time to leave
	tm.Resize(100, 30)
	tm.waitText("SEND THIS ORDER?")
	tm.keys("y")
	tm.waitFor("the order to be accepted", func(s string) bool { return acceptedID.MatchString(s) })
	tm.quit()
	wantSent(t, s.requests(t), map[string]int{"POST /openapi/v1/order": 1})
}
