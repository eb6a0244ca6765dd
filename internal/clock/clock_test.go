package clock

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func TestFakeTimerFiresWhenDue(t *testing.T) {
	f := NewFake(t0)
	tm := f.NewTimer(time.Minute)
	f.Advance(59 * time.Second)
	select {
	case <-tm.C():
		t.Fatal("timer fired 1s early")
	default:
	}
	f.Advance(time.Second)
	select {
	case at := <-tm.C():
		if !at.Equal(t0.Add(time.Minute)) {
			t.Errorf("fired with %v, want %v", at, t0.Add(time.Minute))
		}
	default:
		t.Fatal("timer did not fire when due")
	}
	if tm.Stop() {
		t.Error("Stop of a fired timer = true, want false")
	}
	if n := f.Waiters(); n != 0 {
		t.Errorf("waiters after the timer fired = %d, want 0", n)
	}
}

func TestFakeTimerStopped(t *testing.T) {
	f := NewFake(t0)
	tm := f.NewTimer(time.Second)
	if !tm.Stop() {
		t.Fatal("Stop of a waiting timer = false")
	}
	f.Advance(time.Hour)
	select {
	case <-tm.C():
		t.Fatal("a stopped timer fired")
	default:
	}
}

func TestFakeZeroTimerFiresAtOnce(t *testing.T) {
	f := NewFake(t0)
	select {
	case <-f.NewTimer(0).C():
	default:
		t.Fatal("a zero timer did not fire at once")
	}
}

func TestFakeTickerDropsMissedTicks(t *testing.T) {
	f := NewFake(t0)
	tk := f.NewTicker(10 * time.Second)
	defer tk.Stop()
	f.Advance(35 * time.Second) // three periods pass: one tick kept
	select {
	case <-tk.C():
	default:
		t.Fatal("no tick queued after three periods")
	}
	select {
	case <-tk.C():
		t.Fatal("more than one tick queued")
	default:
	}
	f.Advance(5 * time.Second) // t0+40s: the next period
	select {
	case at := <-tk.C():
		if !at.Equal(t0.Add(40 * time.Second)) {
			t.Errorf("tick at %v, want t0+40s", at.Sub(t0))
		}
	default:
		t.Fatal("ticker did not fire at the next period")
	}
}

func TestFakeWaitFor(t *testing.T) {
	f := NewFake(t0)
	go func() { Sleep(f, nil, time.Minute) }()
	if !f.WaitFor(1, 5*time.Second) {
		t.Fatal("the sleeper's timer never appeared")
	}
	if next, ok := f.Next(); !ok || !next.Equal(t0.Add(time.Minute)) {
		t.Errorf("Next = %v %v, want t0+1m", next, ok)
	}
	if f.WaitFor(2, 10*time.Millisecond) {
		t.Error("WaitFor(2) = true with one waiter")
	}
}

func TestSleepEndsWithDone(t *testing.T) {
	f := NewFake(t0)
	done := make(chan struct{})
	close(done)
	if Sleep(f, done, time.Hour) {
		t.Error("Sleep = true with done closed")
	}
	if !Sleep(f, nil, 0) {
		t.Error("Sleep(0) = false")
	}
}

func TestRealClock(t *testing.T) {
	c := Or(nil)
	if d := time.Since(c.Now()); d < 0 || d > time.Minute {
		t.Errorf("Real().Now() is %v from time.Now", d)
	}
	if !Sleep(c, nil, time.Millisecond) {
		t.Error("Sleep on the real clock = false")
	}
	tk := c.NewTicker(time.Millisecond)
	select { // (testkit.Recv imports this package)
	case <-tk.C():
	case <-time.After(10 * time.Second):
		t.Fatal("the real clock's 1 ms ticker did not tick within 10s")
	}
	tk.Stop()
}

// TestFakeSettling: what a test asks the clock to know whether the code
// on it has settled: the next timer (tickers aside), the times sent and
// not yet taken, and a count that moves when a timer or ticker is made
// or stopped.
func TestFakeSettling(t *testing.T) {
	f := NewFake(t0)
	if _, ok := f.NextTimer(); ok {
		t.Error("NextTimer on a clock with nothing waiting: ok")
	}
	changes := f.Changes()
	tk := f.NewTicker(time.Second)
	tm := f.NewTimer(3 * time.Second)
	f.NewTimer(5 * time.Second)
	if got := f.Changes(); got != changes+3 {
		t.Errorf("Changes after three made = %d, want %d", got, changes+3)
	}
	if next, ok := f.NextTimer(); !ok || !next.Equal(t0.Add(3*time.Second)) {
		t.Errorf("NextTimer = %v, %v; want the 3 s timer's moment (the ticker is due before)", next, ok)
	}
	since := time.Now().Add(-time.Millisecond)
	if n := f.Unreceived(since); n != 0 {
		t.Errorf("Unreceived before any fired = %d", n)
	}
	f.Advance(3 * time.Second) // the ticker once, the 3 s timer
	if n := f.Unreceived(since); n != 2 {
		t.Errorf("Unreceived with a tick and a timer untaken = %d, want 2", n)
	}
	if n := f.Unreceived(time.Now().Add(time.Hour)); n != 0 {
		t.Errorf("Unreceived of those sent after a later moment = %d, want 0 (they are older)", n)
	}
	<-tm.C()
	if n := f.Unreceived(since); n != 1 {
		t.Errorf("Unreceived with the timer taken = %d, want 1", n)
	}
	changes = f.Changes()
	tk.Stop()
	if n := f.Unreceived(since); n != 0 {
		t.Errorf("Unreceived with the ticker stopped = %d, want 0", n)
	}
	if got := f.Changes(); got != changes+1 {
		t.Errorf("Changes after a Stop = %d, want %d", got, changes+1)
	}
}
