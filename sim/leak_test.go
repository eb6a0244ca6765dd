package sim

import (
	"net/http"
	"runtime"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestCloseEndsEveryGoroutine: after Close, no goroutine of the
// simulator is left: market, activity, HTTP server, and each user-stream
// connection still open (the client never closed it).
func TestCloseEndsEveryGoroutine(t *testing.T) {
	http.DefaultClient.CloseIdleConnections()
	before := runtime.NumGoroutine()
	s := New(Options{MarketInterval: 10 * time.Millisecond, Activity: 200, PingInterval: 50 * time.Millisecond})
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ws := dialStream(t, s, newListenKey(t, s))
		if _, err := readUntil(ws, 5*time.Second, func([]byte) bool { return true }); err != nil {
			t.Fatalf("no frame: %v", err)
		}
		_ = ws.SetReadDeadline(time.Time{})
		go func() { // reads (and so answers the close) until the socket ends
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}()
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	http.DefaultClient.CloseIdleConnections()
	// The test's readers end with their sockets, so the count must come
	// back to where it was.
	testkit.Within(5*time.Second, func() bool { return runtime.NumGoroutine() <= before })
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
