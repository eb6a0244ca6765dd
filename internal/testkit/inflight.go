package testkit

import (
	"net/http"
	"runtime/metrics"
	"sync/atomic"
	"time"

	"bhtop/internal/clock"
)

// Inflight is an http.RoundTripper that counts the requests under way,
// so a test on a fake clock can move it only between requests (a
// timestamp made before a jump of the clock and checked after it would be
// refused as too old).
type Inflight struct {
	Base    http.RoundTripper // nil: http.DefaultTransport
	n       atomic.Int64
	started atomic.Int64
}

// RoundTrip counts the request while it runs.
func (f *Inflight) RoundTrip(r *http.Request) (*http.Response, error) {
	f.started.Add(1)
	f.n.Add(1)
	defer f.n.Add(-1)
	base := f.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// Client is an HTTP client whose requests f counts.
func (f *Inflight) Client() *http.Client { return &http.Client{Transport: f} }

// Quiet is the real time Settle sees nothing happen in before it says
// the code on a fake clock has settled; Abandoned is how long a time the
// clock sent may wait untaken before Settle takes it for left behind (a
// select that took another case); and after Busy, code that keeps making
// and stopping timers (a busy stream) counts as settled once no request
// is under way and no time sent waits, as a fixed pause once took it.
const (
	Quiet     = 2 * time.Millisecond
	Abandoned = 100 * time.Millisecond
	Busy      = 5 * Poll
)

// Working is how long, at most, Settle waits beyond a quiet look while
// another goroutine of the process runs or is ready to (atWork): one the
// clock woke may be at work (decoding an answer, under load or the race
// detector) before it sleeps on the clock again, and the clock moved on
// meanwhile. Past it, Settle takes the quiet for settled: tests running
// side by side may keep the process busy.
const Working = 250 * time.Millisecond

// atWork says a goroutine of the process other than the caller runs or
// is ready to run (runtime/metrics; false where they are not kept).
func atWork() bool {
	s := []metrics.Sample{{Name: "/sched/goroutines/running:goroutines"}, {Name: "/sched/goroutines/runnable:goroutines"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return false
	}
	return s[0].Value.Uint64() > 1 || s[1].Value.Uint64() > 0
}

// Advancing polls cond, moving c only while the code on it has settled
// (Settle), by step or less: never past the moment the next timer of c is
// due, so a client that waits on c to send sends at that very moment (steps
// that could jump past it, of 15 s, once hid a governor whose window was
// 10 s short). Tickers fire as the clock passes them, at most once a move,
// so the time runs at step per settling of the code, not per fixed pause.
func (f *Inflight) Advancing(c *clock.Fake, step, within time.Duration, cond func() bool) bool {
	end := time.Now().Add(within)
	for {
		if cond() {
			return true
		}
		left := time.Until(end)
		if left <= 0 || !f.Settle(c, left) {
			return cond()
		}
		if cond() {
			return true
		}
		to := c.Now().Add(step)
		if next, ok := c.NextTimer(); ok && next.Before(to) {
			to = next
		}
		c.Set(to)
	}
}

// Settle waits (up to within, real time) until the code on c has
// settled: every time c sent has been taken (or has waited Abandoned), no
// request of f is under way, and for a Quiet look none starts, no timer
// or ticker of c is made or stopped (or Busy has passed) and no other
// goroutine runs (or Working has passed). It reports whether it did.
func (f *Inflight) Settle(c *clock.Fake, within time.Duration) bool {
	start := time.Now()
	end := start.Add(within)
	fresh := func() int { return c.Unreceived(time.Now().Add(-Abandoned)) }
	for {
		started, changes := f.started.Load(), c.Changes()
		if f.n.Load() == 0 && fresh() == 0 {
			time.Sleep(Quiet)
			quiet := f.started.Load() == started && c.Changes() == changes
			if f.n.Load() == 0 && fresh() == 0 &&
				(quiet || time.Since(start) > Busy) && (!atWork() || time.Since(start) > Working) {
				return true
			}
		} else {
			time.Sleep(Quiet / 8)
		}
		if time.Now().After(end) {
			return false
		}
	}
}

// Idle waits (up to within) until no request has been under way for two
// looks a moment apart; false when one still is.
func (f *Inflight) Idle(within time.Duration) bool {
	return Within(within, func() bool {
		if f.n.Load() != 0 {
			return false
		}
		time.Sleep(time.Millisecond)
		return f.n.Load() == 0
	})
}
