package stream

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/event"
	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/internal/wsread"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestReusedFrameBuffer: the socket readers read every frame into a
// buffer the writer hands back once the frame is folded, and the next
// frame overwrites it. Nothing the store keeps may point into it: frames
// of a busy simulator folded through one reused buffer, scribbled over
// after each fold, give the state that fresh copies give.
func TestReusedFrameBuffer(t *testing.T) {
	underLoad(t)
	rec := &frames{}
	// Busy once live (newBusyFixture), and however long a loaded machine
	// takes to make the frames: this tests the buffer, not the rate.
	f := newBusyFixture(t, sim.Options{Seed: 5, Activity: 5000}, Config{Journal: rec}, false)
	testkit.Eventually(t, 60*time.Second, func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return len(rec.all) >= 1500
	}, "the simulator's frames")
	_ = f.s.Close(t.Context())
	rec.mu.Lock()
	all := rec.all
	rec.mu.Unlock()

	reused := writerOnly(t, "ws://127.0.0.1:1", Config{})
	fresh := writerOnly(t, "ws://127.0.0.1:1", Config{})
	var buf []byte
	for _, fr := range all {
		buf = append(buf[:0], fr...)
		reused.in <- item{frame: buf}
		reused.do(func(*writer) {}) // folded: the reader may reuse buf
		for i := range buf[:cap(buf)] {
			buf[:cap(buf)][i] = 'x'
		}
		fresh.in <- item{frame: append([]byte(nil), fr...)}
	}
	got, want := folded(reused), folded(fresh)
	t.Logf("%d frames; stats %+v", len(all), want.Stats)
	if want.Orders.Len() == 0 || len(want.Fills) == 0 || len(want.Balances) == 0 {
		t.Fatalf("a quiet stream: %d orders, %d fills, %d balances", want.Orders.Len(), len(want.Fills), len(want.Balances))
	}
	if want.Stats.Malformed != 0 || got.Stats != want.Stats {
		t.Errorf("stats %+v, want %+v (nothing malformed)", got.Stats, want.Stats)
	}
	same := func(what string, g, w any) {
		t.Helper()
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s differ after the buffer was reused:\n got %+v\nwant %+v", what, g, w)
		}
	}
	same("orders", got.Orders.Slice(0, got.Orders.Len()), want.Orders.Slice(0, want.Orders.Len()))
	same("fills", got.Fills, want.Fills)
	same("balances", got.Balances, want.Balances)
	same("positions", got.Positions, want.Positions)
	same("account", got.Account, want.Account)
}

// folded is the state s's writer has folded so far (what the hub has may
// be older: publishing is coalesced).
func folded(s *Session) *state.Snapshot {
	var snap *state.Snapshot
	s.do(func(w *writer) { snap = w.store.Snapshot(); w.dirty = true })
	return snap
}

// TestReadMessageReusesBuffer: wsread.Message, the socket readers' read,
// reads a frame into the buffer
// it is given, growing it for a frame larger than its capacity.
func TestReadMessageReusesBuffer(t *testing.T) {
	small, big := []byte(`{"e":"x"}`), make([]byte, 100<<10)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	url := wsPeer(t, func(ws *websocket.Conn) {
		_ = ws.WriteMessage(websocket.TextMessage, small)
		_ = ws.WriteMessage(websocket.TextMessage, big)
		_ = ws.WriteMessage(websocket.TextMessage, small)
	})
	s := writerOnly(t, url, Config{})
	c, err := s.dial(t.Context(), "k")
	if err != nil {
		t.Fatal(err)
	}
	defer c.ws.Close()
	buf := make([]byte, 0, 64)
	for i, want := range [][]byte{small, big, small} {
		typ, data, err := wsread.Message(c.ws, buf)
		if err != nil || typ != websocket.TextMessage || string(data) != string(want) {
			t.Fatalf("frame %d: type %d, %d bytes, %v; want text, %d bytes", i, typ, len(data), err, len(want))
		}
		if cap(buf) >= len(want) && &data[0] != &buf[:1][0] {
			t.Errorf("frame %d: a new buffer although %d bytes fit in %d", i, len(want), cap(buf))
		}
		buf = data[:0]
	}
}

