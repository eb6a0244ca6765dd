package sim

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/api"
	"bhtop/internal/testkit"
)

// closedWithin reports whether the server closes c within d (reading
// and discarding whatever it sends first).
func closedWithin(c net.Conn, d time.Duration) bool {
	_ = c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// waitOpen polls until the server holds at most n connections.
func waitOpen(t *testing.T, s *Server, n int64, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for s.conns.open.Load() > n {
		if time.Now().After(deadline) {
			t.Fatalf("the server still holds %d connections after %s, want at most %d", s.conns.open.Load(), within, n)
		}
		time.Sleep(10 * time.Millisecond) // polls the count
	}
}

func dialRaw(t testing.TB, s *Server) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", s.ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestBodyTooLarge: a body over MaxBodyBytes is refused with 413 and a
// code and msg saying so (it used to be cut and answered "signature not
// sent"), with or without a Content-Length; the request log keeps a few
// kB of it, not a MiB.
func TestBodyTooLarge(t *testing.T) {
	log := &testkit.RequestLog{}
	s := start(t, Options{RequestLog: log})
	big := strings.Repeat("a", 1<<20+1)
	for _, tc := range []struct {
		name string
		body io.Reader
	}{
		{"with Content-Length", strings.NewReader(big)},
		{"chunked", io.MultiReader(strings.NewReader(big))}, // no length known: sent chunked
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", s.URL()+"/openapi/v1/order?symbol=ETHBTC", tc.body)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("X-BH-APIKEY", s.APIKey())
			r := do(t, req)
			wantErr(t, "a 1 MiB + 1 body", r, http.StatusRequestEntityTooLarge, codeUnknown)
			if !strings.Contains(string(r.body), "too large") {
				t.Errorf("msg = %s, want it to say the body is too large", r.body)
			}
		})
	}
	for _, e := range log.Entries(t) {
		if len(e.Body) > 8<<10 {
			t.Errorf("request-log body of %d bytes, want at most a few kB", len(e.Body))
		}
	}
	// A long query is cut in the log and marked.
	wantOK(t, raw(t, s, "GET", "/openapi/v1/time", "x="+strings.Repeat("q", 10_000), "", ""))
	found := false
	for _, e := range log.Entries(t) {
		if q := e.Query; strings.HasPrefix(q, "x=qqq") {
			found = true
			if len(q) > 5<<10 || !strings.Contains(q, "more bytes]") {
				t.Errorf("request-log query = %d bytes %q…, want it cut to 4 KiB and marked", len(q), q[:20])
			}
		}
	}
	if !found {
		t.Error("no request-log line for the long query")
	}
}

// TestHugeHeaders: headers over MaxHeaderBytes are answered 431.
func TestHugeHeaders(t *testing.T) {
	s := start(t, Options{})
	req, _ := http.NewRequest("GET", s.URL()+"/openapi/v1/time", nil)
	req.Header.Set("X-Filler", strings.Repeat("h", 100<<10))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("100 kB of headers: status %d, want 431", res.StatusCode)
	}
	wantOK(t, raw(t, s, "GET", "/openapi/v1/time", "", "", ""))
}

// TestMalformedSignatures: signatures that are not hex, of odd length,
// huge or not ASCII are refused with -1022, and the server carries on.
func TestMalformedSignatures(t *testing.T) {
	s := start(t, Options{})
	for _, sig := range []string{"zz", "abc", strings.Repeat("f", 64<<10), "%C3%A9%00", "%ZZ", strings.Repeat("0", 64)} {
		q := fmt.Sprintf("timestamp=%d&signature=%s", s.Now().UnixMilli(), sig)
		r := raw(t, s, "GET", "/openapi/v1/account", q, "", s.APIKey())
		if r.status != http.StatusBadRequest || (r.code() != codeInvalidSignature && r.code() != codeIllegalChars && r.code() != codeMandatoryParam) {
			t.Errorf("signature %.20q: %d %s, want 400 with -1022", sig, r.status, r.body)
		}
	}
	wantOK(t, signed(t, s, "GET", "/openapi/v1/account", ""))
}

