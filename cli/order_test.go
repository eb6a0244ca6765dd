package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// The key pair the order tests configure on the simulator.
const (
	orderKey    = "orderTestKey"
	orderSecret = "order-test-secret-9f8e7d"
)

// orderKeys is the simulator's side of the test key pair.
func orderKeys() []sim.Key {
	return []sim.Key{{APIKey: orderKey, Secret: signer.NewSecret(orderSecret)}}
}

// keyedSim starts a simulator with opts and the test key pair, the
// credentials orderEnv gives bhtop.
func keyedSim(t *testing.T, opts sim.Options) *simtest.Sim {
	t.Helper()
	opts.Keys = orderKeys()
	return simtest.Start(t, opts)
}

// orderSim starts a simulator with the test key pair and no market moves.
func orderSim(t *testing.T, faults sim.Faults) *sim.Server {
	t.Helper()
	return keyedSim(t, sim.Options{Faults: faults}).Server
}

// orderEnv is a process environment for `bhtop order` tests: the sim's
// credentials and a private, empty config directory.
func orderEnv(t *testing.T, s *sim.Server, extra map[string]string) func(string) string {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "BHTOP_BASE_URL": s.URL(),
		"BHTOP_API_KEY": orderKey, "BHTOP_SECRET_KEY": orderSecret}
	for k, v := range extra {
		env[k] = v
	}
	return func(k string) string { return env[k] }
}

func runCLI(getenv func(string) string, args ...string) (code int, out, errOut string) {
	var o, e bytes.Buffer
	code = Run(args, IO{In: strings.NewReader(""), Out: &o, Err: &e, Getenv: getenv})
	return code, o.String(), e.String()
}

func decodeResult(t *testing.T, out string) rest.OrderResult {
	t.Helper()
	if strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("output is not one line: %q", out)
	}
	var r rest.OrderResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("output %q is not an OrderResult: %v", out, err)
	}
	return r
}

func TestOrderCommandEndToEnd(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	env := orderEnv(t, s, nil)

	code, out, errOut := runCLI(env, "order", "new", "--symbol", "btcusdt", "--side", "buy", "--quantity", "0.001", "--price", "30000")
	res := decodeResult(t, out)
	if code != ExitOK || res.Outcome != rest.OutcomeAccepted || res.OrderID == "" || res.Status != "NEW" {
		t.Fatalf("order new = %d %+v (stderr %q), want 0 accepted", code, res, errOut)
	}
	code, out, _ = runCLI(env, "order", "cancel", "--client-order-id", res.ClientOrderID)
	if c := decodeResult(t, out); code != ExitOK || c.Outcome != rest.OutcomeAccepted || c.OrderID != res.OrderID {
		t.Errorf("order cancel = %d %+v, want 0 accepted for %s", code, c, res.OrderID)
	}
	code, out, _ = runCLI(env, "order", "cancel", "--order-id", res.OrderID, "--symbol", "BTCUSDT")
	if c := decodeResult(t, out); code != ExitFail || c.Outcome != rest.OutcomeRejected || c.Code == 0 {
		t.Errorf("order cancel (again) = %d %+v, want 1 rejected with a code", code, c)
	}
	code, out, _ = runCLI(env, "order", "new", "--symbol", "NOSUCH", "--side", "SELL", "--quantity", "1", "--price", "1")
	if c := decodeResult(t, out); code != ExitFail || c.Outcome != rest.OutcomeRejected || c.HTTPStatus != 400 {
		t.Errorf("order new NOSUCH = %d %+v, want 1 rejected", code, c)
	}
	if strings.Contains(out+errOut, orderSecret) {
		t.Error("the secret appears in the output")
	}
}

func TestOrderCommandUnknown(t *testing.T) {
	s := orderSim(t, sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: true})
	code, out, errOut := runCLI(orderEnv(t, s, nil), "order", "new", "--symbol", "BTCUSDT", "--side", "BUY",
		"--quantity", "0.001", "--price", "30000", "--client-order-id", "script42")
	res := decodeResult(t, out)
	if code != ExitUnknown || res.Outcome != rest.OutcomeUnknown || res.ClientOrderID != "script42" || res.HTTPStatus != 504 {
		t.Errorf("order new under 504 = %d %+v, want 3 unknown carrying script42", code, res)
	}
	if !strings.Contains(errOut, "script42") {
		t.Errorf("stderr %q does not say how to settle it", errOut)
	}
}

