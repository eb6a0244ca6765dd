package sim

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a request log that tests can read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, l := range bytes.Split(s.b.Bytes(), []byte("\n")) {
		var m map[string]any
		if json.Unmarshal(l, &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

// TestRequestLogShowsStreamConnect: a user-stream connection is logged
// when it opens (status 101, stamped with the time of the handshake), not
// only when it ends, which may be hours later.
func TestRequestLogShowsStreamConnect(t *testing.T) {
	log := &syncBuffer{}
	clock := newClock(1_700_000_000_000)
	s := start(t, Options{RequestLog: log, Now: clock.Now})
	key := newListenKey(t, s)
	ws := dialStream(t, s, key)
	opened := clock.Now().UnixMilli()
	deadline := time.Now().Add(5 * time.Second)
	for {
		for _, l := range log.lines() {
			if l["path"] == "/openapi/ws/"+key {
				if l["status"] != float64(101) || l["time"] != float64(opened) {
					t.Errorf("stream connect logged as %v, want status 101 at %d", l, opened)
				}
				clock.Add(time.Hour)
				ws.Close()
				if err := s.Close(); err != nil { // waits for the connection's end
					t.Fatal(err)
				}
				n := 0
				for _, l := range log.lines() {
					if l["path"] == "/openapi/ws/"+key {
						n++
					}
				}
				if n != 1 {
					t.Errorf("stream connection logged %d times, want once", n)
				}
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no request-log line for the open stream connection; log: %v", log.lines())
		}
		time.Sleep(10 * time.Millisecond) // polls the log
	}
}
