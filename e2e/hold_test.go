package e2e

import (
	"net/http"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// holdingFront puts a front before s's REST address that never answers
// the requests of holds ("METHOD /path", until the test ends), each one
// held sending on held[i] (buffered n) for holds[i]; everything else goes
// through. env is s's credentials with the front as the base URL (the
// WebSocket goes to s).
func holdingFront(t *testing.T, s *simProc, n int, holds ...string) (env []string, held []<-chan struct{}) {
	t.Helper()
	hits := make([]chan struct{}, len(holds))
	for i := range hits {
		hits[i] = make(chan struct{}, n)
		held = append(held, hits[i])
	}
	stop := make(chan struct{})
	front := testkit.Front(t, s.BaseURL, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		for i, h := range holds {
			if h != r.Method+" "+r.URL.Path {
				continue
			}
			hits[i] <- struct{}{}
			select { // the service never answers it
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		next.ServeHTTP(w, r)
	})
	t.Cleanup(func() { close(stop) })                                                     // before the front's own cleanup: the handlers return
	return append(credentials(s), "BHTOP_BASE_URL="+front, "BHTOP_WS_URL="+s.WSURL), held // the later BHTOP_BASE_URL wins
}

// quitUntilDelete presses q and waits for the shutdown's DELETE of the
// listenKey, held by a holdingFront that sends on deleting.
func (tm *term) quitUntilDelete(deleting <-chan struct{}) {
	tm.t.Helper()
	// A key the stream retired while live (a reconnect under load) is
	// DELETEd too: only a DELETE after q is the shutdown's.
	for len(deleting) > 0 {
		<-deleting
	}
	tm.keys("q")
	select {
	case <-deleting:
	case <-time.After(10 * time.Second):
		tm.t.Fatalf("no DELETE of the listenKey after q; screen:\n%s", tm.Screen())
	}
}
