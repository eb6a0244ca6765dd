// Package backoff computes reconnect delays: exponential with jitter,
// capped (DESIGN.md 'Stream lifecycle and resync'), shared by the user
// stream and the quote socket.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Default delays of a reconnecting socket: the first retry comes within
// 1 s (below DefaultBase), later ones at most DefaultCap apart.
const (
	DefaultBase = 500 * time.Millisecond
	DefaultCap  = 30 * time.Second
)

// Delay is the delay before reconnect attempt n (0 = the first retry
// after a drop): exponential from base with full jitter in its upper half,
// capped. Attempt 0 is always below base. rnd returns a number in [0, 1).
func Delay(n int, base, capDelay time.Duration, rnd func() float64) time.Duration {
	d := base
	for i := 0; i < n && d < capDelay; i++ {
		d *= 2
	}
	d = min(d, capDelay)
	// Jitter within [d/2, d): spreads reconnecting clients, never zero.
	j := time.Duration(float64(d/2) * rnd())
	return d/2 + j
}

// Jitter is the process's random source for Delay.
func Jitter() float64 { return rand.Float64() }
