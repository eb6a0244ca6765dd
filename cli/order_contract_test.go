package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/sim"
)

// loggedSim is orderSim with a request log and a moving market.
func loggedSim(t *testing.T) (*sim.Server, *lockedLog) {
	t.Helper()
	log := &lockedLog{}
	s := sim.New(sim.Options{MarketInterval: 5 * time.Millisecond, RequestLog: log,
		Keys: orderKeys()})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}

func TestOrderContractCommands(t *testing.T) {
	s, log := loggedSim(t)
	env := orderEnv(t, s, nil)

	code, out, errOut := runCLI(env, "order", "new", "--market", "contract", "--symbol", "eth-perp", "--side", "BUY_OPEN",
		"--quantity", "2", "--price", "1500", "--leverage", "10", "--tif", "GTC")
	res := decodeResult(t, out)
	if code != ExitOK || res.Outcome != rest.OutcomeAccepted || res.OrderID == "" || res.Status != "NEW" {
		t.Fatalf("order new --market contract = %d %+v (stderr %q)", code, res, errOut)
	}
	code, out, _ = runCLI(env, "order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN",
		"--quantity", "1", "--order-type", "STOP", "--trigger-price", "9000", "--price-type", "MARKET", "--leverage", "10")
	if stop := decodeResult(t, out); code != ExitOK || stop.Outcome != rest.OutcomeAccepted {
		t.Errorf("STOP order = %d %+v", code, stop)
	}
	code, out, _ = runCLI(env, "order", "cancel", "--market", "contract", "--order-id", res.OrderID)
	if c := decodeResult(t, out); code != ExitOK || c.Outcome != rest.OutcomeAccepted {
		t.Errorf("order cancel --market contract = %d %+v", code, c)
	}
	// Off the filters: refused before sending, same JSON and exit code as a rejection.
	code, out, _ = runCLI(env, "order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN",
		"--quantity", "1.005", "--price", "1500", "--leverage", "10")
	if r := decodeResult(t, out); code != ExitFail || r.Outcome != rest.OutcomeRejected || !strings.Contains(r.Msg, "not sent") || !strings.Contains(r.Msg, "--quantity") {
		t.Errorf("quantity off step = %d %+v, want 1 rejected, not sent", code, r)
	}

	// Open a position, then close it whole.
	code, out, _ = runCLI(env, "order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "SELL_OPEN",
		"--quantity", "3", "--price-type", "MARKET", "--leverage", "5")
	if r := decodeResult(t, out); code != ExitOK {
		t.Fatalf("open = %d %+v", code, r)
	}
	code, out, errOut = runCLI(env, "order", "close", "--symbol", "ETH-PERP", "--side", "SHORT")
	if r := decodeResult(t, out); code != ExitOK || r.Outcome != rest.OutcomeAccepted {
		t.Fatalf("close = %d %+v (%s)", code, r, errOut)
	}
	code, out, _ = runCLI(env, "order", "close", "--symbol", "ETH-PERP", "--side", "LONG")
	if r := decodeResult(t, out); code != ExitFail || !strings.Contains(r.Msg, "no such open position") {
		t.Errorf("close of no position = %d %+v", code, r)
	}

	// Rest a few orders of both markets, then cancel them all.
	for _, args := range [][]string{
		{"--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30000"},
		{"--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30001"},
		{"--market", "contract", "--symbol", "BTC-PERP-REV", "--side", "BUY_OPEN", "--quantity", "10", "--price", "30000", "--leverage", "3"},
	} {
		if code, out, _ := runCLI(env, append([]string{"order", "new"}, args...)...); code != ExitOK {
			t.Fatalf("order new %v = %d %s", args, code, out)
		}
	}
	code, out, errOut = runCLI(env, "order", "cancel-all")
	var sum actions.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("cancel-all printed %q (%v)", out, err)
	}
	if code != ExitOK || sum.Failed != 0 || sum.Cancelled+sum.AlreadyClosed != sum.Total || sum.Total < 4 {
		t.Errorf("cancel-all = %d %+v (%s); want all cancelled or closed", code, sum, errOut)
	}
	for _, want := range []string{`"cancelled":`, `"alreadyClosed":`, `"failed":`} {
		if !strings.Contains(out, want) {
			t.Errorf("cancel-all output %s lacks %s", out, want)
		}
	}
	code, out, _ = runCLI(env, "order", "cancel-all", "--market", "contract", "--symbol", "ETH-PERP")
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != ExitOK || sum.Total != 0 {
		t.Errorf("cancel-all of nothing = %d %s", code, out)
	}
	if strings.Contains(out+errOut+log.String(), orderSecret) {
		t.Error("the secret appears in the output or the request log")
	}
}

