//go:build unix

package cli

import (
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"bhtop/config"
	"bhtop/internal/testkit"
	"bhtop/sim"
)

// TestDumpSecondInterrupt: after a first SIGINT bhtop dump closes its
// listenKey (up to 5 s); a second SIGINT meanwhile was ignored. It now
// ends the process at once with exit 130, abandoning the DELETE.
func TestDumpSecondInterrupt(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	created, deleting, stop := make(chan struct{}, 8), make(chan struct{}, 8), make(chan struct{})
	front := testkit.Front(t, s.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == "/openapi/v1/userDataStream" {
			switch r.Method {
			case http.MethodDelete:
				deleting <- struct{}{}
				select { // the service never answers the DELETE
				case <-r.Context().Done():
				case <-stop:
				}
				return
			case http.MethodPost:
				defer func() { created <- struct{}{} }()
			}
		}
		next.ServeHTTP(w, r)
	})
	defer close(stop)
	cmd := childBhtop(t, front, "dump --for 1m --no-market", "BHTOP_WS_URL="+config.WSFromBase(s.URL()))
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	defer func() {
		select {
		case <-done:
		default:
			_ = cmd.Process.Kill()
			testkit.Recv(t, done, 10*time.Second, "the killed dump was not reaped")
		}
	}()
	await := func(what string, ch <-chan struct{}) {
		t.Helper()
		select {
		case <-ch:
		case <-done:
			t.Fatalf("bhtop dump ended before %s: %s, stderr %q", what, cmd.ProcessState, errOut.String())
		case <-time.After(10 * time.Second):
			t.Fatalf("no %s; stderr %q", what, errOut.String())
		}
	}
	await("listenKey", created)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	await("DELETE of the listenKey after the first SIGINT", deleting)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatalf("bhtop dump went on for 2 s after a second SIGINT; stderr %q", errOut.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d (%s), want 130; stderr %q", code, cmd.ProcessState, errOut.String())
	}
	if line := strings.TrimSpace(errOut.String()); !strings.Contains(line, "interrupted again") || strings.Contains(line, "\n") {
		t.Errorf("stderr %q, want one line saying it was interrupted again", errOut.String())
	}
	if out.Len() != 0 {
		t.Errorf("stdout %q, want nothing (no dump was made)", out.String())
	}
}
