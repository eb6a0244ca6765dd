package testkit

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"bhtop/internal/lockedbuf"
)

// Buffer is a bytes buffer safe to write from one goroutine (a server,
// a program under test) while the test reads it from another.
type Buffer = lockedbuf.Buffer

// RequestLog collects the simulator's request log (DESIGN.md JSON lines)
// while the simulator writes it.
type RequestLog struct {
	Buffer
}

// Entry is one request-log line (its keys are these names in lower
// camel case: time, method, …, apiKey; decoding matches them).
type Entry struct {
	Time                      int64 // unix ms
	Method, Path, Query, Body string
	APIKey                    bool // the API key header was sent
	Status                    int
	Code                      *int // the error payload's code, if any
}

// Raw is the log as written.
func (l *RequestLog) Raw() string { return l.String() }

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

// DebugLogger is a logger writing every record (debug level up) as text
// to w: what a test reads back, for what was logged or for what must
// never be.
func DebugLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Banned is how many logged requests were answered 418: sent while the
// service had told the IP to wait, which bhtop must never do (SPEC.md).
func (l *RequestLog) Banned() int {
	return l.CountFunc(func(e Entry) bool { return e.Status == http.StatusTeapot })
}
