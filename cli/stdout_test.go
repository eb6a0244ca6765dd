package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"bhtop/sim"
)

// fullWriter fails every write as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestSimFirstLineUnwritable: bhtop sim whose first line (the connection
// JSON a script reads) cannot be written served on, unreachable by
// anyone, and exited 0 when stopped. It exits 1 at once, saying why.
func TestSimFirstLineUnwritable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errOut strings.Builder
	code := runSimContext(ctx, []string{"--activity", "0"}, IO{Out: fullWriter{}, Err: &errOut})
	if ctx.Err() != nil {
		t.Fatal("bhtop sim served on after its first line failed")
	}
	if code != ExitFail || !strings.Contains(errOut.String(), "no space left on device") {
		t.Errorf("exit %d, stderr %q; want %d and the write error", code, errOut.String(), ExitFail)
	}
}

// TestVersionAndHelpOutput: version and help fail (exit 1) when stdout
// cannot be written, and version refuses arguments like every command.
func TestVersionAndHelpOutput(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"help"}, {"--help"}} {
		var errOut strings.Builder
		code := Run(args, IO{Out: fullWriter{}, Err: &errOut, Getenv: func(string) string { return "" }})
		if code != ExitFail || !strings.Contains(errOut.String(), "no space left on device") {
			t.Errorf("bhtop %s > /dev/full: exit %d, stderr %q; want %d and the error", args[0], code, errOut.String(), ExitFail)
		}
	}
	for _, args := range [][]string{{"version", "--foo"}, {"version", "extra"}} {
		code, out, errOut := runCLI(func(string) string { return "" }, args...)
		if code != ExitUsage || out != "" || strings.Count(errOut, "\n") != 1 {
			t.Errorf("bhtop %q: exit %d, stdout %q, stderr %q; want %d and one line", args, code, out, errOut, ExitUsage)
		}
	}
	if code, out, _ := runCLI(func(string) string { return "" }, "version"); code != ExitOK || !strings.HasPrefix(out, "bhtop ") {
		t.Errorf("bhtop version: exit %d, %q", code, out)
	}
}

// TestOrderResultUnwritable: an order whose result line cannot be
// written (stdout on a full disk) keeps the order's exit code, so a
// script never sends it again, and says on stderr what the result was.
func TestOrderResultUnwritable(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	env := orderEnv(t, s, nil)
	for _, args := range [][]string{
		{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "0.01", "--price", "0.01", "--client-order-id", "full1"},
		{"order", "cancel-all"},
	} {
		var errOut strings.Builder
		code := Run(args, IO{In: strings.NewReader(""), Out: fullWriter{}, Err: &errOut, Getenv: env})
		e := errOut.String()
		if code != ExitOK || !strings.Contains(e, "no space left on device") || !strings.Contains(e, `{"`) || strings.Count(e, "\n") != 1 {
			t.Errorf("bhtop order %s > /dev/full: exit %d, stderr %q; want 0 and one line with the error and the result", args[1], code, e)
		}
	}
}

// orderChildEnv holds the arguments TestOrderChild runs bhtop with, in a
// process of its own (SIGPIPE is the process's).
const orderChildEnv = "BHTOP_TEST_ORDER_CHILD"

// TestOrderChild is bhtop in a child process (see TestOrderClosedPipe).
func TestOrderChild(t *testing.T) {
	args := os.Getenv(orderChildEnv)
	if args == "" {
		t.Skip("only as a child of TestOrderClosedPipe")
	}
	os.Exit(Run(strings.Fields(args), StdIO()))
}

// childBhtop is bhtop run with args in a child process (TestOrderChild)
// against the service at baseURL, with the orderKey pair, a private
// config and state directory, and env after those.
func childBhtop(t *testing.T, baseURL, args string, env ...string) *exec.Cmd {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestOrderChild$", "-test.count=1")
	cmd.Env = append(append(os.Environ(), "HOME="+dir, "XDG_CONFIG_HOME="+dir, "XDG_STATE_HOME="+dir, "BHTOP_BASE_URL="+baseURL,
		"BHTOP_API_KEY="+orderKey, "BHTOP_SECRET_KEY="+orderSecret, orderChildEnv+"="+args), env...)
	return cmd
}

// TestOrderClosedPipe: `bhtop order new ... | true` sent the order, then
// died of SIGPIPE writing the result (exit 141), so a script took an
// accepted order for a failed one. The exit code is the order's, and the
// result goes to stderr.
func TestOrderClosedPipe(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // nobody reads: the first write gets EPIPE
	defer w.Close()
	cmd := childBhtop(t, s.URL(), "order new --symbol ETHBTC --side BUY --quantity 0.01 --price 0.01 --client-order-id piped1")
	var errOut strings.Builder
	cmd.Stdout, cmd.Stderr = w, &errOut
	err = cmd.Run()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("child: %v (%s); stderr %q", err, cmd.ProcessState, errOut.String())
	}
	if code != ExitOK || !strings.Contains(errOut.String(), `"outcome":"accepted"`) {
		t.Errorf("bhtop order new | (closed): %s, stderr %q; want exit 0 and the result on stderr", cmd.ProcessState, errOut.String())
	}
}

// TestOrderInterrupted: SIGINT while the order request awaits its answer
// killed bhtop order without a word (exit 130 by the signal): the order
// may exist, and the script had nothing to settle it by. It now ends the
// request, prints the unknown result with the client order id and exits
// 3; the order was sent once.
func TestOrderInterrupted(t *testing.T) {
	got, stop := make(chan struct{}, 1), make(chan struct{})
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/openapi/v1/time":
			fmt.Fprintf(w, `{"serverTime":%d}`, time.Now().UnixMilli())
		case "/openapi/v1/order":
			_, _ = io.Copy(io.Discard, r.Body)
			posts.Add(1)
			got <- struct{}{}
			select { // no answer, ever
			case <-r.Context().Done():
			case <-stop:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	defer close(stop)
	cmd := childBhtop(t, srv.URL, "order new --symbol ETHBTC --side BUY --quantity 0.01 --price 0.01 --client-order-id sig1 --timeout 1m")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("the order never arrived; stderr %q", errOut.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("bhtop order did not end after SIGINT")
	}
	if code := cmd.ProcessState.ExitCode(); code != ExitUnknown || !strings.Contains(out.String(), `"outcome":"unknown"`) ||
		!strings.Contains(out.String(), `"clientOrderId":"sig1"`) {
		t.Errorf("interrupted order: %s, stdout %q, stderr %q; want exit 3 and the unknown result", cmd.ProcessState, out.String(), errOut.String())
	}
	if n := posts.Load(); n != 1 {
		t.Errorf("the order was sent %d times, want 1", n)
	}
}

// TestHelpCommand: 'bhtop help order' printed the general list instead of
// order's help, and the list described order as new and cancel only.
func TestHelpCommand(t *testing.T) {
	env := func(string) string { return "" }
	code, out, errOut := runCLI(env, "help", "order")
	if code != ExitOK || !strings.Contains(out+errOut, "bhtop order cancel-all") {
		t.Errorf("bhtop help order: exit %d, output %q", code, out+errOut)
	}
	_, out, _ = runCLI(env, "help")
	if !strings.Contains(out, "close") || !strings.Contains(out, "cancel-all") {
		t.Errorf("bhtop help does not list order's verbs:\n%s", out)
	}
	if code, _, errOut := runCLI(env, "help", "nope"); code != ExitUsage || !strings.Contains(errOut, `unknown command "nope"`) {
		t.Errorf("bhtop help nope: exit %d, stderr %q", code, errOut)
	}
}
