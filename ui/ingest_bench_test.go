package ui

import (
	"context"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/stream"
)

// BenchmarkLiveIngest is the dashboard's ingest path end to end: the
// in-process simulator at 20,000 events/s (its --activity), a real
// stream.Session over loopback folding into a store that already retains
// 10,000 closed orders, and a reader on the Hub:
//
//   - reader=none: nobody subscribed (what `bhtop dump` does),
//   - reader=snapshots: takes every notice's snapshot and walks its orders,
//   - reader=ui: the real Model under a tea.Program drawing 200x60 at 30
//     fps into io.Discard.
//
// One op is one event applied. It reports the events per second the
// session folded (the simulator offers 20,000: ingest keeps up when this
// stays at that rate), the reconnects (a client that falls behind is cut
// off by the simulator with 1013, so any reconnect means ingest stalled),
// the snapshots published per second, and the whole process's CPU time
// per event (simulator included). Run it for several seconds, e.g.
//
//	go test ./ui/ -run '^$' -bench LiveIngest -benchtime 200000x
func BenchmarkLiveIngest(b *testing.B) {
	for _, reader := range []string{"none", "snapshots", "ui"} {
		b.Run("reader="+reader, func(b *testing.B) { benchLiveIngest(b, reader) })
	}
}

func benchLiveIngest(b *testing.B, reader string) {
	srv := simtest.Start(b, sim.Options{Activity: 20000, RequestLog: io.Discard})
	sess, err := stream.New(stream.Config{REST: srv.Client(), WSURL: srv.WSURL(), Simulated: true})
	sess = testkit.Live(b, sess, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Warm up until the store retains its 10,000 closed orders.
	hub := sess.Hub()
	testkit.Eventually(b, 10*time.Second, func() bool { return hub.Latest().Orders.Len() >= state.DefaultRetention },
		"the store retaining %d closed orders after warm-up", state.DefaultRetention)

	done := make(chan struct{})
	switch reader {
	case "snapshots":
		notice, unsub := hub.Subscribe()
		defer unsub()
		go func() {
			defer close(done)
			for {
				select {
				case <-notice:
				case <-ctx.Done():
					return
				}
				open := 0
				for _, o := range hub.Latest().Orders.All() {
					if o.Open() {
						open++
					}
				}
				_ = open
			}
		}()
	case "ui":
		m := New(sess, nil, WithContext(ctx))
		p := tea.NewProgram(m, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
			tea.WithWindowSize(200, 60), tea.WithFPS(30))
		go func() { defer close(done); _, _ = p.Run() }()
	default:
		close(done)
	}

	published := func() uint64 { return hub.Latest().Version }
	events := func() int64 { return hub.Latest().Stats.Events }
	connects0, ev0, ver0, cpu0 := sess.Status().Connects, events(), published(), testkit.CPUTime()
	b.ResetTimer()
	start := time.Now()
	for events()-ev0 < int64(b.N) {
		time.Sleep(20 * time.Millisecond) // polls the count, not a timed assertion
		if time.Since(start) > 10*time.Minute {
			b.Fatalf("only %d of %d events in 10 minutes", events()-ev0, b.N)
		}
	}
	el := time.Since(start)
	b.StopTimer()
	n := events() - ev0
	b.ReportMetric(float64(n)/el.Seconds(), "events/s")
	b.ReportMetric(float64(published()-ver0)/el.Seconds(), "snapshots/s")
	b.ReportMetric(float64(sess.Status().Connects-connects0), "reconnects")
	b.ReportMetric(float64((testkit.CPUTime()-cpu0).Nanoseconds())/float64(n), "cpu-ns/event")
	cancel()
	testkit.Recv(b, done, 10*time.Second, "the session did not stop once cancelled")
}
