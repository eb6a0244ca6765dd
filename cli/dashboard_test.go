package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/internal/testkit"
	"bhtop/sim"
)

// runDashboardTest runs the dashboard against s at 160×48, types keys
// once the screen shows Balances with rows, and returns the exit code and
// everything drawn.
func runDashboardTest(t *testing.T, s *sim.Server, keys string, args ...string) (int, string, string) {
	t.Helper()
	return runDashboardUntil(t, s, "", keys, args...)
}

// runDashboardUntil is runDashboardTest typing keys only once the screen
// also shows text (when not "").
func runDashboardUntil(t *testing.T, s *sim.Server, text, keys string, args ...string) (int, string, string) {
	t.Helper()
	return driveDashboard(t, args, orderEnv(t, s, nil), 160, 48, screenStep{[]string{"● live", "USDT", text}, keys})
}

// screenStep is one step of a scripted dashboard run: wait until what was
// drawn since the previous step's keys shows every want, then type keys.
type screenStep struct {
	want []string
	keys string
}

// driveDashboard runs the dashboard with args and env at w×h through its
// steps, and returns the exit code, everything drawn (plain text) and
// stderr. It fails the test when a step's screen never comes or the
// dashboard has not quit (on the last step's keys) within 20 s.
func driveDashboard(t *testing.T, args []string, env func(string) string, w, h int, steps ...screenStep) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	in, typer := io.Pipe()
	out, errOut := &lockedLog{}, &bytes.Buffer{}
	missed := make(chan string, 1)
	go func() {
		defer typer.Close()
		mark := 0 // what was drawn before the last keys is not looked at
		for _, st := range steps {
			testkit.Within(20*time.Second, func() bool {
				return ctx.Err() != nil || shows(ansi.Strip(out.String()[mark:]), st.want...)
			})
			if ctx.Err() != nil {
				missed <- "never saw " + strings.Join(st.want, ", ")
				return
			}
			mark = len(out.String())
			for _, k := range st.keys {
				_, _ = typer.Write([]byte(string(k)))
				time.Sleep(50 * time.Millisecond) // let each key be drawn
			}
		}
		missed <- ""
	}()
	code := runDashboardContext(ctx, args, IO{In: in, Out: out, Err: errOut, Getenv: env}, nil, tea.WithWindowSize(w, h))
	timedOut := ctx.Err() != nil
	cancel()
	in.Close() // a key still being typed is refused
	if m := testkit.Recv(t, missed, 30*time.Second, "the steps' typist did not end once the dashboard had"); timedOut || m != "" {
		t.Fatalf("the dashboard did not quit on its keys within 20s (%s); stderr: %s", m, errOut)
	}
	return code, ansi.Strip(out.String()), errOut.String()
}

// shows reports whether screen holds every text.
func shows(screen string, texts ...string) bool {
	for _, s := range texts {
		if !strings.Contains(screen, s) {
			return false
		}
	}
	return true
}

func dashboardSim(t *testing.T) (*sim.Server, *lockedLog) {
	t.Helper()
	log := &lockedLog{}
	s := keyedSim(t, sim.Options{Activity: 5, RequestLog: log})
	return s.Server, log
}

