package testkit

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"runtime"
	"testing"
	"time"

	"bhtop/internal/clock"
)

func TestRequestLog(t *testing.T) {
	var l RequestLog
	_, _ = io.WriteString(&l, `{"time":1,"method":"GET","path":"/openapi/v1/account","query":"a=1&timestamp=2","apiKey":true,"status":200}`+"\n")
	_, _ = io.WriteString(&l, `{"time":2,"method":"POST","path":"/openapi/v1/order","status":400,"code":-2010}`+"\n")
	es := l.Entries(t)
	if len(es) != 2 || !es[0].APIKey || es[0].Query != "a=1&timestamp=2" || es[1].Code == nil || *es[1].Code != -2010 {
		t.Fatalf("Entries = %+v, want both lines with their fields", es)
	}
	if l.Count("GET", "/openapi/v1/account") != 1 || l.Count("GET", "/openapi/v1/order") != 0 {
		t.Error("Count does not match method and path")
	}
	if !l.Has("GET", "/openapi/v1/account", "a=1") || l.Has("GET", "/openapi/v1/account", "b=2") {
		t.Error("Has does not look into the query")
	}
}

func TestWithinAndAdvancing(t *testing.T) {
	if Within(20*time.Millisecond, func() bool { return false }) {
		t.Error("Within = true for a condition that never holds")
	}
	n := 0
	if !Within(time.Second, func() bool { n++; return n == 3 }) {
		t.Error("Within = false for a condition that holds on the third look")
	}
	clk := clock.NewFake(time.Unix(0, 0))
	if !Advancing(clk, time.Minute, time.Second, func() bool { return clk.Now().Sub(time.Unix(0, 0)) >= 5*time.Minute }) {
		t.Error("Advancing did not move the clock")
	}
}

// TestInflightAdvancingLandsOnTimers: moving a second at a time, the
// clock stops at the very moment a goroutine's timer is due (a client
// sleeping 2.5 s sends at 2.5 s, not at 3 s), and the goroutine it woke
// runs before the clock moves on.
func TestInflightAdvancingLandsOnTimers(t *testing.T) {
	got := sleeperWokeAt(t, 0, 2500*time.Millisecond, 10*time.Millisecond, 0, time.Second)
	want := []time.Duration{2500 * time.Millisecond, 2510 * time.Millisecond, 2510 * time.Millisecond, 3510 * time.Millisecond}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("woke at %v, want %v", got, want)
	}
}

// TestInflightAdvancingWaitsForWork: a goroutine the clock woke that
// works a while (decoding an answer, under load or the race detector)
// before it sleeps on the clock again has not settled: the clock waits
// for its next timer rather than move a step on first (it moved after
// 2 ms of no timer made, and the sleeper's next sleep began a step late).
func TestInflightAdvancingWaitsForWork(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("the worker and the test run side by side")
	}
	got := sleeperWokeAt(t, 20*Quiet, 1500*time.Millisecond, 1500*time.Millisecond)
	want := []time.Duration{1500 * time.Millisecond, 3000 * time.Millisecond}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("woke at %v, want %v", got, want)
	}
}

// sleeperWokeAt runs a goroutine that sleeps each of sleeps on a fake
// clock, working (real time, busy) work after each, while Inflight's
// Advancing moves the clock a second at a time; it returns when the
// goroutine woke, from the clock's start.
func sleeperWokeAt(t *testing.T, work time.Duration, sleeps ...time.Duration) []time.Duration {
	t.Helper()
	t0 := time.Unix(0, 0)
	clk := clock.NewFake(t0)
	var f Inflight
	woke := make(chan time.Time, len(sleeps))
	go func() {
		for _, d := range sleeps {
			clock.Sleep(clk, nil, d)
			woke <- clk.Now()
			for end := time.Now().Add(work); time.Now().Before(end); { // at work
			}
		}
		close(woke)
	}()
	var got []time.Duration
	if !f.Advancing(clk, time.Second, 5*time.Second, func() bool {
		select {
		case at, ok := <-woke:
			if !ok {
				return true
			}
			got = append(got, at.Sub(t0))
		default:
		}
		return false
	}) {
		t.Fatalf("the sleeper did not finish (clock at %s, woke at %v)", clk.Now().Sub(t0), got)
	}
	return got
}

// TestInflightAdvancingWhileBusy: code that never stops making and
// stopping timers does not hold the clock still.
func TestInflightAdvancingWhileBusy(t *testing.T) {
	t0 := time.Unix(0, 0)
	clk := clock.NewFake(t0)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			default:
				clk.NewTimer(time.Hour).Stop()
				runtime.Gosched()
			}
		}
	}()
	var f Inflight
	if !f.Advancing(clk, time.Second, 5*time.Second, func() bool { return clk.Now().Sub(t0) >= 3*time.Second }) {
		t.Errorf("the clock stood at %s beside busy code", clk.Now().Sub(t0))
	}
}

// TestProxyPause: paused, the relay passes nothing either way while the
// connection stays open; resumed, what was held arrives.
func TestProxyPause(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // an echo server
		c, err := ln.Accept()
		if err == nil {
			_, _ = io.Copy(c, c)
			c.Close()
		}
	}()
	p := NewProxy(t, ln.Addr().String())
	c, err := net.Dial("tcp", p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
	echo := func(s string, within time.Duration) (string, error) {
		_ = c.SetReadDeadline(time.Now().Add(within))
		if _, err := io.WriteString(c, s); err != nil {
			return "", err
		}
		return r.ReadString('\n')
	}
	if got, err := echo("one\n", 5*time.Second); err != nil || got != "one\n" {
		t.Fatalf("echo through the relay = %q, %v", got, err)
	}
	p.Pause()
	if got, err := echo("two\n", 100*time.Millisecond); err == nil {
		t.Fatalf("a paused relay passed %q", got)
	}
	p.Resume()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if got, err := r.ReadString('\n'); err != nil || got != "two\n" {
		t.Fatalf("after Resume = %q, %v; want the held line", got, err)
	}
}

// fatalTB records a Fatalf and ends its goroutine, as a test's does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestRecv(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 7
	if got := Recv(t, ch, time.Second, "no value"); got != 7 {
		t.Errorf("Recv = %d, want 7", got)
	}
	close(ch)
	if got := Recv(t, ch, time.Second, "no value"); got != 0 {
		t.Errorf("Recv of a closed channel = %d, want 0", got)
	}
	f := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Recv(f, make(chan int), 5*time.Millisecond, "no %s came", "reply")
	}()
	Recv(t, done, 5*time.Second, "Recv of a silent channel neither returned nor failed")
	if f.msg != "after 5ms: no reply came" {
		t.Errorf("Recv of a silent channel failed with %q, want the deadline and the message", f.msg)
	}
}
