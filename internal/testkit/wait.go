// Package testkit is the test kit every package's tests share, the
// simulator's own included: polling waits with a deadline (on real time or
// stepping a fake clock), a thread-safe request log, a session started
// for a test, a relay that can freeze, and tmux terminals for end-to-end
// tests. Imported by _test files only.
package testkit

import (
	"fmt"
	"testing"
	"time"

	"bhtop/internal/clock"
)

// Poll is the longest pause between two looks of the waits, and the
// real time each step of a fake clock is given (Advancing).
const Poll = 10 * time.Millisecond

// Within polls cond until it holds or within passes (real time), and
// reports whether it held. The first looks come 1 ms apart, the pause
// doubling up to Poll: a wait for what is a moment away costs that
// moment, not a whole Poll. Use it where the test decides what a timeout
// means; Eventually fails the test itself.
func Within(within time.Duration, cond func() bool) bool {
	end := time.Now().Add(within)
	for pause := time.Millisecond; ; pause = min(2*pause, Poll) {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return cond()
		}
		time.Sleep(pause)
	}
}

// WithinEvery is Within looking every pause (for looks that cost, such
// as reading a tmux screen).
func WithinEvery(within, pause time.Duration, cond func() bool) bool {
	end := time.Now().Add(within)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return cond()
		}
		time.Sleep(pause)
	}
}

// Eventually polls cond until it holds, and fails the test with the
// message (format and args, as fmt.Sprintf) when within passes first.
func Eventually(t testing.TB, within time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	if !Within(within, cond) {
		t.Fatalf("after %s: %s", within, fmt.Sprintf(format, args...))
	}
}

// Recv receives from ch, and fails the test with the message (format and
// args, as fmt.Sprintf) when nothing comes within (real time): a receive
// that would otherwise wait for go test's own timeout (10 minutes), with
// no word of what it waited for. A closed channel gives its zero value
// at once, as a bare receive does.
func Recv[T any](t testing.TB, ch <-chan T, within time.Duration, format string, args ...any) T {
	t.Helper()
	timer := time.NewTimer(within)
	defer timer.Stop()
	select {
	case v := <-ch:
		return v
	case <-timer.C:
		t.Fatalf("after %s: %s", within, fmt.Sprintf(format, args...))
		panic("unreachable")
	}
}

// Advancing polls cond every Poll, moving the fake clock by step before
// each look: the code under test sees step of its time pass per Poll of
// real time, so hours of keepalives, backoffs and TTLs run in
// milliseconds.
func Advancing(c *clock.Fake, step, within time.Duration, cond func() bool) bool {
	return WithinEvery(within, Poll, func() bool {
		if cond() {
			return true
		}
		c.Advance(step)
		return false
	})
}

// EventuallyAdvancing is Advancing that fails the test with the message.
func EventuallyAdvancing(t testing.TB, c *clock.Fake, step, within time.Duration, cond func() bool, format string, args ...any) {
	t.Helper()
	if !Advancing(c, step, within, cond) {
		t.Fatalf("after %s (clock at %s): %s", within, c.Now().Format(time.TimeOnly), fmt.Sprintf(format, args...))
	}
}

// Long marks a test that takes seconds (why says what it does): skipped
// under -short.
func Long(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skip("long (-short skips it): " + why)
	}
}

// SeedBytes adds each seed to a fuzz target's corpus as []byte.
func SeedBytes(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

// SeedStrings adds each seed to a fuzz target's corpus as a string.
func SeedStrings(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add(s)
	}
}
