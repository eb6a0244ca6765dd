package serve

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// BenchmarkViewerBandwidth measures the bytes sent to each viewer per
// second while the simulator runs about 1,000 order events per second.
// Each iteration is one second of watching by 10 viewers at 120x40.
//
//	go test -run '^$' -bench ViewerBandwidth -benchtime 5x ./serve
func BenchmarkViewerBandwidth(b *testing.B) {
	const viewers = 10
	l := newLive(b, 1000)
	f := newBenchServer(b, l)
	vs := openViewers(b, f, viewers)
	time.Sleep(time.Second) // past the first full frames
	bytes0, events0, start := totalBytes(vs), l.sess.Hub().Latest().Stats.Events, time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(totalBytes(vs)-bytes0)/viewers/secs, "B/viewer/s")
	b.ReportMetric(float64(l.sess.Hub().Latest().Stats.Events-events0)/secs, "events/s")
}

// BenchmarkSessionMemory measures the heap and goroutines of one more
// viewer on an idle account, per window size (the largest is the cap).
// Both ends of the SSH connection are in this process, so the figures are
// an upper bound for the server.
//
//	go test -run '^$' -bench SessionMemory -benchtime 20x ./serve
func BenchmarkSessionMemory(b *testing.B) {
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {MaxWidth, MaxHeight}} {
		b.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(b *testing.B) {
			l := newLive(b, 0)
			f := newBenchServer(b, l)
			heap0, g0 := testkit.HeapInUse(), runtime.NumGoroutine()
			n := 0
			for b.Loop() {
				v := openViewer(b, mustDial(b, f.addr, f.client), size.w, size.h, nil)
				v.screen.waitFor(b, "Balances", 10*time.Second)
				n++
			}
			time.Sleep(500 * time.Millisecond) // let each session settle
			heap1, g1 := testkit.HeapInUse(), runtime.NumGoroutine()
			b.ReportMetric(float64(heap1-heap0)/float64(n), "heapB/session")
			b.ReportMetric(float64(g1-g0)/float64(n), "goroutines/session")
		})
	}
}

func totalBytes(vs []*viewer) int64 {
	var n int64
	for _, v := range vs {
		n += v.screen.Bytes()
	}
	return n
}

// newBenchServer is liveServer without the session log.
func newBenchServer(b *testing.B, l *live) *fixture {
	return newFixture(b, func(c *Config) {
		c.NewModel = nil
		c.Upstream = l.sess
		c.Logger = nil
	})
}
