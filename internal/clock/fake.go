package clock

import (
	"cmp"
	"slices"
	"sync"
	"time"
)

// Fake is a clock that moves only when told (Advance, Set). Its timers and
// tickers fire, in time order, as the time passes them. Safe for
// concurrent use; the zero value is not usable, use NewFake.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	seq     uint64
	waiters map[uint64]*fakeWaiter
	changed chan struct{} // closed and replaced when a timer or ticker is made
	changes uint64        // timers and tickers made or stopped
	fired   []*fakeWaiter // sent a time, maybe not yet taken (Unreceived)
}

type fakeWaiter struct {
	id     uint64
	at     time.Time
	period time.Duration // 0: a timer
	c      chan time.Time
	sent   time.Time // real time of the last send (Unreceived)
	gone   bool      // stopped
}

// NewFake returns a fake clock showing t.
func NewFake(t time.Time) *Fake {
	return &Fake{now: t, waiters: map[uint64]*fakeWaiter{}, changed: make(chan struct{})}
}

// Now is the fake time.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer makes a timer that fires once the fake time reaches now+d.
func (f *Fake) NewTimer(d time.Duration) Timer {
	w := f.add(d, 0)
	return &fakeTimer{f: f, w: w}
}

// NewTicker makes a ticker firing every d of fake time. d must be > 0.
func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive interval for NewTicker")
	}
	w := f.add(d, d)
	return &fakeTicker{f: f, w: w}
}

func (f *Fake) add(d, period time.Duration) *fakeWaiter {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seq++
	f.changes++
	w := &fakeWaiter{id: f.seq, at: f.now.Add(d), period: period, c: make(chan time.Time, 1)}
	if d <= 0 && period == 0 {
		w.c <- f.now
	} else {
		f.waiters[w.id] = w
	}
	close(f.changed)
	f.changed = make(chan struct{})
	return w
}

func (f *Fake) remove(w *fakeWaiter) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.waiters[w.id]
	delete(f.waiters, w.id)
	w.gone = true
	f.changes++
	return ok
}

// Advance moves the fake time forward by d, firing what falls due on the
// way in time order (a ticker fires at most once per Advance: a reader
// that did not take the last tick misses the next, as with time.Ticker).
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	f.set(f.now.Add(d))
	f.mu.Unlock()
}

// Set moves the fake time to t (never backwards), firing what falls due.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	if t.After(f.now) {
		f.set(t)
	}
	f.mu.Unlock()
}

func (f *Fake) set(t time.Time) {
	f.pruneFired()
	var due []*fakeWaiter
	for _, w := range f.waiters {
		if !w.at.After(t) {
			due = append(due, w)
		}
	}
	slices.SortFunc(due, func(a, b *fakeWaiter) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.id, b.id))
	})
	for _, w := range due {
		select {
		case w.c <- w.at:
			w.sent = time.Now()
			if !slices.Contains(f.fired, w) {
				f.fired = append(f.fired, w)
			}
		default:
		}
		if w.period == 0 {
			delete(f.waiters, w.id)
			continue
		}
		for !w.at.After(t) {
			w.at = w.at.Add(w.period)
		}
	}
	f.now = t
}

// Waiters is how many timers and tickers are waiting to fire.
func (f *Fake) Waiters() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.waiters)
}

// Next is the time the earliest waiting timer or ticker fires, and false
// when none waits.
func (f *Fake) Next() (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var next time.Time
	for _, w := range f.waiters {
		if next.IsZero() || w.at.Before(next) {
			next = w.at
		}
	}
	return next, !next.IsZero()
}

// NextTimer is Next for the timers alone (not the tickers).
func (f *Fake) NextTimer() (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var next time.Time
	for _, w := range f.waiters {
		if w.period == 0 && (next.IsZero() || w.at.Before(next)) {
			next = w.at
		}
	}
	return next, !next.IsZero()
}

// Changes counts the timers and tickers made and stopped so far: a test
// that sees it unchanged over a moment knows no goroutine went to sleep
// on the clock or woke from it by other means meanwhile.
func (f *Fake) Changes() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changes
}

// Unreceived is how many of the timers and tickers that fired since
// the real time since still hold the time they were sent (not taken by a
// receive, not stopped). While one does, a goroutine the clock woke may
// not have run yet; one left for long is more likely abandoned (a select
// that took another case), so a test asks about the recent ones.
func (f *Fake) Unreceived(since time.Time) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pruneFired()
	n := 0
	for _, w := range f.fired {
		if w.sent.After(since) {
			n++
		}
	}
	return n
}

// pruneFired drops the fired waiters whose time was taken. f.mu is held.
func (f *Fake) pruneFired() {
	f.fired = slices.DeleteFunc(f.fired, func(w *fakeWaiter) bool { return w.gone || len(w.c) == 0 })
}

// WaitFor blocks until at least n timers or tickers wait, or the real
// duration within passes; it reports whether they do. Tests use it to
// know a goroutine has gone to sleep on the clock before moving it.
func (f *Fake) WaitFor(n int, within time.Duration) bool {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		ok, changed := len(f.waiters) >= n, f.changed
		f.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-changed:
		case <-deadline.C:
			return false
		}
	}
}

type fakeTimer struct {
	f *Fake
	w *fakeWaiter
}

func (t *fakeTimer) C() <-chan time.Time { return t.w.c }
func (t *fakeTimer) Stop() bool          { return t.f.remove(t.w) }

type fakeTicker struct {
	f *Fake
	w *fakeWaiter
}

func (t *fakeTicker) C() <-chan time.Time { return t.w.c }
func (t *fakeTicker) Stop()               { t.f.remove(t.w) }