func TestOrderCommandRefusals(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	good := []string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30000"}
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"read-only flag", nil, append(good, "--read-only"), "read-only"},
		{"read-only env", map[string]string{"BHTOP_READ_ONLY": "true"}, good, "read-only"},
		{"no credentials", map[string]string{"BHTOP_API_KEY": "", "BHTOP_SECRET_KEY": ""}, good, "needs credentials"},
		{"no base url", map[string]string{"BHTOP_BASE_URL": ""}, good, "--base-url"},
		{"no verb", nil, []string{"order", "--symbol", "X"}, "new, cancel"},
		{"extra argument", nil, append(good, "extra"), `unexpected argument "extra"`},
		{"bad side", nil, []string{"order", "new", "--symbol", "BTCUSDT", "--side", "HOLD", "--quantity", "1", "--price", "1"}, "--side"},
		{"bad quantity", nil, []string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "1e3", "--price", "1"}, "--quantity"},
		{"market with price", nil, []string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--type", "MARKET", "--quantity", "1", "--price", "1"}, "MARKET"},
		{"cancel without id", nil, []string{"order", "cancel", "--symbol", "BTCUSDT"}, "--order-id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(orderEnv(t, s, tt.env), tt.args...)
			if code != ExitUsage || out != "" || !strings.Contains(errOut, tt.want) {
				t.Errorf("Run(%q) = %d, out %q, err %q; want 2, nothing on stdout, %q in stderr", tt.args, code, out, errOut, tt.want)
			}
		})
	}
}

// TestOrderCancelRefusesBothIDs: the service takes orderId or
// clientOrderId; given both, cancel refuses (exit 2) instead of quietly
// using one.
func TestOrderCancelRefusesBothIDs(t *testing.T) {
	env := func(k string) string { return map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}[k] }
	code, out, errOut := runCLI(env, "order", "cancel", "--order-id", "1", "--client-order-id", "x")
	if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "not both") {
		t.Errorf("cancel with both ids = %d %q %q, want exit 2 and one line", code, out, errOut)
	}
}

// TestOrderTIFOnlyForLimit: timeInForce goes with LIMIT orders only; an
// explicit --tif on MARKET or LIMIT_MAKER is refused (exit 2), like --price
// on MARKET, instead of being sent.
func TestOrderTIFOnlyForLimit(t *testing.T) {
	env := func(k string) string { return map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}[k] }
	for _, args := range [][]string{
		{"--type", "MARKET", "--tif", "IOC"},
		{"--type", "LIMIT_MAKER", "--tif", "GTC", "--price", "30000"},
	} {
		all := append([]string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001"}, args...)
		code, out, errOut := runCLI(env, all...)
		if code != ExitUsage || out != "" || !strings.Contains(errOut, "--tif is not allowed") {
			t.Errorf("%v = %d %q %q, want exit 2 '--tif is not allowed'", args, code, out, errOut)
		}
	}
	f := &orderFlags{symbol: "BTCUSDT", side: "BUY", typ: "MARKET", quantity: "1"}
	if r, err := f.newRequest(); err != nil || r.TimeInForce != "" {
		t.Errorf("MARKET without --tif = %+v %v, want no timeInForce", r, err)
	}
}

// TestOrderIDsChecked: an order id that is not digits, and a client
// order id holding a line break, a control character or a space, were
// sent to the service; they are refused (exit 2, one line, control
// characters escaped) and nothing is sent.
func TestOrderIDsChecked(t *testing.T) {
	s, log := loggedSim(t)
	env := orderEnv(t, s, nil)
	for _, args := range [][]string{
		{"order", "cancel", "--order-id", "abc"},
		{"order", "cancel", "--order-id", "-1"},
		{"order", "cancel", "--order-id", "1e3"},
		{"order", "cancel", "--market", "contract", "--order-id", "0x10"},
		{"order", "cancel", "--client-order-id", "a\nb"},
		{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "1", "--price", "0.01", "--client-order-id", "a\x1b[2Jb"},
		{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "1", "--price", "0.01", "--client-order-id", "a b"},
		{"order", "new", "--market", "contract", "--symbol", "ETH-PERP", "--side", "BUY_OPEN", "--quantity", "1", "--price", "3000",
			"--leverage", "10", "--client-order-id", "x\ty"},
		{"dump", "--for", "1s", "--order", "symbol=ETHBTC&side=BUY&quantity=1&price=0.01&clientOrderId=a%0Ab"},
	} {
		code, out, errOut := runCLI(env, args...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 || strings.ContainsAny(errOut[:len(errOut)-1], "\n\x1b\t") {
			t.Errorf("bhtop %q: exit %d, stdout %q, stderr %q; want %d and one escaped line", args, code, out, errOut, ExitUsage)
		}
	}
	if log.has("POST", "/openapi/v1/order", "") || log.has("DELETE", "/openapi/v1/order", "") || log.has("POST", "/openapi/contract/v1/order", "") ||
		log.has("DELETE", "/openapi/contract/v1/order/cancel", "") {
		t.Errorf("a refused order was sent:\n%s", log.String())
	}
}
