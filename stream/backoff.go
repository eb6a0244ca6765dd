package stream

import (
	"math/rand/v2"
	"time"
)

// backoff is the delay before reconnect attempt n (0 = the first retry
// after a drop): exponential from base with full jitter in its upper half,
// capped. Attempt 0 is always below base, so with the default base the
// first retry comes within 1 s (DESIGN.md).
func backoff(n int, base, capDelay time.Duration, rnd func() float64) time.Duration {
	d := base
	for i := 0; i < n && d < capDelay; i++ {
		d *= 2
	}
	d = min(d, capDelay)
	// Jitter within [d/2, d): spreads reconnecting clients, never zero.
	j := time.Duration(float64(d/2) * rnd())
	return d/2 + j
}

// jitter is the process's random source for backoff.
func jitter() float64 { return rand.Float64() }
