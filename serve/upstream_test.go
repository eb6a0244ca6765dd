package serve

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/upstream"
)

// countingUpstream counts the requests that would reach the exchange.
type countingUpstream struct {
	resyncs, keepalives atomic.Int64
	gate                chan struct{} // Resync waits on it when non-nil
}

func (c *countingUpstream) Hub() *state.Hub                                { return &state.Hub{} }
func (c *countingUpstream) Status() stream.Status                          { return stream.Status{} }
func (c *countingUpstream) Notes(uint64) ([]stream.Note, uint64)           { return nil, 0 }
func (c *countingUpstream) Symbols(context.Context) ([]rest.Symbol, error) { return nil, nil }
func (c *countingUpstream) Keepalive(context.Context) (time.Time, error) {
	n := c.keepalives.Add(1)
	return time.Unix(n, 0), nil
}
func (c *countingUpstream) Resync(context.Context) error {
	c.resyncs.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	return errors.New("resync failed")
}

func TestSharedResyncJoinsTheCallInFlight(t *testing.T) {
	up := &countingUpstream{gate: make(chan struct{})}
	s := Shared(up, time.Hour, nil)
	const viewers = 20
	errs := make(chan error, viewers)
	var wg sync.WaitGroup
	for range viewers {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- s.Resync(context.Background()) }()
	}
	for up.resyncs.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // let the others join
	close(up.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err == nil || err.Error() != "resync failed" {
			t.Errorf("Resync() = %v, want the shared call's error", err)
		}
	}
	if n := up.resyncs.Load(); n != 1 {
		t.Errorf("%d concurrent Resync calls reached the upstream %d times, want 1", viewers, n)
	}
}

func TestSharedKeepaliveOncePerInterval(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	now := t0
	up := &countingUpstream{}
	s := Shared(up, 10*time.Second, func() time.Time { return now })
	steps := []struct {
		at        time.Duration
		wantCalls int64
	}{
		{0, 1},
		{time.Second, 1},
		{9 * time.Second, 1},
		{10 * time.Second, 2},
		{15 * time.Second, 2},
		{21 * time.Second, 3},
	}
	for _, st := range steps {
		now = t0.Add(st.at)
		got, err := s.Keepalive(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n := up.keepalives.Load(); n != st.wantCalls || got != time.Unix(st.wantCalls, 0) {
			t.Errorf("Keepalive at t0+%s: upstream calls = %d (result %v), want %d", st.at, n, got.Unix(), st.wantCalls)
		}
	}
}

// TestSharedResyncNotAnsweredSaysSo: a viewer whose deadline passes while
// the shared resync still runs is told it is still under way and goes
// on (upstream.ErrNotAnswered, which the dashboard shows as a warning),
// not a bare "context deadline exceeded".
func TestSharedResyncNotAnsweredSaysSo(t *testing.T) {
	up := &countingUpstream{gate: make(chan struct{})}
	defer close(up.gate)
	s := Shared(up, time.Hour, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	err := s.Resync(ctx)
	if !errors.Is(err, upstream.ErrNotAnswered) || !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "deadline") {
		t.Errorf("Resync past the deadline = %v, want upstream.ErrNotAnswered saying the call goes on", err)
	}
}
