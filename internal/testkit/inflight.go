package testkit

import (
	"net/http"
	"sync/atomic"
	"time"

	"bhtop/internal/clock"
)

// Inflight is an http.RoundTripper that counts the requests under way,
// so a test on a fake clock can move it only between requests (a
// timestamp made before a jump of the clock and checked after it would be
// refused as too old).
type Inflight struct {
	Base http.RoundTripper // nil: http.DefaultTransport
	n    atomic.Int64
}

// RoundTrip counts the request while it runs.
func (f *Inflight) RoundTrip(r *http.Request) (*http.Response, error) {
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

// Advancing polls cond as the function Advancing does, moving c by step
// only while none of f's requests is under way (see Inflight).
func (f *Inflight) Advancing(c *clock.Fake, step, within time.Duration, cond func() bool) bool {
	return WithinEvery(within, Poll, func() bool {
		if cond() {
			return true
		}
		if f.Idle(within) {
			c.Advance(step)
		}
		return false
	})
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
