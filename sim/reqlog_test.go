package sim

import (
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestRequestLogShowsStreamConnect: a user-stream connection is logged
// when it opens (status 101, stamped with the time of the handshake), not
// only when it ends, which may be hours later.
func TestRequestLogShowsStreamConnect(t *testing.T) {
	log := &testkit.RequestLog{}
	clock := newClock(1_700_000_000_000)
	s := start(t, Options{RequestLog: log, Now: clock.Now})
	key := newListenKey(t, s)
	ws := dialStream(t, s, key)
	opened := clock.Now().UnixMilli()
	isStream := func(e testkit.Entry) bool { return e.Path == "/openapi/ws/"+key }
	testkit.Eventually(t, 5*time.Second, func() bool { return log.CountFunc(isStream) > 0 },
		"a request-log line for the open stream connection")
	for _, e := range log.Entries(t) {
		if isStream(e) && (e.Status != 101 || e.Time != opened) {
			t.Errorf("stream connect logged as %+v, want status 101 at %d", e, opened)
		}
	}
	clock.Add(time.Hour)
	ws.Close()
	if err := s.Close(); err != nil { // waits for the connection's end
		t.Fatal(err)
	}
	if n := log.CountFunc(isStream); n != 1 {
		t.Errorf("stream connection logged %d times, want once", n)
	}
}
