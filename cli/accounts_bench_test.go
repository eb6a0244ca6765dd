package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"bhtop/config"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/signer"
	"bhtop/sim"
)

// benchWindow is how long each measurement of BenchmarkFollowAccounts
// lasts; the followers first settle as long (the market clients' first
// snapshots are a start-up cost).
const benchWindow = 3 * time.Second

// followEnv names the environment variable that makes TestFollowerChild
// the follower process of BenchmarkFollowAccounts: a JSON followJob.
const followEnv = "BHTOP_BENCH_FOLLOW"

// followProfileEnv, when set to a file name, makes the follower process
// write a CPU profile of its measurement window there (the child inherits
// the benchmark's environment):
//
//	BHTOP_BENCH_CPUPROFILE=/tmp/follow.pprof go test ./cli/ -run '^$' -bench 'FollowAccounts/accounts=20' -benchtime 1x
const followProfileEnv = "BHTOP_BENCH_CPUPROFILE"

// followAllocEnv, likewise, names a file for the follower's heap profile
// (allocations since it started) after the window; the same profile taken
// as the window starts goes to the name + ".base", so that
//
//	go tool pprof -sample_index=alloc_space -diff_base f.base cli.test f
//
// shows what the window alone allocated.
const followAllocEnv = "BHTOP_BENCH_MEMPROFILE"

// followJob is what the follower process follows, and followResult what
// it measured over the window.
type followJob struct {
	Accounts []struct{ BaseURL, WSURL, APIKey, Secret string }
}

type followResult struct {
	CPU    time.Duration // user + system over the window
	Heap   uint64        // live heap after the window
	Events int64         // events folded over the window, all accounts
	Alloc  uint64        // bytes allocated over the window
	GCs    uint32        // garbage collections over the window
}

// BenchmarkFollowAccounts follows n accounts at once, each on its own
// simulator making 100 events per second, with a user stream, state and
// market client per account as the dashboard and serve keep them. The
// followers run in a child process (this test binary, TestFollowerChild),
// so its CPU is theirs alone, not the simulators'. Issue 12's goal: 20
// accounts under 10 % of a core (0.005 core/account) and 200 MiB.
//
//	go test ./cli/ -run '^$' -bench FollowAccounts -benchtime 1x
func BenchmarkFollowAccounts(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			var job followJob
			for i := range n {
				s := simtest.Start(b, sim.Options{Seed: int64(i + 1), Activity: 100, RequestLog: io.Discard})
				job.Accounts = append(job.Accounts, struct{ BaseURL, WSURL, APIKey, Secret string }{s.URL(), s.WSURL(), s.APIKey(), sim.DemoSecret})
			}
			spec, _ := json.Marshal(job)
			var total followResult
			b.ResetTimer()
			for range b.N {
				var out bytes.Buffer
				cmd := exec.Command(os.Args[0], "-test.run=^TestFollowerChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), followEnv+"="+string(spec))
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					b.Fatalf("follower: %v\n%s", err, out.String())
				}
				var r followResult
				line, _, _ := bytes.Cut(out.Bytes(), []byte("\n"))
				if err := json.Unmarshal(line, &r); err != nil {
					b.Fatalf("follower said %q: %v", out.String(), err)
				}
				total.CPU += r.CPU
				total.Heap = max(total.Heap, r.Heap)
				total.Events += r.Events
				total.Alloc += r.Alloc
				total.GCs += r.GCs
			}
			b.StopTimer()
			secs := float64(b.N) * benchWindow.Seconds()
			b.ReportMetric(total.CPU.Seconds()/secs/float64(n), "core/account")
			b.ReportMetric(float64(total.Events)/secs/float64(n), "events/s/account")
			b.ReportMetric(float64(total.Heap)/float64(n)/(1<<20), "MiB/account")
			b.ReportMetric(float64(total.Alloc)/secs/float64(n)/(1<<20), "alloc-MiB/s/account")
			b.ReportMetric(float64(total.GCs)/secs, "GCs/s")
		})
	}
}

