package notify

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/alert"
	"bhtop/internal/testkit"
	"bhtop/state"
	"bhtop/stream"
)

var firing = alert.Firing{Time: time.UnixMilli(1700000000123), Rule: "price_cross#2", Kind: alert.KindPriceCross,
	Account: "default", Message: "BTCUSDT price 101 crossed above 100"}

// TestCommandGetsJSON: --alert-cmd reads the alert as JSON on stdin, and
// does not see bhtop's credentials in its environment.
func TestCommandGetsJSON(t *testing.T) {
	t.Setenv("BHTOP_SECRET_KEY", "s3cret-value")
	t.Setenv("BHTOP_API_KEY", "key-value")
	out := filepath.Join(t.TempDir(), "alert.json")
	c := NewCommand("cat > "+out+".tmp; env >> "+out+".tmp; mv "+out+".tmp "+out, 0, 0, nil)
	c.Run(firing)
	c.Wait(10 * time.Second)
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	first, env, _ := strings.Cut(string(b), "\n")
	var p Payload
	if err := json.Unmarshal([]byte(first), &p); err != nil {
		t.Fatalf("stdin %q: %v", first, err)
	}
	want := Payload{Time: 1700000000123, Rule: "price_cross#2", Kind: "price_cross", Account: "default", Message: firing.Message}
	if p != want {
		t.Errorf("payload %+v, want %+v", p, want)
	}
	if strings.Contains(env, "s3cret-value") || strings.Contains(env, "key-value") {
		t.Error("the command's environment holds bhtop's credentials")
	}
}

// TestCommandBounded: a hanging command is killed after the timeout, and
// firings beyond the concurrency limit are dropped (and logged), never
// queued or blocking.
func TestCommandBounded(t *testing.T) {
	logs := &testkit.Buffer{}
	dir := t.TempDir()
	// The timeout leaves a loaded machine time to start the shell and
	// touch (at 200 ms a command was at times killed before it did).
	c := NewCommand("touch "+dir+"/$$; sleep 30", 2*time.Second, 2, slog.New(slog.NewTextHandler(logs, nil)))
	start := time.Now()
	for range 5 {
		c.Run(firing)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("Run blocked for %s", el)
	}
	c.Wait(10 * time.Second)
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("hanging commands were not killed: %s", el)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("%d commands ran, want 2 (the limit)", len(entries))
	}
	l := logs.String()
	if strings.Count(l, "too many still running") != 3 || strings.Count(l, "killed after the timeout") != 2 {
		t.Errorf("log:\n%s", l)
	}
}

// TestDispatcher: firings reach the log, the UI outlet and the records,
// cleaned of control characters.
func TestDispatcher(t *testing.T) {
	logs := &testkit.Buffer{}
	var got []alert.Firing
	d := NewDispatcher(slog.New(slog.NewTextHandler(logs, nil)), nil, func(f alert.Firing) { got = append(got, f) })
	f := firing
	f.Message = "evil\x1b]9;pwn\x07 sym\u202e  bol\n"
	d.Deliver([]alert.Firing{f, firing})
	recs := d.Records()
	if len(recs) != 2 || recs[0].Message != "evil]9;pwn sym bol" || recs[1].Time != 1700000000123 || recs[1].Rule != "price_cross#2" {
		t.Errorf("records %+v", recs)
	}
	if len(got) != 2 || got[0].Message != recs[0].Message {
		t.Errorf("ui got %+v", got)
	}
	if !strings.Contains(logs.String(), "crossed above 100") {
		t.Errorf("log:\n%s", logs.String())
	}
	var none *Dispatcher
	if r := none.Records(); r == nil || len(r) != 0 {
		t.Errorf("nil dispatcher records = %v, want []", r)
	}
	for range maxRecords + 10 {
		d.Deliver([]alert.Firing{firing})
	}
	if n := len(d.Records()); n != maxRecords {
		t.Errorf("%d records kept, want %d", n, maxRecords)
	}
}

// TestClean caps length and strips controls.
func TestClean(t *testing.T) {
	if got := Clean(strings.Repeat("x", 1000)); len([]rune(got)) != maxMessage+1 || !strings.HasSuffix(got, "…") {
		t.Errorf("Clean(1000 x) = %d runes", len([]rune(got)))
	}
	if got := Clean("  a\t\tb\r\n"); got != "a b" {
		t.Errorf("Clean = %q", got)
	}
}

// TestWatcher: a rule is evaluated when the state hub publishes and on
// the tick (stream_silent), with a fake clock.
func TestWatcher(t *testing.T) {
	var hub state.Hub
	rules := []alert.Rule{}
	for i, fields := range []map[string]any{
		{"kind": "balance_below", "asset": "USDT", "below": int64(10)},
		{"kind": "stream_silent", "after": "1m"},
	} {
		r, err := alert.ParseRule(i+1, fields)
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	var mu sync.Mutex
	now := time.Unix(1000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	status := stream.Status{LastSnapshot: now, LastFrame: now}
	var fired []alert.Firing
	w := Watcher{
		Engine:  alert.NewEngine(rules),
		Sources: []Source{{Name: "default", State: &hub, Status: func() stream.Status { return status }}},
		Deliver: func(fs []alert.Firing) { mu.Lock(); fired = append(fired, fs...); mu.Unlock() },
		Now:     clock,
		Tick:    20 * time.Millisecond,
		MinGap:  time.Millisecond,
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go w.Run(ctx)
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(fired) }
	hub.Publish(&state.Snapshot{Version: 1, Balances: []state.Balance{{Asset: "USDT", Free: "5", Locked: "0"}}})
	testkit.Eventually(t, 10*time.Second, func() bool { return count() == 1 }, "balance_below did not fire")
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	testkit.Eventually(t, 10*time.Second, func() bool { return count() == 2 }, "stream_silent did not fire on the tick")
	time.Sleep(100 * time.Millisecond) // several more ticks: nothing new
	mu.Lock()
	defer mu.Unlock()
	if len(fired) != 2 || fired[0].Rule != "balance_below#1" || fired[1].Rule != "stream_silent#2" {
		t.Errorf("fired %+v", fired)
	}
}
