package rest

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/signer"
)

func TestParamsSignLikeAPIFacts(t *testing.T) {
	p := &params{}
	p.add("symbol", "ETHBTC").add("side", "BUY").add("type", "LIMIT").add("timeInForce", "GTC")
	p.add("quantity", "1").add("price", "0.1").addInt("recvWindow", 5000).addInt("timestamp", 1538323200000)
	text := p.encode()
	wantText := "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000"
	if text != wantText {
		t.Fatalf("encode() = %q, want %q", text, wantText)
	}
	sec := signer.NewSecret("lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76")
	if got, want := signer.Sign(sec, text), "5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6"; got != want {
		t.Errorf("Sign(%q) = %s, want %s", text, got, want)
	}
}

func TestParamsEncodeEscapesAndSkipsEmpty(t *testing.T) {
	p := &params{}
	p.add("a", "x y&z").add("empty", "").add("b", "1")
	if got, want := p.encode(), "a=x+y%26z&b=1"; got != want {
		t.Errorf("encode() = %q, want %q", got, want)
	}
}

func TestWindowFitAt(t *testing.T) {
	t0 := time.Unix(1000, 0)
	w := newWindow(time.Minute, 10) // span 62s
	w.log = []stamp{{t0, 4}, {t0.Add(10 * time.Second), 5}}
	tests := []struct {
		now  time.Time
		n    int
		want time.Time
	}{
		{t0.Add(20 * time.Second), 1, t0.Add(20 * time.Second)},
		{t0.Add(20 * time.Second), 2, t0.Add(62 * time.Second)},
		{t0.Add(20 * time.Second), 6, t0.Add(72 * time.Second)},
		{t0.Add(63 * time.Second), 5, t0.Add(63 * time.Second)},
		{t0.Add(63 * time.Second), 6, t0.Add(72 * time.Second)},
		{t0.Add(20 * time.Second), 11, t0.Add(20 * time.Second)}, // larger than the limit: never blocks forever
	}
	for _, tt := range tests {
		w2 := &window{span: w.span, limit: w.limit, log: append([]stamp(nil), w.log...)}
		if got := w2.fitAt(tt.now, tt.n); !got.Equal(tt.want) {
			t.Errorf("fitAt(t0+%v, %d) = t0+%v, want t0+%v", tt.now.Sub(t0), tt.n, got.Sub(t0), tt.want.Sub(t0))
		}
	}
}

func TestGovernorPacesAndGates(t *testing.T) {
	t0 := time.Unix(1000, 0)
	g := newGovernor(nil)
	g.setLimits([]RateLimit{{"REQUESTS_WEIGHT", "MINUTE", 6}, {"ORDERS", "SECOND", 2}})
	if w, _ := g.reserve(t0, routeAccount); w != 0 {
		t.Fatalf("reserve(account) wait = %v, want 0", w)
	}
	if w, _ := g.reserve(t0, routeAccount); w <= 0 {
		t.Errorf("reserve(second account within the minute) wait = %v, want > 0", w)
	}
	if w, _ := g.reserve(t0, routePing); w != 0 {
		t.Errorf("reserve(ping, weight 0) wait = %v, want 0", w)
	}
	if used, limit := g.host.usage(t0); used != 5 || limit != 6 {
		t.Errorf("usage = %d/%d, want 5/6", used, limit)
	}
	// Orders: two per second, then wait.
	g.setLimits([]RateLimit{{"REQUEST_WEIGHT", "MINUTE", 100}, {"ORDER", "SECOND", 2}})
	for i := range 2 {
		if w, _ := g.reserve(t0, routeNewOrder); w != 0 {
			t.Fatalf("reserve(order %d) wait = %v, want 0", i, w)
		}
	}
	if w, _ := g.reserve(t0, routeNewOrder); w <= 0 {
		t.Errorf("reserve(third order in a second) wait = %v, want > 0", w)
	}
	// 429 without Retry-After: 1s, then 2s.
	until := g.host.tooMany(t0, 0, nil)
	if until != t0.Add(time.Second) {
		t.Errorf("tooMany #1 until = t0+%v, want t0+1s", until.Sub(t0))
	}
	w, gate := g.reserve(t0.Add(500*time.Millisecond), routePing)
	if w != 500*time.Millisecond || gate == nil || !errors.Is(gate, ErrRateLimited) {
		t.Errorf("reserve during 429 backoff = %v, %v; want 500ms, ErrRateLimited", w, gate)
	}
	until = g.host.tooMany(t0.Add(time.Second), 0, nil)
	if until != t0.Add(3*time.Second) {
		t.Errorf("tooMany #2 until = t0+%v, want t0+3s", until.Sub(t0))
	}
	g.host.banned(t0.Add(time.Hour), &APIError{HTTPStatus: 418, Code: -1003})
	if _, gate := g.reserve(t0.Add(time.Minute), routePing); gate == nil || !errors.Is(gate, ErrBanned) {
		t.Errorf("reserve during ban gate = %v, want ErrBanned", gate)
	}
}

