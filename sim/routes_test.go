package sim

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/api"
	"bhtop/signer"
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

// Parameters in the query, the body or split; the query wins on a name in
// both; the same name twice within one part is -1101; empty means absent.
func TestParams(t *testing.T) {
	s := start(t, Options{})
	ts := func() string { return "timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10) }
	send := func(method, path, q, b, ctype string) reply {
		sig := signer.Sign(s.Secret(), q+b)
		if q != "" {
			q += "&"
		}
		q += "signature=" + sig
		req, _ := http.NewRequest(method, s.URL()+path+"?"+q, strings.NewReader(b))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		req.Header.Set("X-BH-APIKEY", s.APIKey())
		return do(t, req)
	}
	form := "application/x-www-form-urlencoded"
	tests := []struct {
		name, method, path, q, b, ctype string
		code                            int
	}{
		{"split order", "POST", "/openapi/v1/order/test", "symbol=ETHBTC&side=BUY", "type=LIMIT&quantity=1&price=0.01&" + ts(), form, 0},
		{"all in body", "POST", "/openapi/v1/order/test", "", "symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1&price=0.01&" + ts(), form, 0},
		{"query wins over body", "POST", "/openapi/v1/order/test", "symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1&price=0.01&" + ts(), "symbol=NOPE", form, 0},
		{"body loses to query", "POST", "/openapi/v1/order/test", "symbol=NOPE&side=BUY&type=LIMIT&quantity=1&price=0.01&" + ts(), "symbol=ETHBTC", form, codeBadSymbol},
		{"duplicate in query", "GET", "/openapi/v1/account", "a=1&a=2&" + ts(), "", "", codeTooManyParams},
		{"duplicate in body", "POST", "/openapi/v1/order/test", ts(), "side=BUY&side=SELL", form, codeTooManyParams},
		{"body without form type", "POST", "/openapi/v1/order/test", ts(), "symbol=ETHBTC", "text/plain", codeMandatoryParam},
		{"empty value is absent", "GET", "/openapi/v1/order", "orderId=&origClientOrderId=&" + ts(), "", "", codeMandatoryParam},
		{"empty value is not a duplicate", "GET", "/openapi/v1/account", "a=&a=1&" + ts(), "", "", 0},
		{"bad escape", "GET", "/openapi/v1/account", "a=%zz&" + ts(), "", "", codeIllegalChars},
		{"unknown params are ignored", "GET", "/openapi/v1/account", "whatever=1&" + ts(), "", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := send(tt.method, tt.path, tt.q, tt.b, tt.ctype)
			if got := r.code(); got != tt.code {
				t.Errorf("%s %s ? %s + %s = %d %s, want code %d", tt.method, tt.path, tt.q, tt.b, r.status, r.body, tt.code)
			}
		})
	}
}

// POST creates a key valid for the TTL, PUT extends it from the call,
// expiry and DELETE end it; a dead key is -1125.
func TestListenKeyLifecycle(t *testing.T) {
	clock := newClock(exampleTS)
	s := start(t, Options{Now: clock.Now, ListenKeyTTL: time.Hour})
	userStream := func(method, key string) reply {
		q := "timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10)
		if key != "" {
			q = "listenKey=" + key + "&" + q
		}
		return raw(t, s, method, "/openapi/v1/userDataStream", q, "", s.APIKey())
	}
	create := func() string {
		r := userStream("POST", "")
		wantOK(t, r)
		var v struct{ ListenKey string }
		r.decode(t, &v)
		return v.ListenKey
	}
	k := create()
	if id, ok := s.listenKeyAccount(k); !ok || id != "1" {
		t.Fatalf("listenKeyAccount(new key) = %q %v, want 1 true", id, ok)
	}
	clock.Add(59 * time.Minute)
	wantOK(t, userStream("PUT", k))
	clock.Add(59 * time.Minute)
	if _, ok := s.listenKeyAccount(k); !ok {
		t.Errorf("key 59 min after a keepalive is dead, want valid")
	}
	wantOK(t, userStream("PUT", k))
	clock.Add(time.Hour)
	if _, ok := s.listenKeyAccount(k); ok {
		t.Errorf("key 60 min after its last keepalive is valid, want expired")
	}
	wantErr(t, "keepalive of expired key", userStream("PUT", k), http.StatusBadRequest, codeInvalidListenKey)

	k2 := create()
	wantOK(t, userStream("DELETE", k2))
	if _, ok := s.listenKeyAccount(k2); ok {
		t.Errorf("closed key is valid")
	}
	wantErr(t, "keepalive of closed key", userStream("PUT", k2), http.StatusBadRequest, codeInvalidListenKey)
	wantErr(t, "delete of closed key", userStream("DELETE", k2), http.StatusBadRequest, codeInvalidListenKey)
	wantErr(t, "unknown key", userStream("PUT", "nope"), http.StatusBadRequest, codeInvalidListenKey)
	wantErr(t, "missing key", userStream("PUT", ""), http.StatusBadRequest, codeMandatoryParam)
	wantErr(t, "no API key", raw(t, s, "POST", "/openapi/v1/userDataStream", "timestamp=1", "", ""), http.StatusUnauthorized, codeUnauthorized)
}

func TestBrokerInfo(t *testing.T) {
	s := start(t, Options{RateLimits: RateLimits{WeightPerMinute: 600}})
	r := raw(t, s, "GET", "/openapi/v1/brokerInfo", "", "", "")
	wantOK(t, r)
	var info struct {
		RateLimits []struct {
			RateLimitType, Interval string
			Limit                   int
		}
		Symbols []struct {
			Symbol  string
			Filters []map[string]string
		}
	}
	r.decode(t, &info)
	got := map[string]int{}
	for _, l := range info.RateLimits {
		got[l.RateLimitType+"/"+l.Interval] = l.Limit
	}
	want := map[string]int{"REQUEST_WEIGHT/MINUTE": 600, "ORDER/SECOND": 20, "ORDER/DAY": 350000}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("rateLimits %s = %d, want %d", k, got[k], v)
		}
	}
	for _, sym := range info.Symbols {
		if sym.Symbol == "BTCUSDT" {
			if f := sym.Filters[0]; f["filterType"] != "PRICE_FILTER" || f["tickSize"] != "0.01" {
				t.Errorf("BTCUSDT PRICE_FILTER = %v", f)
			}
			return
		}
	}
	t.Errorf("brokerInfo lists no BTCUSDT: %s", r.body)
}
