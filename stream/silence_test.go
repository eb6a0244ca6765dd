package stream

import (
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestDeadConnectionDetected: a peer that keeps the socket open but never
// sends nor answers pings is declared dead PongWait after a ping, counted
// as an error, with the reason kept for the header.
func TestDeadConnectionDetected(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	peer := wsPeer(t, func(*websocket.Conn) {
		<-release // never reads, so never answers a ping
	})
	defer close(release)

	clk := clock.NewFake(time.Now())
	s := writerOnly(t, peer, Config{Clock: clk, PingEvery: 20 * time.Second, PongWait: 10 * time.Second})
	c := connect(t, s)
	if !clk.WaitFor(1, 5*time.Second) {
		t.Fatal("the pinger never started its ticker")
	}
	clk.Advance(20 * time.Second) // the ping goes out
	if !clk.WaitFor(2, 5*time.Second) {
		t.Fatal("no answer timer after the ping")
	}
	clk.Advance(9 * time.Second)
	select {
	case <-c.done:
		t.Fatal("declared dead before PongWait passed")
	case <-time.After(20 * time.Millisecond):
	}
	clk.Advance(time.Second)
	select {
	case <-c.done:
	case <-time.After(5 * time.Second):
		t.Fatal("a silent peer was not declared dead PongWait after a ping")
	}
	if c.serverClosed || !strings.Contains(c.endReason, "no answer from the service for 30s") {
		t.Errorf("serverClosed %v, endReason %q; want false, the silence said", c.serverClosed, c.endReason)
	}
	if st := s.Status(); st.Errors != 1 || !strings.Contains(st.LastError, "stream silent") {
		t.Errorf("Errors %d, LastError %q; want the silence counted and said", st.Errors, st.LastError)
	}
}

// TestFrozenUpstreamNoticed (issue 15 item 5): the exchange stops
// answering (a paused relay: sockets open, no byte either way, as with a
// SIGSTOPped process). Within the ping interval and its answer wait the
// session stops saying live (the panes are marked stale), says why and
// counts the error; each failed reconnect is counted and said too; and
// when the exchange answers again it goes live by itself.
func TestFrozenUpstreamNoticed(t *testing.T) {
	t.Parallel()
	srv, clk := simtest.StartOnClock(t, sim.Options{})
	relay := testkit.NewProxy(t, strings.TrimPrefix(srv.URL(), "http://"))
	c := rest.New("http://"+relay.Addr(), rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()),
		rest.WithClock(clk.Now), rest.WithTimeout(150*time.Millisecond))
	s, err := New(Config{REST: c, WSURL: "ws://" + relay.Addr(), Simulated: true, Clock: clk,
		Dialer: &websocket.Dialer{HandshakeTimeout: 150 * time.Millisecond}})
	testkit.Started(t, s, err)
	// Under load a start request can outlast the 150 ms timeout; the
	// retry then waits its backoff on clk, which only the test moves:
	// while the session says it waits to retry, the clock goes to the
	// next thing due.
	if !testkit.Within(testkit.LiveWithin, func() bool {
		st := s.Status()
		if st.State == StateLive {
			return true
		}
		if next, ok := clk.Next(); ok && !st.RetryAt.IsZero() {
			clk.Set(next)
		}
		return false
	}) {
		t.Fatalf("session not live within %s: %s (%s)", testkit.LiveWithin, s.Status().State, s.Status().LastError)
	}

	relay.Pause()
	frozen := clk.Now()
	// Nothing falls due before the first ping, PingEvery after the socket
	// opened (the clock has stood still since): the clock jumps to a
	// second before it, then steps a second at a time.
	clk.Advance(19 * time.Second)
	notLive := func() bool { return s.Status().State != StateLive }
	if !testkit.Advancing(clk, time.Second, 5*time.Second, notLive) {
		t.Fatalf("still live %s after the exchange froze", clk.Now().Sub(frozen))
	}
	// PingEvery 20s (default) plus PongWait 10s, one step of slack.
	if el := clk.Now().Sub(frozen); el > 31*time.Second {
		t.Errorf("silence noticed after %s, want within the ping interval and its answer wait (30s)", el)
	}
	st := s.Status()
	if st.State != StateReconnecting || !strings.Contains(st.Reason, "no answer from the service") {
		t.Errorf("Status = %s (%q), want reconnecting because the service is silent", st.State, st.Reason)
	}
	if st.Errors < 1 || !strings.Contains(st.LastError, "stream silent") {
		t.Errorf("Errors %d, LastError %q; want the silence counted and said", st.Errors, st.LastError)
	}

	// Reconnecting into the frozen exchange fails; each failure counts and
	// the header keeps a reason at every moment, "connecting" included.
	errs := st.Errors
	testkit.EventuallyAdvancing(t, clk, 500*time.Millisecond, 5*time.Second, func() bool {
		st = s.Status()
		if st.Reason == "" {
			t.Errorf("state %s with no reason while the exchange is frozen", st.State)
		}
		return st.Errors >= errs+2 && strings.Contains(st.Reason, "connect failed")
	}, "two failed reconnects counted with their reason")

	relay.Resume()
	live := func() bool { return s.Status().State == StateLive }
	testkit.EventuallyAdvancing(t, clk, 500*time.Millisecond, 5*time.Second, live, "live again once the exchange answers")
	if st := s.Status(); st.Reason != "" {
		t.Errorf("Reason %q once live, want none", st.Reason)
	}
}

