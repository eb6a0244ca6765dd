package cli

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestGateFileSharedAtOnce: two bhtop processes (two host limits on one
// gate directory) follow one host. The moment one is answered 429 the
// gate is in the file, while it still runs: the other, already running,
// sends nothing until Retry-After, and a process started then refuses at
// once. The file holds the end times alone, 0600.
func TestGateFileSharedAtOnce(t *testing.T) {
	s, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 10}})
	atMinuteStart(clk)
	dir := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": dir}[k] }
	process := func() (*rest.HostLimits, *rest.Client) {
		h := rest.NewHostLimits()
		persistGates(getenv, s.URL(), h)
		return h, s.Client(simtest.SharedOnClock(clk, h)...)
	}
	_, a := process()
	_, b := process() // running beside a
	ctx := context.Background()
	for _, c := range []*rest.Client{a, b} {
		if err := c.SyncTime(ctx); err != nil {
			t.Fatal(err)
		}
	}
	s.SpendWeight(t, clk.Now, 10) // another program on the IP: 10 of the minute's 10
	if _, err := a.Account(ctx); !errors.Is(err, rest.ErrRateLimited) || rest.NotSent(err) {
		t.Fatalf("a's Account = %v, want answered 429", err)
	}
	until := a.RetryAfter()
	path := gatePath(getenv, s.URL())
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no gate file right after the 429: %v", err)
	}
	var fields map[string]int64
	if err := json.Unmarshal(raw, &fields); err != nil || len(fields) != 2 || fields["retryAfter"] != until.UnixMilli() {
		t.Errorf("gate file %s, want only retryAfter %d (and bannedUntil)", raw, until.UnixMilli())
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("gate file mode %v (%v), want 0600", fi.Mode(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".gates-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}

	sent := len(s.Log.Entries(t))
	short, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := b.Account(short); !errors.Is(err, rest.ErrRateLimited) || !rest.NotSent(err) {
		t.Errorf("the running process's Account = %v, want not sent, rate limited", err)
	}
	if _, err := b.Klines(short, rest.KlineRequest{Symbol: "BTCUSDT", Interval: "1m"}); !errors.Is(err, rest.ErrRateLimited) || !rest.NotSent(err) {
		t.Errorf("the running process's Klines = %v, want not sent, rate limited", err)
	}
	late, _ := process() // started during the hold
	var be *rest.BackoffError
	if err := late.Gate(clk.Now()); !errors.As(err, &be) || !be.Until.Equal(until) {
		t.Errorf("a process started during the hold: gate %v, want until %v", err, until)
	}
	if n := len(s.Log.Entries(t)); n != sent {
		t.Fatalf("%d requests reached the service during the hold, want 0:\n%s", n-sent, s.Log.Raw())
	}

	clk.Set(until)
	if _, err := b.Account(ctx); err != nil {
		t.Fatalf("the other process after Retry-After: %v", err)
	}
	if n := s.Log.Banned(); n > 0 {
		t.Errorf("%d requests banned (418)", n)
	}
}

// TestDumpHonoursGates: weight spent outside bhtop makes the service
// answer the first dump's first request 429. The gate is in the file at
// once, while that dump still runs (it waits, sending nothing more, and
// exits 1: never live); a second dump sends nothing and exits 1 with
// 'not sent: ... retry after'.
func TestDumpHonoursGates(t *testing.T) {
	log := &lockedLog{}
	// On a fake clock: the minute's weight never renews.
	s, clk := simtest.StartOnClock(t, sim.Options{RequestLog: log, RateLimits: sim.RateLimits{WeightPerMinute: 10}, Keys: orderKeys()})
	atMinuteStart(clk) // dump's own clock is real: its Retry-After must outlast the test
	dir := t.TempDir()
	env := orderEnv(t, s.Server, map[string]string{"XDG_STATE_HOME": dir})
	s.SpendWeight(t, clk.Now, 10) // another program on the IP: 10 of the minute's 10
	sent := len(log.Entries(t))
	type result struct {
		code        int
		out, errOut string
	}
	first := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(env, "dump", "--for", "3s")
		first <- result{code, out, errOut}
	}()
	path := gatePath(env, s.URL())
	testkit.Eventually(t, 3*time.Second, func() bool { _, err := os.Stat(path); return err == nil }, "the gate file")
	select {
	case r := <-first:
		t.Fatalf("the first dump ended (%d, %s) before the gate file was checked", r.code, r.errOut)
	default:
	}
	r := testkit.Recv(t, first, 30*time.Second, "the first dump did not end")
	if r.code != ExitFail || !strings.Contains(r.errOut, "never went live") || !strings.Contains(r.errOut, "rate limited by the service") {
		t.Errorf("first dump = %d %q, want 1, never live: rate limited by the service …", r.code, r.errOut)
	}
	es := log.Entries(t)[sent:]
	if len(es) == 0 || es[len(es)-1].Status != http.StatusTooManyRequests {
		t.Fatalf("the first dump's requests %+v, want the last answered 429 (nothing after it)", es)
	}
	sent = len(log.Entries(t))

	code, out, errOut := runCLI(env, "dump", "--for", "3s")
	if code != ExitFail || out != "" || !strings.HasPrefix(errOut, "bhtop dump: not sent: rate limited by the service: retry after ") {
		t.Errorf("second dump = %d %q %q, want 1 and 'bhtop dump: not sent: rate limited by the service: retry after …'", code, out, errOut)
	}
	if n := len(log.Entries(t)); n != sent {
		t.Errorf("the second dump sent %d requests during the Retry-After", n-sent)
	}
	if n := log.Banned(); n > 0 {
		t.Errorf("%d requests banned (418):\n%s", n, log.Raw())
	}
}

// TestDashboardWaitsForStoredGate: another process was answered 429 for
// the host (the gate file says until when). The dashboard sends nothing,
// and shows the account waiting with the time, in UTC.
func TestDashboardWaitsForStoredGate(t *testing.T) {
	s, log := dashboardSim(t)
	dir := t.TempDir()
	env := orderEnv(t, s, map[string]string{"XDG_STATE_HOME": dir})
	until := time.Now().Add(10 * time.Minute)
	(&gateFile{path: gatePath(env, s.URL())}).Save(until, time.Time{})
	want := "rate limited by the service until " + until.UTC().Format("15:04:05") + " UTC"
	code, screen, errOut := driveDashboard(t, nil, env, 160, 48, screenStep{[]string{"connecting", want}, "q"})
	if code != ExitOK {
		t.Fatalf("dashboard exit = %d, want 0; stderr: %s", code, errOut)
	}
	if strings.Contains(screen, "● live") {
		t.Error("the dashboard went live during the hold")
	}
	if es := log.Entries(t); len(es) != 0 {
		t.Errorf("%d requests reached the service during the hold: %+v", len(es), es)
	}
}

// TestDumpRefusesDuringStoredBan: a 418 ban another process was given
// for the host stops dump before any request: exit 1, 'not sent: banned'.
func TestDumpRefusesDuringStoredBan(t *testing.T) {
	log := &lockedLog{}
	s := keyedSim(t, sim.Options{RequestLog: log})
	env := orderEnv(t, s.Server, map[string]string{"XDG_STATE_HOME": t.TempDir()})
	until := time.Now().Add(2 * time.Minute)
	(&gateFile{path: gatePath(env, s.URL())}).Save(time.Time{}, until)
	code, out, errOut := runCLI(env, "dump", "--for", "3s")
	want := "bhtop dump: not sent: banned by the service (HTTP 418) until " + until.UTC().Format("15:04:05") + " UTC"
	if code != ExitFail || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("dump = %d %q %q, want 1 and %q", code, out, errOut, want)
	}
	if es := log.Entries(t); len(es) != 0 {
		t.Errorf("%d requests reached the service during the ban: %+v", len(es), es)
	}
}

