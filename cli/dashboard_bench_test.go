package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/internal/testkit"
	"bhtop/internal/vtemu"
	"bhtop/sim"
)

// idleWindow is how long each measurement of BenchmarkDashboardIdle
// lasts, after the dashboard has been live for idleSettle.
const (
	idleWindow = 5 * time.Second
	idleSettle = 2 * time.Second
)

// screenWatch is a 200×60 terminal (vtemu.Screen) that notes when it
// first showed every one of a set of texts; after that it only counts
// the bytes, so that watching costs the measured process nothing.
type screenWatch struct {
	mu    sync.Mutex
	term  *vtemu.Screen
	bytes int
	want  []string
	at    time.Time // when all of want were first on screen
	seen  chan struct{}
}

func newScreenWatch(want ...string) *screenWatch {
	return &screenWatch{want: want, seen: make(chan struct{}), term: vtemu.NewScreen(200, 60)}
}

func (w *screenWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.bytes += len(p)
	if !w.at.IsZero() {
		return len(p), nil // seen: only count
	}
	_, _ = w.term.Write(p)
	if w.term.Shows(w.want...) {
		w.at = time.Now()
		close(w.seen)
	}
	return len(p), nil
}

func (w *screenWatch) written() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.bytes
}

// dashboardRun is a dashboard running in-process at 200×60 on a terminal
// that never types.
type dashboardRun struct {
	out    *screenWatch
	cancel context.CancelFunc
	done   chan int
	typer  *io.PipeWriter
}

func startDashboard(getenv func(string) string, out *screenWatch, args ...string) *dashboardRun {
	ctx, cancel := context.WithCancel(context.Background())
	in, typer := io.Pipe()
	d := &dashboardRun{out: out, cancel: cancel, done: make(chan int, 1), typer: typer}
	go func() {
		d.done <- runDashboardContext(ctx, args, IO{In: in, Out: out, Err: io.Discard, Getenv: getenv}, nil,
			tea.WithWindowSize(200, 60))
	}()
	return d
}

// stop ends the dashboard and waits for it.
func (d *dashboardRun) stop(b *testing.B) {
	d.cancel()
	d.typer.Close()
	select {
	case <-d.done:
	case <-time.After(10 * time.Second):
		b.Fatalf("the dashboard did not stop")
	}
}

// waitLive waits until the screen shows the account live.
func (d *dashboardRun) waitLive(b *testing.B) time.Time {
	select {
	case <-d.out.seen:
		d.out.mu.Lock()
		defer d.out.mu.Unlock()
		return d.out.at
	case <-time.After(20 * time.Second):
		b.Fatalf("the dashboard never showed the account live")
	}
	return time.Time{}
}

// liveTexts are on the screen once the account is live: the header's
// state, an open order's row and a balance.
var liveTexts = []string{"● live", "LIMIT", "USDT"}

// BenchmarkDashboardIdle is issue 13's idle dashboard: bhtop on a
// simulator whose user stream and quote socket are quiet (no activity,
// no market steps, no other traders), live and settled, at 200×60 and
// the default 15 fps. The simulator runs in a child process (this test
// binary, TestIdleSimChild), so the CPU measured is the dashboard's
// alone: over each 5 s window, in % of one core ("%core"), and the bytes
// drawn per second. Goal: ≤ 0.5 %core.
//
//	go test ./cli/ -run '^$' -bench DashboardIdle -benchtime 3x
func BenchmarkDashboardIdle(b *testing.B) {
	url := startIdleSim(b)
	dir := b.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir, "BHTOP_BASE_URL": url,
		"BHTOP_API_KEY": orderKey, "BHTOP_SECRET_KEY": orderSecret}
	// A quiet account may have no open orders: live with its balances.
	d := startDashboard(func(k string) string { return env[k] }, newScreenWatch("● live", "USDT"))
	defer d.stop(b)
	d.waitLive(b)
	time.Sleep(idleSettle) // the first market snapshots and candles
	var cpu, wall time.Duration
	drawn := 0
	for b.Loop() {
		c0, w0, n0 := testkit.CPUTime(), time.Now(), d.out.written()
		time.Sleep(idleWindow)
		cpu += testkit.CPUTime() - c0
		wall += time.Since(w0)
		drawn += d.out.written() - n0
	}
	b.ReportMetric(100*cpu.Seconds()/wall.Seconds(), "%core")
	b.ReportMetric(float64(drawn)/wall.Seconds(), "B/s")
}

// idleSimEnv makes TestIdleSimChild the simulator process of
// BenchmarkDashboardIdle.
const idleSimEnv = "BHTOP_BENCH_IDLESIM"

// startIdleSim starts the quiet simulator in a child process and returns
// its URL; it ends with the benchmark.
func startIdleSim(b *testing.B) string {
	cmd := exec.Command(os.Args[0], "-test.run=^TestIdleSimChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), idleSimEnv+"=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatalf("start the simulator process: %v", err)
	}
	b.Cleanup(func() { stdin.Close(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http") {
		b.Fatalf("the simulator process said %q (%v)", line, err)
	}
	return strings.TrimSpace(line)
}

// TestIdleSimChild is BenchmarkDashboardIdle's simulator process; it is
// skipped unless that benchmark started it. It prints the simulator's URL
// and serves until its stdin closes.
func TestIdleSimChild(t *testing.T) {
	if os.Getenv(idleSimEnv) == "" {
		t.Skip("the simulator process of BenchmarkDashboardIdle")
	}
	s := sim.New(sim.Options{MarketInterval: -1, MarketActivity: -1, RequestLog: io.Discard,
		Keys: orderKeys()})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	fmt.Println(s.URL())
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// BenchmarkDashboardStart is issue 13's start to first live frame: bhtop
// without credentials (so it starts its own simulator, as `go run .`
// does, whose account starts with resting orders) from the call until
// the screen first shows the account live with its orders and balances.
// It reports the mean in ms ("ms-to-live"; the ns/op also counts the
// shutdown). Goal: ≤ 300 ms.
//
//	go test ./cli/ -run '^$' -bench DashboardStart -benchtime 10x
func BenchmarkDashboardStart(b *testing.B) {
	dir := b.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}
	var total time.Duration
	n := 0
	for b.Loop() {
		t0 := time.Now()
		d := startDashboard(func(k string) string { return env[k] }, newScreenWatch(liveTexts...))
		total += d.waitLive(b).Sub(t0)
		n++
		b.StopTimer()
		d.stop(b)
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(n), "ms-to-live")
}