// TestSharedHostLimits: governors of several clients on one HostLimits
// reserve concurrently. Together they never spend more weight than the
// host's limit, each keeps its own order count, and a 429 or 418 noted
// by one holds them all.
func TestSharedHostLimits(t *testing.T) {
	t0 := time.Unix(1000, 0)
	h := NewHostLimits()
	govs := make([]*governor, 8)
	for i := range govs {
		govs[i] = newGovernor(h)
		govs[i].setLimits([]RateLimit{{"REQUEST_WEIGHT", "MINUTE", 100}, {"ORDER", "SECOND", 3}})
	}
	var spent atomic.Int64
	var wg sync.WaitGroup
	for _, g := range govs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if w, _ := g.reserve(t0, routeAccount); w == 0 { // weight 5
					spent.Add(5)
				}
			}
		}()
	}
	wg.Wait()
	if got := spent.Load(); got != 100 {
		t.Errorf("8 governors spent %d weight in one minute, want exactly the host's 100", got)
	}
	if used, limit := h.usage(t0); used != 100 || limit != 100 {
		t.Errorf("host usage = %d/%d, want 100/100", used, limit)
	}
	// Orders are each client's own: 3 a second for each, so every
	// governor places 3 (weight allowing: give the host room again).
	h.setLimits([]RateLimit{{"REQUEST_WEIGHT", "MINUTE", 10000}})
	for i, g := range govs {
		for j := range 3 {
			if w, _ := g.reserve(t0, routeNewOrder); w != 0 {
				t.Fatalf("governor %d order %d: wait %v, want 0 (orders are per client)", i, j, w)
			}
		}
		if w, _ := g.reserve(t0, routeNewOrder); w <= 0 {
			t.Errorf("governor %d 4th order in a second: wait %v, want > 0", i, w)
		}
	}
	// A 429 noted through one client holds every client of the host.
	govs[0].host.tooMany(t0, 2*time.Second, &APIError{HTTPStatus: 429})
	for i, g := range govs {
		if w, gate := g.reserve(t0.Add(time.Second), routePing); w != time.Second || gate == nil || !errors.Is(gate, ErrRateLimited) {
			t.Errorf("governor %d during another's 429 backoff: %v, %v; want 1s, ErrRateLimited", i, w, gate)
		}
	}
	govs[3].host.banned(t0.Add(time.Hour), &APIError{HTTPStatus: 418})
	for i, g := range govs {
		if _, gate := g.reserve(t0.Add(time.Minute), routePing); gate == nil || !errors.Is(gate, ErrBanned) {
			t.Errorf("governor %d during another's ban: %v, want ErrBanned", i, gate)
		}
	}
	// A governor of its own HostLimits is not held.
	if w, gate := newGovernor(nil).reserve(t0.Add(time.Minute), routePing); w != 0 || gate != nil {
		t.Errorf("unshared governor during the host's ban: %v, %v; want 0, nil", w, gate)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{"0.5", 500 * time.Millisecond},
		{now.Add(10 * time.Second).Format(http.TimeFormat), 10 * time.Second},
		{"soon", 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.in != "" {
			h.Set("Retry-After", tt.in)
		}
		if got := retryAfter(h, now); got != tt.want {
			t.Errorf("retryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	if got := banEnd("Way too many requests; IP banned until 1659146400000."); got != 1659146400000 {
		t.Errorf("banEnd = %d, want 1659146400000", got)
	}
}

func TestDecodeRecordsExact(t *testing.T) {
	body := `[{"symbol":"BTC-PERP-REV","orderId":469961015902208000123,"clientOrderId":"x1","price":"8200.00",
		"origQty":1e3,"executedQty":"0","avgPrice":0.000000001,"status":"NEW","timeInForce":"GTC","orderType":"LIMIT",
		"side":"BUY_OPEN","time":"1551062936784","updateTime":1551062936785,"isWorking":"true","leverage":"20"}]`
	var ws []wireOrder
	if err := decode([]byte(body), &ws); err != nil {
		t.Fatal(err)
	}
	got := orderRecords(ws)[0]
	want := OrderRecord{Symbol: "BTC-PERP-REV", OrderID: "469961015902208000123", ClientOrderID: "x1", Price: "8200.00",
		OrigQty: "1e3", ExecutedQty: "0", AvgPrice: "0.000000001", Status: "NEW", TimeInForce: "GTC", Type: "LIMIT",
		Side: "BUY_OPEN", Time: 1551062936784, UpdateTime: 1551062936785, IsWorking: true, Leverage: "20"}
	if got != want {
		t.Errorf("decode(contract order) = %+v, want %+v", got, want)
	}
}

func TestAPIErrorMatching(t *testing.T) {
	tests := []struct {
		err  *APIError
		want error
		hint string
	}{
		{&APIError{HTTPStatus: 401, Code: -2015, Msg: "x"}, ErrKeyRejected, "permission"},
		{&APIError{HTTPStatus: 400, Code: -1021, Msg: "x"}, ErrInvalidTimestamp, "run SyncTime / check NTP"},
		{&APIError{HTTPStatus: 400, Code: -1022, Msg: "x"}, ErrInvalidSignature, "secret"},
		{&APIError{HTTPStatus: 429, Code: -1003, Msg: "x"}, ErrRateLimited, "Retry-After"},
		{&APIError{HTTPStatus: 418, Code: -1003, Msg: "x"}, ErrBanned, ""},
		{&APIError{HTTPStatus: 504, Code: -1007, Msg: "x"}, ErrServer, ""},
		{&APIError{HTTPStatus: 400, Code: -1125, Msg: "x"}, ErrInvalidListenKey, "listenKey"},
	}
	for _, tt := range tests {
		wrapped := fmt.Errorf("GET /x: %w", tt.err)
		if !errors.Is(wrapped, tt.want) {
			t.Errorf("errors.Is(%v, %v) = false, want true", tt.err, tt.want)
		}
		var ae *APIError
		if !errors.As(wrapped, &ae) || ae.Code != tt.err.Code {
			t.Errorf("errors.As(%v) failed", wrapped)
		}
		if !strings.Contains(tt.err.Error(), tt.hint) {
			t.Errorf("(%v).Error() lacks hint %q", tt.err, tt.hint)
		}
	}
	be := &BackoffError{Err: ErrBanned, Until: time.Unix(0, 0), Cause: &APIError{HTTPStatus: 418, Code: -1003, Msg: "banned"}}
	var ae *APIError
	if !errors.Is(be, ErrBanned) || !errors.As(be, &ae) || ae.HTTPStatus != 418 {
		t.Errorf("BackoffError does not unwrap to ErrBanned and *APIError: %v", be)
	}
}

// BenchmarkSignOrderParams is building and signing the parameters of one
// order, the client's own share of an order's latency.
func BenchmarkSignOrderParams(b *testing.B) {
	sec := signer.NewSecret("lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76")
	req := OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1", Price: "0.1",
		NewClientOrderID: "bh0123456789abcdef0123"}
	b.ReportAllocs()
	for b.Loop() {
		p := req.params()
		p.addInt("recvWindow", 5000).addInt("timestamp", 1538323200000)
		_ = signer.Sign(sec, p.encode())
	}
}

// TestBackoffErrorSaysHowLong: a 429's error says how long to wait and a
// 418's until when, in UTC, so a script knows when to try again.
func TestBackoffErrorSaysHowLong(t *testing.T) {
	now := time.Date(2026, 11, 24, 14, 0, 0, 0, time.UTC)
	rl := &BackoffError{Err: ErrRateLimited, Until: now.Add(11500 * time.Millisecond), Now: now}
	if got, want := rl.Error(), "rate limited by the service: retry after 12s (at 14:00:11 UTC)"; got != want {
		t.Errorf("429: %q, want %q", got, want)
	}
	ban := &BackoffError{Err: ErrBanned, Until: now.Add(2*time.Minute + 11*time.Second), Now: now}
	if got, want := ban.Error(), "banned by the service (HTTP 418) until 14:02:11 UTC (retry after 2m11s)"; got != want {
		t.Errorf("418: %q, want %q", got, want)
	}
}