// TestSilenceAfterBurstReplacesOnce: a stream that was busy right up to
// a silence of QuietActive is suspicious and its connection is replaced;
// the new connection, resynced and then just as quiet, is not replaced
// again for the same old burst (a quiet account used to reconnect every
// QuietActive for ever); QuietMax still applies to it.
func TestSilenceAfterBurstReplacesOnce(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Now())
	s := writerOnly(t, "ws://127.0.0.1:1", Config{Clock: clk, QuietActive: 2 * time.Minute, QuietMax: 30 * time.Minute})
	first := &conn{opened: clk.Now()}
	clk.Advance(10 * time.Second)
	s.lastEvent.Store(clk.Now().UnixNano()) // the last event of a burst
	s.lastBusy.Store(clk.Now().UnixNano())
	clk.Advance(2 * time.Minute)
	if why := s.replaceReason(first); !strings.Contains(why, "while the account is active") {
		t.Fatalf("replaceReason after a burst and 2m of silence = %q, want the silence suspicious", why)
	}
	second := &conn{opened: clk.Now()}
	for range 14 {
		clk.Advance(2 * time.Minute)
		if why := s.replaceReason(second); why != "" {
			t.Fatalf("the replacement, quiet for %s, is replaced again: %q", clk.Now().Sub(second.opened), why)
		}
	}
	clk.Advance(2 * time.Minute)
	if why := s.replaceReason(second); !strings.Contains(why, "no event for 30m") {
		t.Errorf("replaceReason after 30m of silence = %q, want QuietMax to apply", why)
	}
}

// TestOneTradeBurstIsNotBusy: a single trade on a quiet account (three
// events within a second, then nothing) never makes its silence
// suspicious, so the socket is not replaced QuietActive later; a stream
// that kept at least one event a second for busySustained and then went
// silent still is.
func TestOneTradeBurstIsNotBusy(t *testing.T) {
	t.Parallel()
	clk := clock.NewFake(time.Now())
	s := writerOnly(t, "ws://127.0.0.1:1", Config{Clock: clk, QuietActive: 2 * time.Minute, QuietMax: 30 * time.Minute})
	w := &writer{s: s}
	c := &conn{opened: clk.Now()}
	step := func(rate float64) {
		from := clk.Now()
		clk.Advance(time.Second)
		if rate > 0 {
			s.lastEvent.Store(clk.Now().UnixNano())
		}
		w.noteRate(rate, from, clk.Now())
	}
	// After each run of measured rates, 2 minutes of silence.
	for _, tc := range []struct {
		what    string
		rates   []float64
		replace bool
	}{
		{"one trade's burst", []float64{0, 3, 0}, false}, // ack, NEW and FILLED reports, balance
		// a bot trading every few seconds: no sustained rate either
		{"separate bursts", []float64{4, 0, 4, 0, 4, 0, 4, 0, 4, 0}, false},
		{"6s at 2 events/s", []float64{2, 2, 2, 2, 2, 2}, true},
	} {
		for _, r := range tc.rates {
			step(r)
		}
		clk.Advance(2 * time.Minute)
		why := s.replaceReason(c)
		if got := strings.Contains(why, "while the account is active"); got != tc.replace {
			t.Fatalf("replaceReason 2m after %s = %q, want replaced %v", tc.what, why, tc.replace)
		}
	}
}
