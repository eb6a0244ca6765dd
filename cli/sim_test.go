package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/signer"
)

// bhtop sim prints its connection line first, answers a signed request
// for a --key it was given, logs requests, and exits 0 when stopped.
func TestSimCommand(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "requests.jsonl")
	r, ok := startSimCommand(t, "--key", "k1:s3cr3t:USER_DATA,USER_STREAM", "--activity", "0",
		"--log-requests", logPath, "--skew", "3s")
	if !ok {
		t.Fatalf("no connection line (exit %d, stderr %s)", r.stop(t), r.stderr)
	}
	conn := r.conn
	if conn.APIKey != "k1" || conn.SecretKey != "s3cr3t" || !strings.HasPrefix(conn.BaseURL, "http://127.0.0.1:") || !strings.HasPrefix(conn.WSURL, "ws://127.0.0.1:") {
		t.Fatalf("connection line = %q", r.line)
	}

	if status, body := getAccount(t, conn.BaseURL, "k1", "s3cr3t", 3*time.Second); status != 200 || !strings.Contains(body, `"balances"`) {
		t.Errorf("signed GET account = %d %s, want 200 with balances", status, body)
	}

	if code := r.stop(t); code != ExitOK {
		t.Errorf("exit code = %d, want 0 (stderr %s)", code, r.stderr)
	}
	log, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(log), `"path":"/openapi/v1/account"`) || strings.Contains(string(log), "s3cr3t") {
		t.Errorf("request log = %q, %v; want the account request and no secret", log, err)
	}
}

// simRun is `bhtop sim` running inside the test.
type simRun struct {
	line   string                                             // its first line, the connection line
	conn   struct{ BaseURL, WSURL, APIKey, SecretKey string } // that line decoded
	stderr *lockedLog
	cancel context.CancelFunc
	done   chan int // the exit code
}

// startSimCommand runs `bhtop sim` with args and reads its connection
// line; ok is false when the command ended without one (stop then gives
// its exit code).
func startSimCommand(t *testing.T, args ...string) (r *simRun, ok bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	r = &simRun{stderr: &lockedLog{}, cancel: cancel, done: make(chan int, 1)}
	pr, pw := io.Pipe()
	go func() {
		r.done <- runSimContext(ctx, args, IO{Out: pw, Err: r.stderr})
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		return r, false
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	r.line = line
	if err := json.Unmarshal([]byte(line), &r.conn); err != nil {
		t.Fatalf("first line %q: %v", line, err)
	}
	return r, true
}

// stop stops the command and returns its exit code, failing the test
// when it has not stopped within 5 s.
func (r *simRun) stop(t *testing.T) int {
	t.Helper()
	r.cancel()
	select {
	case code := <-r.done:
		return code
	case <-time.After(5 * time.Second):
		t.Fatal("bhtop sim did not stop")
		return 0
	}
}

func TestSimCommandBadFlags(t *testing.T) {
	tests := [][]string{
		{"--key", "nosecret"},
		{"--key", "k:s:FLY"},
		{"--rate-limits", "weight=x"},
		{"--rate-limits", "speed=3"},
		{"--order-error-status", "404"},
		{"extra"},
	}
	for _, args := range tests {
		var out, errOut strings.Builder
		if code := runSimContext(context.Background(), args, IO{Out: &out, Err: &errOut}); code != ExitUsage {
			t.Errorf("bhtop sim %q = exit %d, want %d", args, code, ExitUsage)
		}
		if out.Len() != 0 {
			t.Errorf("bhtop sim %q printed %q to stdout", args, out.String())
		}
	}
}

// TestSimCommandKeyTwice: the same API key given twice with two secrets
// is refused: the first line printed the first secret while the
// simulator checked signatures with the second (-1022 for every client).
func TestSimCommandKeyTwice(t *testing.T) {
	var out, errOut strings.Builder
	args := []string{"--key", "k1:SECRETONE", "--key", "k1:SECRETTWO"}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second) // accepted, it would run until then
	defer cancel()
	if code := runSimContext(ctx, args, IO{Out: &out, Err: &errOut}); code != ExitUsage {
		t.Fatalf("bhtop sim %q = exit %d, want %d; stdout %q", args, code, ExitUsage, out.String())
	}
	if msg := errOut.String(); !strings.Contains(msg, `"k1" given twice`) || strings.Contains(msg, "SECRET") || strings.Count(msg, "\n") != 1 {
		t.Errorf("stderr = %q, want one line naming k1 twice, without a secret", msg)
	}
}

func TestParseRateLimits(t *testing.T) {
	rl, err := parseRateLimits("weight=1500,orders=20,daily=350000")
	if err != nil || rl.WeightPerMinute != 1500 || rl.OrdersPerSecond != 20 || rl.OrdersPerDay != 350000 {
		t.Errorf("parseRateLimits = %+v, %v", rl, err)
	}
}

// getAccount sends a signed GET /openapi/v1/account with a timestamp
// skew ahead of this machine's clock, and returns the status and body.
func getAccount(t *testing.T, base, key, secret string, skew time.Duration) (int, string) {
	t.Helper()
	q := "timestamp=" + strconv.FormatInt(time.Now().Add(skew).UnixMilli(), 10)
	q += "&signature=" + signer.Sign(signer.NewSecret(secret), q)
	req, _ := http.NewRequest("GET", base+"/openapi/v1/account?"+q, nil)
	req.Header.Set("X-BH-APIKEY", key)
	r := testkit.Do(t, req)
	return r.Status, string(r.Body)
}
