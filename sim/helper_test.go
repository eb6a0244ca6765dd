package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/testkit"
	"bhtop/signer"
)

// fakeClock is a clock.Fake for Options.Now, with the Add the tests call.
type fakeClock struct{ *clock.Fake }

// newClock is a fake clock showing ms (unix milliseconds).
func newClock(ms int64) fakeClock { return fakeClock{clock.NewFake(time.UnixMilli(ms))} }

// Add moves the clock forward by d.
func (c fakeClock) Add(d time.Duration) { c.Advance(d) }

// start runs a simulator for the test with the market stopped (tests
// drive it with crossTo) unless opts says otherwise.
func start(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.MarketInterval == 0 {
		opts.MarketInterval = -1
	}
	s := New(opts)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// reply is one HTTP answer.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// do sends req and reads the whole answer.
func do(t testing.TB, req *http.Request) reply {
	t.Helper()
	r := testkit.Do(t, req)
	return reply{r.Status, r.Header, r.Body}
}

// code is the error code of the reply, 0 when it is not an error payload.
func (r reply) code() int {
	var e struct {
		Code *int `json:"code"`
	}
	if json.Unmarshal(r.body, &e) != nil || e.Code == nil {
		return 0
	}
	return *e.Code
}

func (r reply) decode(t testing.TB, v any) {
	t.Helper()
	decodeJSON(t, r.body, v)
}

// decodeJSON decodes b into v with numbers kept as json.Number (exact),
// failing the test when b is not JSON.
func decodeJSON(t testing.TB, b []byte, v any) {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// raw sends a request as given: raw query, raw body (form encoded when
// not empty), and the API key header when key is not empty.
func raw(t testing.TB, s *Server, method, path, query, body, key string) reply {
	t.Helper()
	u := s.URL() + path
	if query != "" {
		u += "?" + query
	}
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if key != "" {
		req.Header.Set("X-BH-APIKEY", key)
	}
	return do(t, req)
}

// signed sends params (raw, without timestamp) in the query with the
// server's current timestamp and a signature by the server's first key.
func signed(t testing.TB, s *Server, method, path, params string) reply {
	t.Helper()
	q := params
	if q != "" {
		q += "&"
	}
	q += "timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10)
	q += "&signature=" + signer.Sign(s.Secret(), q)
	return raw(t, s, method, path, q, "", s.APIKey())
}

// signedOK is signed for a call that must succeed: any status but 200
// fails the test; the answer is decoded as one JSON object.
func signedOK(t testing.TB, s *Server, method, path, params string) map[string]any {
	t.Helper()
	r := signed(t, s, method, path, params)
	wantOK(t, r)
	var m map[string]any
	r.decode(t, &m)
	return m
}

func wantOK(t testing.TB, r reply) {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status = %d %s, want 200", r.status, r.body)
	}
}

func wantErr(t testing.TB, what string, r reply, status, code int) {
	t.Helper()
	if r.status != status || r.code() != code {
		t.Errorf("%s = %d %s, want %d code %d", what, r.status, r.body, status, code)
	}
}
