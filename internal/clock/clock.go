// Package clock makes time an input: the clock interface that the stream
// lifecycle and the simulator read, the real clock, and a fake one that
// tests move by hand.
package clock

import "time"

// Clock tells the time and makes timers and tickers on it.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
	NewTicker(d time.Duration) Ticker
}

// Timer fires once on C after its duration, unless stopped.
type Timer interface {
	C() <-chan time.Time
	// Stop prevents the timer from firing; false when it already fired
	// or was stopped.
	Stop() bool
}

// Ticker fires on C every period until stopped; a slow reader misses
// ticks rather than queueing them (as time.Ticker).
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Real is the system clock.
func Real() Clock { return realClock{} }

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

func (realClock) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }

type realTicker struct{ t *time.Ticker }

func (t realTicker) C() <-chan time.Time { return t.t.C }
func (t realTicker) Stop()               { t.t.Stop() }

// Or is c, or the real clock when c is nil (for optional config fields).
func Or(c Clock) Clock {
	if c == nil {
		return Real()
	}
	return c
}

// Sleep waits d on c, or until done is closed; false when done closed
// first. A d of zero or less returns true at once.
func Sleep(c Clock, done <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := c.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C():
		return true
	case <-done:
		return false
	}
}

// After is a channel that receives once d has passed on c. The timer
// behind it is not stopped early: use it only where the wait ends soon
// anyway (a NewTimer that is stopped is the right tool in loops).
func After(c Clock, d time.Duration) <-chan time.Time { return c.NewTimer(d).C() }