// TestOneRequestInFlightAcrossProcesses: process a's chart-history
// request is in flight when process b (another gate store on the same
// directory) wants to send an account request. b's waits for a's answer,
// a 429 caused by weight spent outside bhtop, and then holds for its
// Retry-After: nothing reaches the service during the wait.
func TestOneRequestInFlightAcrossProcesses(t *testing.T) {
	s, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 10}})
	dir := t.TempDir()
	getenv := func(k string) string { return map[string]string{"XDG_STATE_HOME": dir}[k] }
	hold := testkit.NewHoldFirst("/openapi/quote/v1/klines")
	process := func(opts ...rest.Option) *rest.Client {
		h := rest.NewHostLimits()
		persistGates(getenv, s.URL(), h)
		return s.Client(simtest.SharedOnClock(clk, h, opts...)...)
	}
	a := process(rest.WithHTTPClient(&http.Client{Transport: hold}))
	b := process()
	ctx := context.Background()
	if err := b.SyncTime(ctx); err != nil {
		t.Fatal(err)
	}
	s.SpendWeight(t, clk.Now, 10) // another program on the IP: 10 of the minute's 10
	sent := len(s.Log.Entries(t))
	aErr := make(chan error, 1)
	go func() {
		_, err := a.Klines(ctx, rest.KlineRequest{Symbol: "BTCUSDT", Interval: "1m", Limit: 10})
		aErr <- err
	}()
	testkit.Recv(t, hold.Held, 10*time.Second, "a's request never went out")
	bErr := make(chan error, 1)
	go func() { _, err := b.Account(ctx); bErr <- err }()
	time.Sleep(30 * time.Millisecond) // (b's request waits for the turn)
	if n := len(s.Log.Entries(t)); n != sent {
		t.Fatalf("%d requests reached the service beside the one in flight:\n%s", n-sent, s.Log.Raw())
	}
	close(hold.Release)
	if err := testkit.Recv(t, aErr, 10*time.Second, "a's Klines did not return once let go"); !errors.Is(err, rest.ErrRateLimited) || rest.NotSent(err) {
		t.Fatalf("a's Klines = %v, want answered 429", err)
	}
	testkit.Eventually(t, 5*time.Second, func() bool { return clk.Waiters() > 0 }, "b waiting for Retry-After")
	if n := len(s.Log.Entries(t)); n != sent+1 {
		t.Fatalf("%d requests reached the service, want a's alone:\n%s", n-sent, s.Log.Raw())
	}
	clk.Set(a.RetryAfter())
	if err := testkit.Recv(t, bErr, 10*time.Second, "b's Account did not return after Retry-After"); err != nil {
		t.Fatalf("b's Account after Retry-After: %v", err)
	}
	if n := s.Log.Banned(); n > 0 {
		t.Errorf("%d requests banned (418):\n%s", n, s.Log.Raw())
	}
}