// TestSlowClientsAreCut: a client trickling its headers, one trickling
// its body and an idle keep-alive connection are each closed after the
// matching timeout.
func TestSlowClientsAreCut(t *testing.T) {
	s := start(t, Options{Limits: Limits{ReadHeaderTimeout: 200 * time.Millisecond,
		ReadTimeout: 300 * time.Millisecond, IdleTimeout: 200 * time.Millisecond}})
	trickle := func(c net.Conn, text string, stop <-chan struct{}) {
		for i := 0; i < len(text); i++ {
			select {
			case <-stop:
				return
			case <-time.After(30 * time.Millisecond):
			}
			if _, err := c.Write([]byte{text[i]}); err != nil {
				return
			}
		}
	}
	stop := make(chan struct{})
	defer close(stop)

	headers := dialRaw(t, s)
	go trickle(headers, "GET /openapi/v1/time HTTP/1.1\r\nHost: x\r\nX-Slow: "+strings.Repeat("s", 500), stop)
	body := dialRaw(t, s)
	fmt.Fprintf(body, "POST /openapi/v1/order HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n")
	go trickle(body, strings.Repeat("b", 500), stop)
	idle := dialRaw(t, s)
	fmt.Fprintf(idle, "GET /openapi/v1/time HTTP/1.1\r\nHost: x\r\n\r\n")
	res, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil {
		t.Fatalf("the keep-alive connection's first reply: %v", err)
	}
	res.Body.Close()

	for name, c := range map[string]net.Conn{"trickled headers": headers, "trickled body": body, "idle keep-alive": idle} {
		if !closedWithin(c, 5*time.Second) {
			t.Errorf("%s: connection still open after 5 s, want it cut after its timeout (≤ 300 ms)", name)
		}
	}
}

// TestConnectionCap: beyond MaxConns a connection is answered 503 and
// closed; an open user stream is unaffected; once the idle ones go, new
// clients are served again.
func TestConnectionCap(t *testing.T) {
	s := start(t, Options{Limits: Limits{MaxConns: 20}})
	ws := dialStream(t, s, newListenKey(t, s)) // holds one slot
	http.DefaultClient.CloseIdleConnections()
	waitOpen(t, s, 1, 5*time.Second)
	var idle []net.Conn
	for range 19 {
		idle = append(idle, dialRaw(t, s))
	}
	waitUntil(t, 5*time.Second, func() bool { return s.conns.open.Load() == 20 })
	extra := dialRaw(t, s)
	_ = extra.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(extra)
	if !strings.Contains(string(b), "503") || !strings.Contains(string(b), "Too many connections") {
		t.Errorf("the connection over the cap got %q, want a 503 saying too many connections", b)
	}
	for _, c := range idle {
		c.Close()
	}
	waitOpen(t, s, 1, 5*time.Second)
	wantOK(t, raw(t, s, "GET", "/openapi/v1/time", "", "", ""))
	if err := ws.WriteMessage(1, []byte(`{"pong":1}`)); err != nil {
		t.Errorf("the user stream opened before the flood: %v", err)
	}
}

// TestIdleFloodBoundedMemory: thousands of connections that send nothing
// used to be held without limit (~20 kB each, 400+ MB and no file
// descriptors left at 20,000). Now at most MaxConns are held, the heap
// grows by a bounded amount, the read-header timeout cuts them, and the
// simulator answers afterwards.
func TestIdleFloodBoundedMemory(t *testing.T) {
	const maxConns, flood = 256, 2000
	s := start(t, Options{Limits: Limits{MaxConns: maxConns, ReadHeaderTimeout: time.Second}})
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapInuse
	}
	before := heap()
	conns := make([]net.Conn, 0, flood)
	for range flood {
		c, err := net.Dial("tcp", s.ln.Addr().String())
		if err != nil {
			t.Fatalf("dial %d: %v", len(conns), err)
		}
		conns = append(conns, c)
		if n := s.conns.open.Load(); n > maxConns {
			t.Fatalf("the server holds %d connections, want at most %d", n, maxConns)
		}
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	grew := int64(heap()) - int64(before)
	t.Logf("heap grew by %d kB with %d idle connections attempted (%d held)", grew>>10, flood, s.conns.open.Load())
	if grew > 32<<20 {
		t.Errorf("heap grew by %d MB with %d idle connections, want a bounded few MB", grew>>20, flood)
	}
	waitOpen(t, s, 0, 10*time.Second) // the read-header timeout cut them
	wantOK(t, raw(t, s, "GET", "/openapi/v1/time", "", "", ""))
}