// TestOrderReadOnlySendsNothing runs every verb in read-only mode and
// proves from the simulator's request log that nothing was sent.
func TestOrderReadOnlySendsNothing(t *testing.T) {
	s, log := loggedSim(t)
	env := orderEnv(t, s, map[string]string{"BHTOP_READ_ONLY": "1"})
	for _, args := range [][]string{
		{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1", "--price", "1500", "--leverage", "10"},
		{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30000"},
		{"order", "close", "--symbol", "ETH-PERP", "--side", "LONG"},
		{"order", "cancel-all"},
		{"order", "cancel-all", "--market", "contract"},
		{"order", "cancel", "--market", "contract", "--order-id", "1"},
		{"order", "cancel-all", "--read-only"},
	} {
		code, out, errOut := runCLI(env, args...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, "read-only") {
			t.Errorf("%v = %d, out %q, err %q; want 2, refused", args, code, out, errOut)
		}
	}
	if got := log.String(); got != "" {
		t.Errorf("read-only mode sent requests:\n%s", got)
	}
}

func TestOrderContractFlagErrors(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	env := orderEnv(t, s, nil)
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY", "--quantity", "1", "--price", "1", "--leverage", "2"}, "--side"},
		{[]string{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "SELL_CLOSE", "--quantity", "1", "--price", "1", "--leverage", "2"}, "--leverage"},
		{[]string{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1", "--price", "1"}, "--leverage"},
		{[]string{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1", "--order-type", "STOP", "--price-type", "MARKET", "--leverage", "2"}, "--trigger-price"},
		{[]string{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1", "--price-type", "BEST", "--leverage", "2"}, "--price-type"},
		{[]string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "1", "--price", "1", "--leverage", "2"}, "--market contract"},
		{[]string{"order", "new", "--market", "futures", "--symbol", "X"}, "--market"},
		{[]string{"order", "close", "--symbol", "ETH-PERP", "--side", "BUY"}, "LONG or SHORT"},
		{[]string{"order", "close", "--side", "LONG"}, "--symbol"},
		{[]string{"order", "close", "--symbol", "ETH-PERP", "--side", "LONG", "--price", "1"}, "close takes"},
	} {
		code, out, errOut := runCLI(env, tt.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v = %d, out %q, err %q; want 2 mentioning %q", tt.args, code, out, errOut, tt.want)
		}
	}
}

// TestOrderContractUnknown: under 504s that take effect, a contract order
// is unknown (exit 3, how to settle it on stderr) and cancel-all counts
// its cancels unknown (exit 3), never failed, never retried.
func TestOrderContractUnknown(t *testing.T) {
	s := orderSim(t, sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: true})
	env := orderEnv(t, s, nil)
	code, out, errOut := runCLI(env, "order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN",
		"--quantity", "1", "--price", "1500", "--leverage", "10", "--client-order-id", "ctr42")
	if r := decodeResult(t, out); code != ExitUnknown || r.Outcome != rest.OutcomeUnknown || r.ClientOrderID != "ctr42" {
		t.Errorf("contract order under 504 = %d %+v", code, r)
	}
	if !strings.Contains(errOut, "ctr42") || !strings.Contains(errOut, "contract/v1/getOrder") {
		t.Errorf("stderr %q does not say how to settle it", errOut)
	}
	runCLI(env, "order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30000")
	code, out, _ = runCLI(env, "order", "cancel-all")
	var sum actions.Summary
	if err := json.Unmarshal([]byte(out), &sum); err != nil || code != ExitUnknown || sum.Unknown != 2 || sum.Failed != 0 {
		t.Errorf("cancel-all under 504 = %d %s, want 3 with 2 unknown", code, out)
	}
}

// TestOrderCloseCheckedBeforeSending: a closing quantity off the
// contract's filters is refused like one of `order new --market
// contract`, before anything is sent (README 'bhtop order').
func TestOrderCloseCheckedBeforeSending(t *testing.T) {
	s, log := loggedSim(t)
	env := orderEnv(t, s, nil)
	code, out, _ := runCLI(env, "order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "SELL_OPEN",
		"--quantity", "1", "--price-type", "MARKET", "--leverage", "5")
	if r := decodeResult(t, out); code != ExitOK {
		t.Fatalf("open = %d %+v", code, r)
	}
	sent := strings.Count(log.String(), `"path":"/openapi/contract/v1/order"`)
	code, out, errOut := runCLI(env, "order", "close", "--symbol", "ETH-PERP", "--side", "SHORT", "--quantity", "0.005")
	if r := decodeResult(t, out); code != ExitFail || r.Outcome != rest.OutcomeRejected || !strings.HasPrefix(r.Msg, "not sent:") || !strings.Contains(r.Msg, "--quantity") {
		t.Errorf("close off the step = %d %+v (%s), want 1 rejected, not sent, naming --quantity", code, r, errOut)
	}
	if n := strings.Count(log.String(), `"path":"/openapi/contract/v1/order"`); n != sent {
		t.Errorf("%d order requests were sent for a quantity off the filters", n-sent)
	}
}
