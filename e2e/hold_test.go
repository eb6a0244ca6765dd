package e2e

import (
	"net/http"
	"testing"

	"bhtop/internal/testkit"
)

// holdingFront puts a front before s's REST address that never answers
// a method path request (until the test ends), each one held sending on
// held (buffered n); everything else goes through. env is s's
// credentials with the front as the base URL (the WebSocket goes to s).
func holdingFront(t *testing.T, s *simProc, method, path string, n int) (env []string, held <-chan struct{}) {
	t.Helper()
	hits, stop := make(chan struct{}, n), make(chan struct{})
	front := testkit.Front(t, s.BaseURL, func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == path && r.Method == method {
			hits <- struct{}{}
			select { // the service never answers it
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		next.ServeHTTP(w, r)
	})
	t.Cleanup(func() { close(stop) })                                                     // before the front's own cleanup: the handlers return
	return append(credentials(s), "BHTOP_BASE_URL="+front, "BHTOP_WS_URL="+s.WSURL), hits // the later BHTOP_BASE_URL wins
}
