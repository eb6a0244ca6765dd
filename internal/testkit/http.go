package testkit

import (
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// Reply is an HTTP answer read whole.
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends req with the default client and reads the whole answer,
// failing the test when it cannot be sent or read.
func Do(t testing.TB, req *http.Request) Reply {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: read the answer: %v", req.Method, req.URL.Path, err)
	}
	return Reply{Status: res.StatusCode, Header: res.Header, Body: b}
}

// HoldFirst is a transport that keeps the first request to Path from
// leaving until Release is closed (a slow answer: the request is in
// flight), and says so by closing Held. Make one with NewHoldFirst.
type HoldFirst struct {
	Path          string
	Held, Release chan struct{}
	once          sync.Once
}

// NewHoldFirst holds the first request to path.
func NewHoldFirst(path string) *HoldFirst {
	return &HoldFirst{Path: path, Held: make(chan struct{}), Release: make(chan struct{})}
}

// RoundTrip sends r with http.DefaultTransport, the first to Path once
// Release is closed.
func (h *HoldFirst) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == h.Path {
		first := false
		h.once.Do(func() { first = true })
		if first {
			close(h.Held)
			<-h.Release
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Front serves, on 127.0.0.1 until the test ends, a reverse proxy to the
// base URL target through handle, and returns its own base URL. handle
// answers a request itself or passes it on with next.ServeHTTP(w, r),
// acting before and after as the test needs: a path refused, an answer
// slow or failing, a request seen. The proxy's own errors (a client
// gone mid-answer) are not logged.
func Front(t testing.TB, target string, handle func(w http.ResponseWriter, r *http.Request, next http.Handler)) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatalf("front of %q: %v", target, err)
	}
	next := httputil.NewSingleHostReverseProxy(u)
	next.ErrorLog = log.New(io.Discard, "", 0)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handle(w, r, next) }))
	t.Cleanup(srv.Close)
	return srv.URL
}