// TestDashboardRunsAndCloses: the dashboard draws the account from the
// simulator, goes live, quits on q, DELETEs its listenKey and writes --metrics.
func TestDashboardRunsAndCloses(t *testing.T) {
	s, log := dashboardSim(t)
	metrics := filepath.Join(t.TempDir(), "metrics.json")
	code, screen, errOut := runDashboardTest(t, s, "q", "--metrics", metrics)
	if code != ExitOK {
		t.Fatalf("dashboard exit = %d, want 0; stderr: %s", code, errOut)
	}
	for _, want := range []string{"Open Orders", "Positions", "Events", "live"} {
		if !bytes.Contains([]byte(screen), []byte(want)) {
			t.Errorf("the screen never showed %q", want)
		}
	}
	if !log.has("DELETE", "/openapi/v1/userDataStream", "") {
		t.Error("the listenKey was not DELETEd on q")
	}
	b, err := os.ReadFile(metrics)
	if err != nil {
		t.Fatalf("no --metrics file: %v", err)
	}
	var m struct {
		Counters map[string]int64 `json:"counters"`
		State    struct{ Events int64 }
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Counters["keys"] == 0 {
		t.Errorf("metrics = %s (err %v), want the keys counted", b, err)
	}
}

// TestDashboardReadOnlySendsNothing: with --read-only, n and x do nothing
// and no order request reaches the service.
func TestDashboardReadOnlySendsNothing(t *testing.T) {
	s, log := dashboardSim(t)
	code, screen, errOut := runDashboardTest(t, s, "n2xyq", "--read-only")
	if code != ExitOK {
		t.Fatalf("dashboard exit = %d, want 0; stderr: %s", code, errOut)
	}
	if log.has("POST", "/openapi/v1/order", "") || log.has("DELETE", "/openapi/v1/order", "") {
		t.Error("read-only dashboard sent an order request")
	}
	if bytes.Contains([]byte(screen), []byte("New spot order")) || !bytes.Contains([]byte(screen), []byte("READ-ONLY")) {
		t.Errorf("read-only screen: form shown or no READ-ONLY badge")
	}
}

func TestDashboardBadFlags(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string { return map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}[k] }
	for _, args := range [][]string{{"--theme", "purple"}, {"--no-such-flag"}, {"--fps", "0"}, {"--fps", "500"}} {
		if code, _, _ := runCLI(env, args...); code != ExitUsage {
			t.Errorf("Run(%q) = %d, want %d", args, code, ExitUsage)
		}
	}
}

// TestDashboardNeedsATerminal: a stdin that is a file but not a terminal
// (/dev/null, a regular file, a pipe from a shell) is refused with one
// line and exit 2 before anything is opened: no request reaches the
// service, so no listenKey is left behind.
func TestDashboardNeedsATerminal(t *testing.T) {
	s := keyedSim(t, sim.Options{})
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- Run(nil, IO{In: in, Out: &out, Err: &errb, Getenv: orderEnv(t, s.Server, nil)}) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the dashboard started on a stdin that is not a terminal")
	}
	if code != ExitUsage || strings.Count(errb.String(), "\n") != 1 || !strings.Contains(errb.String(), "needs a terminal") {
		t.Errorf("bhtop </dev/null = %d, stderr %q; want %d and one line saying it needs a terminal", code, errb.String(), ExitUsage)
	}
	if n := len(s.Log.Entries(t)); n != 0 {
		t.Errorf("bhtop </dev/null made %d requests, want none:\n%s", n, s.Log.Raw())
	}
}

// TestBadThemeNamesItsSource: an unknown theme is refused naming where it
// was set: the config file's theme key or BHTOP_THEME, not "--theme",
// which was not given.
func TestBadThemeNamesItsSource(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(cfg, []byte("theme = \"neon\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"file", map[string]string{"BHTOP_CONFIG": cfg}, nil, cfg + `: theme "neon": want one of`},
		{"env", map[string]string{"BHTOP_THEME": "neon"}, nil, `BHTOP_THEME "neon": want one of`},
		{"flag", nil, []string{"--theme", "neon"}, `--theme "neon": want one of`},
		{"serve file", map[string]string{"BHTOP_CONFIG": cfg}, []string{"serve", "--authorized-keys", dir + "/none", "--host-key", dir + "/hk"}, cfg + `: theme "neon": want one of`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}
			maps.Copy(env, tc.env)
			code, _, errOut := runCLI(func(k string) string { return env[k] }, tc.args...)
			if code != ExitUsage || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
				t.Errorf("exit %d, stderr %q; want %d and one line with %q", code, errOut, ExitUsage, tc.want)
			}
		})
	}
}
