package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"syscall"
	"testing"
	"time"

	"bhtop/config"
	"bhtop/internal/simtest"
	"bhtop/sim"
)

// benchWindow is how long each measurement of BenchmarkFollowAccounts
// lasts.
const benchWindow = 3 * time.Second

// BenchmarkFollowAccounts follows n accounts at once, each on its own
// simulator making 100 events per second (user stream, state and market
// client per account, as the dashboard and serve keep them). It reports
// the CPU share of one core and the heap each followed account costs: the
// process's CPU over a window with the followers, less the same window
// with the simulators alone, divided by n. Issue 12's goal: 20 accounts
// under 10 % of a core (0.005 core/account) and 200 MiB.
//
//	go test ./cli/ -run '^$' -bench FollowAccounts -benchtime 1x
func BenchmarkFollowAccounts(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			accts := make([]config.Account, n)
			for i := range accts {
				s := simtest.Start(b, sim.Options{Seed: int64(i + 1), Activity: 100, RequestLog: io.Discard})
				c := config.Conn{BaseURL: s.URL(), WSURL: s.WSURL(), APIKey: s.APIKey(), Secret: s.Secret(),
					RecvWindow: config.DefaultRecvWindow, Keepalive: config.DefaultKeepalive, Rotate: config.DefaultRotate, ValueIn: "USDT"}
				accts[i] = config.Account{Name: fmt.Sprint("a", i), Conn: c}
			}
			heap0 := heapInUse()
			base := cpuOver(benchWindow)

			ctx := context.Background()
			as, err := openAccounts(ctx, accts, upstreamOptions{logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			if err != nil {
				b.Fatal(err)
			}
			defer as.Close()
			as.Start()
			for _, a := range as.list {
				wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
				if err := a.up.sess.WaitLive(wctx); err != nil {
					b.Fatalf("%s not live: %v", a.name, err)
				}
				cancel()
			}
			// The market clients' first snapshots (klines of every touched
			// symbol) are a start-up cost: measure the steady state after.
			time.Sleep(benchWindow)
			events := func() (sum int64) {
				for _, a := range as.list {
					sum += a.up.sess.Hub().Latest().Stats.Events
				}
				return sum
			}
			b.ResetTimer()
			var cpu time.Duration
			e0 := events()
			for range b.N {
				cpu += cpuOver(benchWindow)
			}
			b.StopTimer()
			secs := float64(b.N) * benchWindow.Seconds()
			follow := (cpu.Seconds() - base.Seconds()*float64(b.N)) / secs
			b.ReportMetric(follow/float64(n), "core/account")
			b.ReportMetric(float64(events()-e0)/secs/float64(n), "events/s/account")
			b.ReportMetric(float64(heapInUse()-min(heap0, heapInUse()))/float64(n)/(1<<20), "MiB/account")
		})
	}
}

// cpuOver is the process's CPU time (user and system) over the next d.
func cpuOver(d time.Duration) time.Duration {
	t0 := cpuTime()
	time.Sleep(d)
	return cpuTime() - t0
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}
