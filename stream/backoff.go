package stream

import (
	"time"

	retry "bhtop/backoff"
)

// backoff is the delay before reconnect attempt n (backoff.Delay, shared
// with the quote socket).
func backoff(n int, base, capDelay time.Duration, rnd func() float64) time.Duration {
	return retry.Delay(n, base, capDelay, rnd)
}

// jitter is the process's random source for backoff.
func jitter() float64 { return retry.Jitter() }
