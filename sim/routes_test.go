package sim

import (
	"net/http"
	"testing"
	"time"

	"bhtop/api"
)

// TestServesEveryEndpoint: every endpoint of the api table is served
// (answered by its handler: anything but the unknown-path 404), and a
// path outside the table is not.
func TestServesEveryEndpoint(t *testing.T) {
	s := start(t, Options{})
	for _, e := range api.All() {
		var r reply
		if e.Security.Signed() {
			r = signed(t, s, e.Method, e.Path, "")
		} else {
			r = raw(t, s, e.Method, e.Path, "timestamp=1", "", s.APIKey())
		}
		if r.status == http.StatusNotFound {
			t.Errorf("%s: 404 %s: not served", e.Key(), r.body)
		}
	}
	if r := raw(t, s, "GET", "/openapi/v1/nothing", "", "", ""); r.status != http.StatusNotFound {
		t.Errorf("a path outside the table = %d, want 404", r.status)
	}
}

// TestNoMarketDataHidesMarketEndpoints: without the quote extension the
// table's market endpoints answer 404 and the others are still served.
func TestNoMarketDataHidesMarketEndpoints(t *testing.T) {
	s := start(t, Options{NoMarketData: true})
	for _, e := range api.All() {
		if e.Security.Keyed() {
			continue
		}
		r := raw(t, s, e.Method, e.Path, "", "", "")
		if got := r.status == http.StatusNotFound; got != e.Market {
			t.Errorf("%s: status %d with NoMarketData (market endpoint: %v)", e.Key(), r.status, e.Market)
		}
	}
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
