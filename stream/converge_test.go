package stream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/rest"
	"bhtop/sim"
)

// TestConvergesToTruthUnderFaults is the contract test of the stream: a
// busy account (500 events/s) delivered out of order, duplicated, in array
// frames with optional fields, over connections dropped every 2.5s. After
// the activity stops and the stream settles, the folded state equals the
// simulator's REST truth: no lost order, no phantom, balances equal.
func TestConvergesToTruthUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs ~10s")
	}
	f := newFixture(t, sim.Options{
		Seed:     7,
		Activity: 500,
		Faults: sim.Faults{
			ReorderWindow:  40 * time.Millisecond,
			DuplicateRate:  0.05,
			ArrayFrames:    true,
			OptionalFields: true,
			DropEvery:      2500 * time.Millisecond,
		},
	}, Config{BackoffBase: 200 * time.Millisecond}, false)
	time.Sleep(8 * time.Second)
	f.srv.SetActivity(0)

	var diff string
	ok := eventually(4*time.Second, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var err error
		diff, err = truthDiff(ctx, f.rest, f.s.Hub().Latest())
		return err == nil && diff == ""
	})
	snap := f.s.Hub().Latest()
	t.Logf("events %d applied %d stale %d malformed %d; orders %d; reconnects %d",
		snap.Stats.Events, snap.Stats.Applied, snap.Stats.Stale, snap.Stats.Malformed,
		len(snap.Orders), f.s.Status().Connects-1)
	if !ok {
		t.Fatalf("state differs from the REST truth:\n%s", diff)
	}
	if snap.Stats.Events < 2000 {
		t.Errorf("events = %d, want a busy stream (>= 2000)", snap.Stats.Events)
	}
	if snap.Stats.Malformed != 0 {
		t.Errorf("malformed = %d, want 0", snap.Stats.Malformed)
	}
	if f.s.Status().Connects < 3 {
		t.Errorf("connections = %d, want >= 3 (drops every 2.5s)", f.s.Status().Connects)
	}
}

// TestStalledReaderDoesNotBlockIngest: a Hub subscriber that never reads
// must not slow the writer (or, through it, the socket reader).
func TestStalledReaderDoesNotBlockIngest(t *testing.T) {
	f := newFixture(t, sim.Options{Activity: 2000}, Config{}, false)
	_, stop := f.s.Hub().Subscribe() // never read
	defer stop()
	first := f.s.Hub().Latest().Stats.Events
	time.Sleep(1500 * time.Millisecond)
	got := f.s.Hub().Latest().Stats.Events - first
	if got < 1000 {
		t.Errorf("events folded in 1.5s with a stalled subscriber = %d, want >= 1000", got)
	}
	if n := f.s.Status().Connects; n != 1 {
		t.Errorf("connections = %d, want 1 (the socket was never cut for being slow)", n)
	}
}

// TestJSONPingAnsweredExactly: {"ping": N} is answered {"pong": N} with N's
// bytes as received (here beyond 2^64), and binary frames count as
// malformed. The peer is a bare WebSocket server speaking the protocol.
func TestJSONPingAnsweredExactly(t *testing.T) {
	const n = `123456789012345678901234567890`
	got := make(chan string, 1)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		_ = ws.WriteMessage(websocket.BinaryMessage, []byte(`{"e":"x"}`))
		_ = ws.WriteMessage(websocket.TextMessage, []byte(`{"ping": `+n+`}`))
		_, msg, err := ws.ReadMessage()
		if err == nil {
			got <- string(msg)
		}
		_, _, _ = ws.ReadMessage()
	}))
	defer ts.Close()

	s, err := New(Config{REST: rest.New("http://127.0.0.1:1"), WSURL: "ws" + ts.URL[len("http"):]})
	if err != nil {
		t.Fatal(err)
	}
	s.startOnce.Do(func() { go s.runWriter(s.stopWriter) }) // the writer only: no REST here
	c, err := s.dial(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	s.startConn(c)
	select {
	case msg := <-got:
		if want := `{"pong":` + n + `}`; msg != want {
			t.Errorf("answer to a JSON ping = %s, want %s", msg, want)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no answer to a JSON ping")
	}
	c.close("test over")
	_ = s.Close(context.Background())
	if m := s.Hub().Latest().Stats.Malformed; m != 1 {
		t.Errorf("malformed after one binary frame = %d, want 1", m)
	}
}

// TestDeadConnectionDetected: a peer that keeps the socket open but never
// sends nor answers pings is declared dead after ReadTimeout.
func TestDeadConnectionDetected(t *testing.T) {
	release := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		<-release // never reads, so never answers a ping
	}))
	defer ts.Close()
	defer close(release)

	s, err := New(Config{REST: rest.New("http://127.0.0.1:1"), WSURL: "ws" + ts.URL[len("http"):],
		ReadTimeout: 300 * time.Millisecond, PingEvery: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.startOnce.Do(func() { go s.runWriter(s.stopWriter) })
	defer s.Close(context.Background())
	c, err := s.dial(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	s.startConn(c)
	select {
	case <-c.done:
		if el := time.Since(began); el < 250*time.Millisecond {
			t.Errorf("declared dead after %v, want about ReadTimeout (300ms)", el)
		}
		if c.serverClosed {
			t.Error("a dead connection was taken for a close frame")
		}
	case <-time.After(3 * time.Second):
		t.Fatal("a silent peer was not declared dead within 3s (ReadTimeout 300ms)")
	}
}