// TestGateTurnIsExclusive: two stores of one gate file (two processes)
// never hold the host's turn together; one waiting gives up when its
// context ends.
func TestGateTurnIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bhtop", "gates", "https_api.example.com_443.json")
	a, b := &gateFile{path: path}, &gateFile{path: path}
	endA, err := a.Turn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := b.Turn(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("b's Turn while a holds it = %v, want the deadline", err)
	}
	endA()
	endB, err := b.Turn(context.Background())
	if err != nil {
		t.Fatalf("b's Turn after a's ended: %v", err)
	}
	endB()
	if fi, err := os.Stat(filepath.Join(filepath.Dir(path), "https_api.example.com_443.lock")); err != nil || fi.Size() != 0 || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file %v (%v), want empty, 0600", fi, err)
	}
}

// TestDumpAccountsHeldHostNamed: of two accounts on two hosts, the one
// whose host a stored gate holds sends nothing and is named as never
// live, with the wait; the other is dumped whole.
func TestDumpAccountsHeldHostNamed(t *testing.T) {
	held := keyedSim(t, sim.Options{})
	free := keyedSim(t, sim.Options{Activity: 2})
	env := deskEnv(t, "[accounts.main]\nbase_url = \""+free.URL()+"\"\napi_key = \""+orderKey+"\"\nsecret_key = \""+orderSecret+"\"\n"+
		"\n[accounts.bot]\nbase_url = \""+held.URL()+"\"\napi_key = \""+orderKey+"\"\nsecret_key = \""+orderSecret+"\"\n")
	until := time.Now().Add(10 * time.Minute)
	(&gateFile{path: gatePath(env, held.URL())}).Save(until, time.Time{})
	code, out, errOut := runCLI(env, "dump", "--for", "2s")
	want := "account bot: the user stream never went live: rate limited by the service until " +
		until.UTC().Format("15:04:05") + " UTC"
	if code != ExitFail || !strings.Contains(errOut, want) || strings.Contains(errOut, "account main:") {
		t.Fatalf("dump exit %d, stderr %q; want 1 and %q", code, errOut, want)
	}
	var d accountsDump
	if err := json.Unmarshal([]byte(out), &d); err != nil || d.Accounts["main"].Account == nil {
		t.Fatalf("dump (%v): main not dumped whole:\n%s", err, out)
	}
	if es := held.Log.Entries(t); len(es) != 0 {
		t.Errorf("%d requests reached the held host: %+v", len(es), es)
	}
}

// atMinuteStart moves clk to the next whole minute, so that the
// simulator's 429, which lasts to the end of its minute, says to wait
// 60 s: longer than a test, even where its requests are timed by the
// real clock (a 429 near the minute's end would say 1 s, and a request
// after it, the simulator's clock standing still, would be banned).
func atMinuteStart(clk *clock.Fake) { clk.Set(clk.Now().Truncate(time.Minute).Add(time.Minute)) }