// TestPublishCoalescing: on the writer's clock (times passed in), with
// no reader subscribed the writer publishes at most every PublishIdle
// while frames arrive; a reader that waits for a notice is published to
// at once (no more often than the publish gap); readers that still hold
// a notice get one every PublishEvery; and a reader that subscribes
// makes the writer publish at once and tick at PublishEvery.
func TestPublishCoalescing(t *testing.T) {
	const every, idle = 50 * time.Millisecond, time.Second
	s := writerByHand(t, Config{PublishEvery: every, PublishIdle: idle, Clock: clock.NewFake(time.Now())})
	w := &writer{s: s, store: s.store, journalOK: true}
	frame := execFrame(1)
	t0 := time.Unix(1700000000, 0)
	published := func() int64 { return int64(s.hub.Latest().Version) }
	// frames every 10 ms from t0 to t0+ms (inclusive); publishes made.
	run := func(from, ms int) int64 {
		before := published()
		for i := from; i <= ms; i += 10 {
			w.onItem(item{frame: frame}, t0.Add(time.Duration(i)*time.Millisecond))
		}
		return published() - before
	}

	if n := run(0, 990); n != 1 {
		t.Errorf("no reader, frames for 1s: %d publishes, want 1 (the first)", n)
	}
	if d := w.tickEvery(); d != idle {
		t.Errorf("no reader, changes pending: tick %v, want %v", d, idle)
	}
	if n := run(1000, 1000); n != 1 {
		t.Errorf("no reader, a frame 1s after the publish: %d publishes, want 1", n)
	}

	joined := s.hub.Joined()
	notice, unsub := s.hub.Subscribe()
	defer unsub()
	select {
	case <-joined:
	default:
		t.Fatal("Subscribe made no Joined notice")
	}
	w.noteChanges(true)
	if d := w.tickEvery(); d != idleTick {
		t.Errorf("a reader, nothing pending: tick %v, want %v", d, idleTick)
	}
	// The reader holds the notice of the last publish: busy pace.
	s.hub.Publish(s.hub.Latest())
	if n := run(1010, 1990); n != 19 {
		t.Errorf("a reader holding a notice, frames for 1s: %d publishes, want 19 (every %v)", n, every)
	}
	if d := w.tickEvery(); d != every {
		t.Errorf("a reader, changes pending: tick %v, want %v", d, every)
	}
	// The reader waits: every frame is published (10 ms > the 5 ms gap).
	for i := 2000; i <= 2100; i += 10 {
		select {
		case <-notice:
		default:
		}
		if n := run(i, i); n != 1 {
			t.Fatalf("a waiting reader, frame at +%dms: %d publishes, want 1", i, n)
		}
	}
	// Unsubscribed again: back to the idle pace.
	unsub()
	if n := run(2110, 3090); n != 0 {
		t.Errorf("no reader after one left, frames for 1s: %d publishes, want 0", n)
	}
	if n := run(3100, 3100); n != 1 {
		t.Errorf("no reader, a frame 1s after the last publish: %d publishes, want 1", n)
	}
}

// writerByHand is a session whose writer goroutine never runs: the test
// drives a writer by hand, at the times it chooses.
func writerByHand(t *testing.T, cfg Config) *Session {
	t.Helper()
	cfg.REST, cfg.WSURL = rest.New("http://127.0.0.1:1"), "ws://127.0.0.1:1"
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

// execFrame is one executionReport frame of order n.
func execFrame(n int) []byte {
	r := event.ExecutionReport{EventTime: 1700000000000 + int64(n), Symbol: "ETHBTC", ClientOrderID: "c1",
		Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1", Price: "0.05", Status: "NEW",
		OrderID: "1000001", LastQty: "0", CumQty: "0", LastPrice: "0", Commission: "0", Working: true,
		Created: 1700000000000, CumQuote: "0"}
	return event.AppendExecution(nil, &r, event.EncodeOptions{})
}

// TestLiveIsPublished: a reader hears at once that the session went live.
// With the writer's publishing slowed to an hour, the only snapshots
// after the one for the new subscriber are those the session publishes
// of itself: going live must be one of them, with the status live and the
// snapshot's balances, so a dashboard's first live frame waits for no
// tick.
func TestLiveIsPublished(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	s, err := New(Config{REST: srv.Client(), WSURL: srv.WSURL(), PublishEvery: time.Hour, PublishIdle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	notice, unsub := s.Hub().Subscribe()
	defer unsub()
	testkit.Started(t, s, nil)
	deadline := time.After(10 * time.Second)
	for {
		select {
		case <-notice:
			if s.Status().State == StateLive && len(s.Hub().Latest().Balances) > 0 {
				return
			}
		case <-deadline:
			t.Fatalf("no notice with the session live within 10s; status %+v", s.Status())
		}
	}
}