// TestHundredsOfConcurrentClients: 300 clients at once, each on its own
// connection, are all answered.
func TestHundredsOfConcurrentClients(t *testing.T) {
	s := start(t, Options{RateLimits: RateLimits{WeightPerMinute: 1_000_000}})
	tr := &http.Transport{DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 20 * time.Second}
	var wg sync.WaitGroup
	errs := make(chan error, 300)
	for range 300 {
		wg.Go(func() {
			res, err := client.Get(s.URL() + "/openapi/v1/time")
			if err != nil {
				errs <- err
				return
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				errs <- fmt.Errorf("status %d", res.StatusCode)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a concurrent client: %v", err)
	}
}

// TestThousandsOfListenKeys: listen keys are capped (MaxListenKeys valid
// at once): one more is refused with a clear -1000, closed and expired
// ones make room, and the table never grows past the cap.
func TestThousandsOfListenKeys(t *testing.T) {
	clock := newClock(1_700_000_000_000)
	s := start(t, Options{Now: clock.Now, Limits: Limits{MaxListenKeys: 1000},
		RateLimits: RateLimits{WeightPerMinute: 1_000_000}})
	var keys []string
	for range 1000 {
		keys = append(keys, newListenKey(t, s))
	}
	r := signed(t, s, "POST", "/openapi/v1/userDataStream", "")
	wantErr(t, "listen key 1001", r, http.StatusBadRequest, codeUnknown)
	if !strings.Contains(string(r.body), "Too many listen keys") {
		t.Errorf("msg = %s, want it to say too many listen keys", r.body)
	}
	wantOK(t, signed(t, s, "DELETE", "/openapi/v1/userDataStream", "listenKey="+keys[0]))
	newListenKey(t, s) // the closed one made room
	clock.Add(2 * time.Hour)
	for range 1000 {
		newListenKey(t, s) // the expired ones made room
	}
	s.mu.Lock()
	n := len(s.listenKeys)
	s.mu.Unlock()
	if n > 1000 {
		t.Errorf("%d listen keys held, want at most 1000", n)
	}
}

// waitUntil polls cond until it holds, failing after within.
func waitUntil(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(10 * time.Millisecond) // polls
	}
}

// REQUEST_WEIGHT: 429 with Retry-After, then 418 for a client that sends
// again while told to wait; bans double and end (BanScale shrinks them).
func TestRateLimitAndBan(t *testing.T) {
	clock := newClock(exampleTS + 10_000) // 10 s into a minute
	s := start(t, Options{Now: clock.Now, BanScale: 0.001, RateLimits: RateLimits{WeightPerMinute: 10, OrdersPerSecond: 2}})
	account := func() reply { return signed(t, s, "GET", "/openapi/v1/account", "") }
	wantOK(t, account())
	wantOK(t, account()) // weight 10 of 10
	r := account()
	wantErr(t, "third account call", r, http.StatusTooManyRequests, codeTooManyRequests)
	if got := r.header.Get("Retry-After"); got != "50" {
		t.Errorf("Retry-After = %q, want 50", got)
	}
	r = account()
	wantErr(t, "call during backoff", r, http.StatusTeapot, codeTooManyRequests)
	if got := r.header.Get("Retry-After"); got == "" {
		t.Errorf("418 without Retry-After")
	}
	clock.Add(100 * time.Millisecond) // first ban: 2 min × 0.001 = 120 ms
	wantErr(t, "during first ban", raw(t, s, "GET", "/openapi/v1/time", "", "", ""), http.StatusTeapot, codeTooManyRequests)
	clock.Add(30 * time.Millisecond)
	wantErr(t, "after first ban, window still full", account(), http.StatusTooManyRequests, codeTooManyRequests)
	wantErr(t, "again during backoff", account(), http.StatusTeapot, codeTooManyRequests)
	clock.Add(130 * time.Millisecond) // second ban: 240 ms
	wantErr(t, "during second ban", account(), http.StatusTeapot, codeTooManyRequests)
	clock.Add(120 * time.Millisecond)
	wantErr(t, "after second ban", account(), http.StatusTooManyRequests, codeTooManyRequests)
	clock.Add(time.Minute) // new window; waited as told
	wantOK(t, account())

	order := "symbol=ETHBTC&side=SELL&type=LIMIT&quantity=0.01&price=0.09"
	wantOK(t, signed(t, s, "POST", "/openapi/v1/order", order))
	r = signed(t, s, "POST", "/openapi/v1/order", order)
	wantOK(t, r)
	r = signed(t, s, "POST", "/openapi/v1/order", order)
	wantErr(t, "third order in a second", r, http.StatusTooManyRequests, codeTooManyOrders)
}

// TestCancelsCountTowardOrders: the simulator counts a cancel toward the
// ORDER limit like the api table (and the REST client) says.
func TestCancelsCountTowardOrders(t *testing.T) {
	clock := newClock(1_700_000_000_000)
	s := start(t, Options{Now: clock.Now, RateLimits: RateLimits{OrdersPerSecond: 2}})
	for i := 0; i < 2; i++ {
		r := signed(t, s, "DELETE", api.CancelOrder.Path, "orderId=1")
		if r.code() == codeTooManyOrders {
			t.Fatalf("cancel %d: %s, want room under the limit", i, r.body)
		}
	}
	r := signed(t, s, "DELETE", api.CancelOrder.Path, "orderId=1")
	wantErr(t, "third cancel within a second", r, http.StatusTooManyRequests, codeTooManyOrders)
	clock.Add(1100 * time.Millisecond)
	if r := signed(t, s, "GET", api.OpenOrders.Path, ""); r.code() == codeTooManyOrders {
		t.Errorf("a query counted toward ORDER: %s", r.body)
	}
}
