package stream

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestConvergesToTruthUnderFaults is the contract test of the stream: a
// busy account (3000 events/s) delivered out of order, duplicated, in array
// frames with optional fields, over connections dropped every 0.4s. After
// the activity stops and the stream settles, the folded state equals the
// simulator's REST truth: no lost order, no phantom, balances equal.
func TestConvergesToTruthUnderFaults(t *testing.T) {
	testkit.Long(t, "runs ~3s")
	t.Parallel() // real time: overlaps the other throughput tests
	f := newFixture(t, sim.Options{
		Seed:     7,
		Activity: 3000,
		Faults: sim.Faults{
			ReorderWindow:  40 * time.Millisecond,
			DuplicateRate:  0.05,
			ArrayFrames:    true,
			OptionalFields: true,
			DropEvery:      400 * time.Millisecond,
		},
	}, Config{BackoffBase: 100 * time.Millisecond}, false)
	time.Sleep(time.Second) // the busy phase: nothing is asserted on time
	f.srv.SetActivity(0)

	f.wantTruth(t, 4*time.Second, 1000)
	if f.s.Status().Connects < 3 {
		t.Errorf("connections = %d, want >= 3 (drops every 0.4s)", f.s.Status().Connects)
	}
}

// TestStalledReaderDoesNotBlockIngest: a Hub subscriber that never reads
// must not slow the writer (or, through it, the socket reader).
func TestStalledReaderDoesNotBlockIngest(t *testing.T) {
	t.Parallel() // real time: overlaps the other throughput tests
	f := newFixture(t, sim.Options{Activity: 2000}, Config{}, false)
	_, stop := f.s.Hub().Subscribe() // never read
	defer stop()
	first := f.s.Hub().Latest().Stats.Events
	// 1000 events at 2000/s: a generous bound, not a timed assertion.
	if !testkit.Within(5*time.Second, func() bool { return f.s.Hub().Latest().Stats.Events-first >= 1000 }) {
		t.Errorf("events folded with a stalled subscriber = %d, want >= 1000", f.s.Hub().Latest().Stats.Events-first)
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
