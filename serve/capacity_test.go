package serve

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/state"
)

// BenchmarkCapacity is the SSH load test: N viewers (in-process SSH
// clients with a 120×40 PTY each, over loopback) watch the real dashboard
// while the simulator runs R events per second. One iteration is one
// second of watching; run it with a few iterations, e.g.
//
//	go test -run '^$' -bench Capacity -benchtime 3x -timeout 20m ./serve
//
// It reports the process's CPU in % of one core (the server, but also the
// simulator, the stream and the SSH clients, all in this process: an upper
// bound for serve), the heap in use per viewer, the bytes and the frames
// (writes the client got) each viewer receives per second, the CPU per
// frame (a machine short of CPU coalesces frames, so cpu-% alone flatters
// it), and the frame latency: from the publication of a state change to
// the next bytes a viewer receives (p50, p99; the frame rate cap's
// coalescing wait included).
func BenchmarkCapacity(b *testing.B) {
	for _, rate := range []int{100, 1000} {
		for _, n := range []int{1, 50, 200} {
			b.Run(fmt.Sprintf("viewers=%d/events=%d", n, rate), func(b *testing.B) { capacity(b, n, float64(rate), 0) })
		}
	}
	// Each viewer's model and frames cost CPU per frame: the same load at
	// lower frame caps.
	for _, fps := range []int{4, 8} {
		b.Run(fmt.Sprintf("viewers=200/events=100/fps=%d", fps), func(b *testing.B) { capacity(b, 200, 100, fps) })
	}
}

// capacity runs one case; fps 0 is serve's default frame cap.
func capacity(b *testing.B, viewers int, rate float64, fps int) {
	l := newLive(b, rate)
	f := newFixture(b, func(c *Config) {
		c.NewModel = nil
		c.Upstream = l.sess
		c.Logger = nil
		c.MaxSessions = viewers + 8
		c.FPS = fps
	})
	heap0 := testkit.HeapInUse()
	vs := openViewers(b, f, viewers)
	time.Sleep(time.Second) // past the first full frames
	heap1 := testkit.HeapInUse()

	probe := newLatencyProbe(l.sess.Hub(), vs)
	defer probe.stop()
	bytes0, frames0, events0 := totalBytes(vs), totalFrames(vs), l.sess.Hub().Latest().Stats.Events
	cpu0, start := testkit.CPUTime(), time.Now()
	for b.Loop() {
		time.Sleep(time.Second)
	}
	secs := time.Since(start).Seconds()
	cpu := (testkit.CPUTime() - cpu0).Seconds()
	b.ReportMetric(100*cpu/secs, "cpu-%")
	b.ReportMetric(float64(int64(heap1)-int64(heap0))/float64(viewers), "heapB/viewer")
	b.ReportMetric(float64(totalBytes(vs)-bytes0)/float64(viewers)/secs, "B/viewer/s")
	frames := float64(totalFrames(vs) - frames0)
	b.ReportMetric(frames/float64(viewers)/secs, "frames/viewer/s")
	b.ReportMetric(1e6*cpu/max(frames, 1), "cpu-µs/frame")
	b.ReportMetric(float64(l.sess.Hub().Latest().Stats.Events-events0)/secs, "events/s")
	p50, p99 := probe.percentiles()
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
}

func totalFrames(vs []*viewer) int64 {
	var n int64
	for _, v := range vs {
		n += v.screen.Writes()
	}
	return n
}

// latencyProbe samples, at most every 50 ms, the time a state change is
// published, and each viewer's write times, to measure the time from a
// change to the next bytes on each viewer's screen.
type latencyProbe struct {
	done    chan struct{}
	wg      sync.WaitGroup
	mu      sync.Mutex
	changes []time.Time
	vs      []*viewer
}

func newLatencyProbe(h *state.Hub, vs []*viewer) *latencyProbe {
	p := &latencyProbe{done: make(chan struct{}), vs: vs}
	for _, v := range vs {
		v.screen.stamp(true)
	}
	notice, cancel := h.Subscribe()
	p.wg.Go(func() {
		defer cancel()
		var last time.Time
		for {
			select {
			case <-p.done:
				return
			case <-notice:
				if now := time.Now(); now.Sub(last) >= 50*time.Millisecond {
					p.mu.Lock()
					p.changes = append(p.changes, now)
					p.mu.Unlock()
					last = now
				}
			}
		}
	})
	return p
}

func (p *latencyProbe) stop() {
	close(p.done)
	p.wg.Wait()
	for _, v := range p.vs {
		v.screen.stamp(false)
	}
}

// percentiles are the 50th and 99th percentiles, over every sampled change
// and every viewer, of the time to the viewer's next write. Changes too
// recent to have been answered are left out.
func (p *latencyProbe) percentiles() (p50, p99 time.Duration) {
	p.mu.Lock()
	changes := slices.Clone(p.changes)
	p.mu.Unlock()
	var lat []time.Duration
	for _, v := range p.vs {
		writes := v.screen.writeTimes()
		for _, c := range changes {
			i, _ := slices.BinarySearchFunc(writes, c, func(w, c time.Time) int { return w.Compare(c) })
			if i < len(writes) {
				lat = append(lat, writes[i].Sub(c))
			}
		}
	}
	if len(lat) == 0 {
		return 0, 0
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[len(lat)*99/100]
}
