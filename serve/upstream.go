package serve

import (
	"context"
	"sync"
	"time"

	"bhtop/rest"
	"bhtop/ui"
	"bhtop/upstream"
)

// Upstream is the one live account connection that every viewer reads:
// the dashboard's Backend, which stream.Session implements. Serve never
// holds anything that can place or cancel an order.
type Upstream = ui.Backend

// DefaultShareEvery is how often the viewers together may make the
// upstream send a request (keepalive, resync, symbols).
const DefaultShareEvery = 10 * time.Second

// Shared wraps the upstream so that many viewers cannot multiply its REST
// requests: Keepalive, Resync and Symbols run at most once per every
// across all viewers (concurrent callers share the call in flight; callers
// within every of the last call get its result). Without this, 32 viewers
// pressing r could spend the account's request weight and get the one
// connection banned for everyone. The reads (Hub, Status, Notes) pass
// through. A zero every means DefaultShareEvery; now nil means time.Now.
func Shared(up Upstream, every time.Duration, now func() time.Time) Upstream {
	if every <= 0 {
		every = DefaultShareEvery
	}
	if now == nil {
		now = time.Now
	}
	return &shared{Upstream: up,
		keepalive: onceEvery[time.Time]{every: every, now: now},
		resync:    onceEvery[struct{}]{every: every, now: now},
		symbols:   onceEvery[[]rest.Symbol]{every: every, now: now},
	}
}

type shared struct {
	Upstream
	keepalive onceEvery[time.Time]
	resync    onceEvery[struct{}]
	symbols   onceEvery[[]rest.Symbol]
}

func (s *shared) Keepalive(ctx context.Context) (time.Time, error) {
	return s.keepalive.do(ctx, s.Upstream.Keepalive)
}

func (s *shared) Resync(ctx context.Context) error {
	_, err := s.resync.do(ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, s.Upstream.Resync(ctx)
	})
	return err
}

func (s *shared) Symbols(ctx context.Context) ([]rest.Symbol, error) {
	return s.symbols.do(ctx, s.Upstream.Symbols)
}

// onceEvery runs a call at most once per every: a caller while one is in
// flight waits for it, a caller soon after gets its result.
type onceEvery[T any] struct {
	every time.Duration
	now   func() time.Time

	mu       sync.Mutex
	inflight *flight[T]
	last     *flight[T] // finished
	lastAt   time.Time
}

type flight[T any] struct {
	done chan struct{}
	val  T
	err  error
}

func (o *onceEvery[T]) do(ctx context.Context, call func(context.Context) (T, error)) (T, error) {
	o.mu.Lock()
	f := o.inflight
	switch {
	case f != nil: // join the call in flight
	case o.last != nil && o.now().Sub(o.lastAt) < o.every:
		last := o.last
		o.mu.Unlock()
		return last.val, last.err
	default:
		f = &flight[T]{done: make(chan struct{})}
		o.inflight = f
		go o.run(f, call)
	}
	o.mu.Unlock()
	select {
	case <-f.done:
		return f.val, f.err
	case <-ctx.Done():
		// The call goes on (for the viewers still waiting, and its
		// result serves those within every of it).
		var zero T
		return zero, upstream.NotAnswered("the call the viewers share is still under way; it goes on", ctx.Err())
	}
}

// run makes the call with its own deadline, so that the viewer who
// started it leaving does not cancel it for the others.
func (o *onceEvery[T]) run(f *flight[T], call func(context.Context) (T, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	f.val, f.err = call(ctx)
	o.mu.Lock()
	o.inflight, o.last, o.lastAt = nil, f, o.now()
	o.mu.Unlock()
	close(f.done)
}
