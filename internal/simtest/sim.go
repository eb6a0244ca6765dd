// Package simtest is the test kit every package's tests share: a
// simulator on loopback with its request log, signed clients for it, a
// live session, polling waits with a deadline, and tmux terminals for
// end-to-end tests. It is imported by _test files only.
package simtest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/sim"
)

// Sim is a simulator running on 127.0.0.1 for one test, with the request
// log it writes (unless the options named their own).
type Sim struct {
	*sim.Server
	Log *RequestLog
}

// Start runs a simulator with opts, closed when the test ends. The market
// is stepped by hand (no fills unless a test asks) unless
// opts.MarketInterval says otherwise, and the request log goes to s.Log
// unless opts.RequestLog is set.
func Start(t testing.TB, opts sim.Options) *Sim {
	t.Helper()
	s := &Sim{Log: &RequestLog{}}
	if opts.RequestLog == nil {
		opts.RequestLog = s.Log
	}
	if opts.MarketInterval == 0 {
		opts.MarketInterval = -1
	}
	s.Server = sim.New(opts)
	if err := s.Server.Start(); err != nil {
		t.Fatalf("start the simulator: %v", err)
	}
	t.Cleanup(func() { _ = s.Server.Close() })
	return s
}

// Client is a REST client of the simulator signed with its first key
// pair; opts add to (and may override) those.
func (s *Sim) Client(opts ...rest.Option) *rest.Client { return Client(s.Server, opts...) }

// Client is a REST client of srv signed with its first key pair.
func Client(srv *sim.Server, opts ...rest.Option) *rest.Client {
	base := []rest.Option{rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret())}
	return rest.New(srv.URL(), append(base, opts...)...)
}

// Trader is an order sender on a signed client of the simulator.
func (s *Sim) Trader(opts ...rest.Option) *rest.Trader { return rest.NewTrader(s.Client(opts...)) }

// RequestLog collects the simulator's request log (DESIGN.md JSON lines);
// safe for the simulator's goroutines and the test's at once.
type RequestLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Entry is one request-log line.
type Entry struct {
	Time   int64  `json:"time"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Body   string `json:"body"`
	APIKey bool   `json:"apiKey"`
	Status int    `json:"status"`
	Code   *int   `json:"code"`
}

// Write appends log lines.
func (l *RequestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// Raw is the log as written.
func (l *RequestLog) Raw() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Entries decodes every line, failing the test on one that is not JSON.
func (l *RequestLog) Entries(t testing.TB) []Entry {
	t.Helper()
	var out []Entry
	for _, line := range strings.Split(strings.TrimSpace(l.Raw()), "\n") {
		if line == "" {
			continue
		}
		var e Entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("request log line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

// Count is how many logged requests have this method and path.
func (l *RequestLog) Count(method, path string) int {
	return l.CountFunc(func(e Entry) bool { return e.Method == method && e.Path == path })
}

// Has reports whether a request with this method and path, whose query
// contains query, was logged.
func (l *RequestLog) Has(method, path, query string) bool {
	return l.CountFunc(func(e Entry) bool {
		return e.Method == method && e.Path == path && strings.Contains(e.Query, query)
	}) > 0
}

// CountFunc is how many logged requests match.
func (l *RequestLog) CountFunc(match func(Entry) bool) int {
	n := 0
	for _, line := range strings.Split(l.Raw(), "\n") {
		var e Entry
		if line != "" && json.Unmarshal([]byte(line), &e) == nil && match(e) {
			n++
		}
	}
	return n
}

// Inflight is an http.RoundTripper that counts the requests under way,
// so a test on a fake clock can move it only between requests (a
// timestamp made before a jump of the clock and checked after it would be
// refused as too old).
type Inflight struct {
	Base http.RoundTripper // nil: http.DefaultTransport
	n    atomic.Int64
}

// RoundTrip counts the request while it runs.
func (f *Inflight) RoundTrip(r *http.Request) (*http.Response, error) {
	f.n.Add(1)
	defer f.n.Add(-1)
	base := f.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// Idle waits (up to within) until no request has been under way for two
// looks a moment apart; false when one still is.
func (f *Inflight) Idle(within time.Duration) bool {
	return Within(within, func() bool {
		if f.n.Load() != 0 {
			return false
		}
		time.Sleep(time.Millisecond)
		return f.n.Load() == 0
	})
}
