package cli

import (
	"context"
	"strings"
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
