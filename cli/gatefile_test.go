package cli

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"bhtop/rest"
)

// TestOrderRemembersRetryAfterAcrossProcesses: a 429 one `bhtop order`
// gets holds the next one (same state dir): it sends nothing, says how
// long to wait, and exits 1 like any order not sent.
func TestOrderRemembersRetryAfterAcrossProcesses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"code":-1003,"msg":"Too many requests"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "XDG_STATE_HOME": dir, "BHTOP_BASE_URL": srv.URL,
		"BHTOP_API_KEY": orderKey, "BHTOP_SECRET_KEY": orderSecret}
	getenv := func(k string) string { return env[k] }
	args := []string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "0.001", "--price", "30000", "--timeout", "1s"}

	code, out, _ := runCLI(getenv, args...)
	if code == ExitOK || hits.Load() == 0 {
		t.Fatalf("first order = %d %q after %d requests, want a failure after a 429", code, out, hits.Load())
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "bhtop", "gates", "*.json"))
	if len(matches) != 1 {
		t.Fatalf("gate files %v, want one", matches)
	}
	if fi, err := os.Stat(matches[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("gate file mode %v (%v), want 0600", fi.Mode(), err)
	}
	before := hits.Load()
	code, out, _ = runCLI(getenv, args...)
	res := decodeResult(t, out)
	if code != ExitFail || res.Outcome != rest.OutcomeRejected || !strings.Contains(res.Msg, "not sent: rate limited by the service: retry after ") {
		t.Errorf("second order = %d %+v, want 1 rejected 'not sent: ... retry after'", code, res)
	}
	if hits.Load() != before {
		t.Errorf("second order sent %d requests during the Retry-After", hits.Load()-before)
	}
	// A corrupt file is ignored: the command sends again.
	if err := os.WriteFile(matches[0], []byte("{junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	runCLI(getenv, args...)
	if hits.Load() == before {
		t.Error("a corrupt gate file stopped the order from being sent")
	}
}
