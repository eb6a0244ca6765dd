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

// countReq counts the logged requests equal to what.
func countReq(reqs []string, what string) int {
	n := 0
	for _, r := range reqs {
		if r == what {
			n++
		}
	}
	return n
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

	reqs := s.requests(t)
	if got := countReq(reqs, "DELETE /openapi/v1/order"); got != 3 {
		t.Errorf("spot cancels sent %d, want 3", got)
	}
	if got := countReq(reqs, "DELETE /openapi/contract/v1/order/batchCancel"); got != 1 {
		t.Errorf("batchCancel sent %d, want 1", got)
	}
	// Two contract orders came from the CLI; the dashboard sent one.
	if got := countReq(reqs, "POST /openapi/contract/v1/order"); got != 3 {
		t.Errorf("contract orders sent %d, want 3 (2 by the CLI, 1 closing)", got)
	}
}

// TestReadOnlyTradeKeysSendNothing: with --read-only, X, x on a position
// and n (to a contract order) send nothing, as the request log shows.
func TestReadOnlyTradeKeysSendNothing(t *testing.T) {
	s := startSim(t, "--activity", "0")
	orderCLI(t, s, "new", "--symbol", "XRPUSDT", "--side", "BUY", "--quantity", "100", "--price", "0.1")
	orderCLI(t, s, "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1",
		"--price-type", "MARKET", "--leverage", "10")
	before := len(s.requests(t))
	tm := s.dashboard(t, 160, 48, "--read-only")
	tm.waitText("Open Orders (1)")
	tm.keys("?")
	help := tm.waitText("quit")
	if strings.Contains(help, "cancel all") || strings.Contains(help, "cancel / close") || strings.Contains(help, "new order") {
		t.Errorf("read-only help offers trade keys:\n%s", help)
	}
	tm.keys("Escape", "2", "X", "y", "3", "x", "y", "n", "y", "6", "x", "X", "y")
	time.Sleep(500 * time.Millisecond) // give a wrongly sent request time to reach the log
	tm.quit()
	for _, r := range s.requests(t)[before:] {
		if strings.Contains(r, "/order") || strings.Contains(r, "batchCancel") {
			t.Errorf("read-only dashboard sent %s", r)
		}
	}
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
	if got := countReq(s.requests(t), "POST /openapi/contract/v1/order"); got != 1 {
		t.Errorf("contract orders sent %d, want 1", got)
	}
}