// TestFollowerChild is BenchmarkFollowAccounts's follower process; it is
// skipped unless that benchmark started it. It follows the accounts of
// the job, waits for them to go live and settle, then prints one line of
// JSON: what the window cost.
func TestFollowerChild(t *testing.T) {
	spec := os.Getenv(followEnv)
	if spec == "" {
		t.Skip("the follower process of BenchmarkFollowAccounts")
	}
	var job followJob
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		t.Fatal(err)
	}
	accts := make([]config.Account, len(job.Accounts))
	for i, a := range job.Accounts {
		accts[i] = benchAccount(i, a.BaseURL, a.WSURL, a.APIKey, a.Secret)
	}
	as := openLive(t, accts)
	defer as.Close()
	time.Sleep(benchWindow) // settle: the market clients' first snapshots
	events := func() (sum int64) {
		for _, a := range as.list {
			sum += a.up.sess.Hub().Latest().Stats.Events
		}
		return sum
	}
	if name := os.Getenv(followProfileEnv); name != "" {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	allocs := os.Getenv(followAllocEnv)
	if allocs != "" {
		writeAllocs(t, allocs+".base")
	}
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	e0, c0 := events(), testkit.CPUTime()
	time.Sleep(benchWindow)
	c1, e1 := testkit.CPUTime(), events()
	runtime.ReadMemStats(&m1)
	r := followResult{CPU: c1 - c0, Events: e1 - e0, Alloc: m1.TotalAlloc - m0.TotalAlloc, GCs: m1.NumGC - m0.NumGC,
		Heap: testkit.HeapInUse()}
	if allocs != "" {
		writeAllocs(t, allocs)
	}
	b, _ := json.Marshal(r)
	fmt.Printf("%s\n", b)
}

// writeAllocs writes the allocations profile (since the process started)
// to the file name.
func writeAllocs(t *testing.T, name string) {
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkAccountsLiveOneHost opens n accounts of one simulator (one
// host: their REST requests go out one at a time) and reports the mean
// time until every one is live ("ms-to-live").
//
//	go test ./cli/ -run '^$' -bench AccountsLiveOneHost -benchtime 5x
func BenchmarkAccountsLiveOneHost(b *testing.B) {
	const n = 10
	s := simtest.Start(b, sim.Options{Accounts: n, RequestLog: io.Discard, RateLimits: sim.RateLimits{WeightPerMinute: 1 << 30}})
	accts := make([]config.Account, n)
	for i, k := range s.Accounts(sim.DemoSecret) {
		accts[i] = benchAccount(i, s.URL(), s.WSURL(), k.APIKey, k.SecretKey)
	}
	var total time.Duration
	for b.Loop() {
		t0 := time.Now()
		as := openLive(b, accts)
		total += time.Since(t0)
		b.StopTimer()
		_ = as.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Microseconds())/1e3/float64(b.N), "ms-to-live")
}

// benchAccount is account a<i> of the service at baseURL, with the
// default timings.
func benchAccount(i int, baseURL, wsURL, apiKey, secret string) config.Account {
	return config.Account{Name: fmt.Sprint("a", i), Conn: config.Conn{BaseURL: baseURL, WSURL: wsURL, APIKey: apiKey,
		Secret: signer.NewSecret(secret), RecvWindow: config.DefaultRecvWindow, Keepalive: config.DefaultKeepalive,
		Rotate: config.DefaultRotate, ValueIn: "USDT"}}
}

// openLive opens and starts accts and waits until every one is live.
func openLive(tb testing.TB, accts []config.Account) *accounts {
	tb.Helper()
	ctx := context.Background()
	as, err := openAccounts(ctx, accts, upstreamOptions{logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		tb.Fatal(err)
	}
	as.Start()
	for _, a := range as.list {
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		err := a.up.sess.WaitLive(wctx)
		cancel()
		if err != nil {
			as.Close()
			tb.Fatalf("%s not live: %v", a.name, err)
		}
	}
	return as
}
