// Package e2e drives the real bhtop binary in tmux against a real
// `bhtop sim` process, as a person at a terminal would.
package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

var binary string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bhtop-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "bhtop")
	build := exec.Command("go", "build", "-o", binary, "bhtop")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building bhtop:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// simProc is a running `bhtop sim` with its connection line.
type simProc struct {
	BaseURL   string `json:"baseUrl"`
	WSURL     string `json:"wsUrl"`
	APIKey    string `json:"apiKey"`
	SecretKey string `json:"secretKey"`
	Accounts  []struct {
		APIKey    string `json:"apiKey"`
		SecretKey string `json:"secretKey"`
	} `json:"accounts"` // with --accounts N
	log   string
	state string // XDG_STATE_HOME of the bhtop it runs (gate files)
	cmd   *exec.Cmd
}

func startSim(t *testing.T, args ...string) *simProc {
	t.Helper()
	dir := t.TempDir()
	s := &simProc{log: filepath.Join(dir, "requests.jsonl"), state: filepath.Join(dir, "state")}
	s.cmd = exec.Command(binary, append([]string{"sim", "--addr", "127.0.0.1:0", "--log-requests", s.log}, args...)...)
	out, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.cmd.Stderr = os.Stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(os.Interrupt)
		_ = s.cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the sim's connection line: %v", err)
	}
	if err := json.Unmarshal([]byte(line), s); err != nil {
		t.Fatalf("connection line %q: %v", line, err)
	}
	return s
}

// requests returns "METHOD path" for each request the sim logged.
func (s *simProc) requests(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(s.log)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r struct{ Method, Path string }
		if line == "" || json.Unmarshal([]byte(line), &r) != nil {
			continue
		}
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

// startTerm runs bhtop with args and env in a w×h terminal of a tmux
// server of the test's own (the test kit's).
func startTerm(t *testing.T, w, h int, env []string, args ...string) *term {
	t.Helper()
	cmdline := "env " + strings.Join(env, " ") + " " + binary + " " + strings.Join(args, " ")
	return &term{t: t, Term: testkit.NewTmux(t).Term(t, w, h, cmdline)}
}

// term is a terminal of the test kit under the names this package's
// tests use.
type term struct {
	t *testing.T
	*testkit.Term
}

func (tm *term) keys(keys ...string) { tm.t.Helper(); tm.Keys(keys...) }

// text types literal text.
func (tm *term) text(s string) { tm.t.Helper(); tm.Type(s) }

// waitFor polls the screen until cond holds (20 s at most).
func (tm *term) waitFor(what string, cond func(screen string) bool) string {
	tm.t.Helper()
	return tm.WaitFor(what, cond)
}

func (tm *term) waitText(sub string) string { tm.t.Helper(); return tm.WaitText(sub) }

// dead reports whether the program in the pane has exited.
func (tm *term) dead() bool { return tm.Dead() }

// quit presses q and waits for bhtop to exit.
func (tm *term) quit() {
	tm.t.Helper()
	tm.keys("q")
	tm.waitFor("bhtop to exit", func(string) bool { return tm.dead() })
}

// reviewXRPOrder fills the order form (n) with a spot BUY of 100
// XRPUSDT at 0.1 and waits for its review.
func (tm *term) reviewXRPOrder() {
	tm.t.Helper()
	tm.keys("n")
	tm.waitText("New spot order")
	tm.text("XRPUSDT") // the symbol field searches as it is typed
	tm.keys("Tab", "Tab", "Tab", "Tab")
	tm.text("100")
	tm.keys("Tab")
	tm.text("0.1")
	tm.keys("Enter")
	tm.waitText("SEND THIS ORDER?")
}

// dashboard runs bhtop with args on this simulator in a w×h terminal
// (startTerm) and waits until it is live.
func (s *simProc) dashboard(t *testing.T, w, h int, args ...string) *term {
	t.Helper()
	tm := startTerm(t, w, h, credentials(s), args...)
	tm.waitText("● live")
	return tm
}

func credentials(s *simProc) []string {
	return []string{"BHTOP_BASE_URL=" + s.BaseURL, "BHTOP_API_KEY=" + s.APIKey, "BHTOP_SECRET_KEY=" + s.SecretKey,
		"XDG_CONFIG_HOME=/nonexistent", "XDG_STATE_HOME=" + s.state, "TERM=xterm-256color"}
}

var acceptedID = regexp.MustCompile(`order accepted: .*\(id (\d+)\)`)

// TestPlaceAndCancelWithKeyboard: the panes appear with balances, an order
// placed with the keyboard appears in Open Orders, x cancels it, q exits
// and the listenKey is closed with DELETE.
func TestPlaceAndCancelWithKeyboard(t *testing.T) {
	s := startSim(t, "--activity", "1")
	tm := s.dashboard(t, 160, 48)
	tm.waitText("Balances")
	tm.waitText("USDT")

	tm.reviewXRPOrder()
	tm.keys("y")
	screen := tm.waitFor("the order to be accepted", func(s string) bool { return acceptedID.MatchString(s) })
	id := acceptedID.FindStringSubmatch(screen)[1]

	// Find it in Open Orders with the filter.
	tm.keys("2", "/")
	tm.text(id)
	tm.keys("Enter")
	tm.waitFor("order "+id+" in Open Orders", func(s string) bool {
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, id) && strings.Contains(line, "XRPUSDT") && strings.Contains(line, "NEW") {
				return true
			}
		}
		return false
	})

	tm.keys("x")
	tm.waitText("CANCEL")
	tm.keys("y")
	tm.waitFor("order "+id+" to leave Open Orders", func(s string) bool {
		if !strings.Contains(s, "cancel accepted") { // (the box may still hide the row)
			return false
		}
		for _, line := range strings.Split(s, "\n") {
			if strings.Contains(line, id) && strings.Contains(line, "XRPUSDT") && strings.Contains(line, "NEW") {
				return false
			}
		}
		return true
	})

	tm.quit()
	reqs := s.requests(t)
	wantSent(t, reqs, map[string]int{"POST /openapi/v1/order": 1, "DELETE /openapi/v1/order": 1})
	if !slices.Contains(reqs, "DELETE /openapi/v1/userDataStream") {
		t.Errorf("the listenKey was not closed on q; requests: %v", reqs)
	}
}
