package sim

import (
	"net/http"
	"strconv"
	"testing"

	"bhtop/signer"
)

const exampleTS = 1538323200000

// The three worked examples of API-FACTS.md, sent exactly as signed there,
// against the docs' key pair with the clock pinned to their timestamp.
func TestWorkedExamples(t *testing.T) {
	s := start(t, Options{Now: newClock(exampleTS).Now})
	const all = "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000"
	const sig = "5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6"
	const split = "885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa"
	tests := []struct {
		name, query, body string
	}{
		{"query", all + "&signature=" + sig, ""},
		{"body", "", all + "&signature=" + sig},
		{"split", "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC", "quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=" + split},
		{"split, signature in query", "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&signature=" + split, "quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := raw(t, s, "POST", "/openapi/v1/order", tt.query, tt.body, DemoAPIKey)
			wantOK(t, r)
		})
	}
	bad := []struct {
		name, query, body string
	}{
		{"changed param", "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=2&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=" + sig, ""},
		{"changed signature", all + "&signature=6f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6", ""},
		{"split signed as joined", "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC", "quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000&signature=" + sig},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			r := raw(t, s, "POST", "/openapi/v1/order", tt.query, tt.body, DemoAPIKey)
			wantErr(t, tt.name, r, http.StatusBadRequest, codeInvalidSignature)
		})
	}
}

func TestAuthErrors(t *testing.T) {
	tradeOnly := Key{APIKey: "trade-only", Secret: signer.NewSecret("s1"), Perms: []string{"TRADE"}}
	noTrade := Key{APIKey: "no_trade", Secret: signer.NewSecret("s2"), Perms: []string{"USER_DATA", "USER_STREAM"}}
	s := start(t, Options{Keys: []Key{{APIKey: DemoAPIKey, Secret: signer.NewSecret(DemoSecret)}, tradeOnly, noTrade}})
	signedBy := func(k Key, q string) string {
		q += "&timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10)
		return q + "&signature=" + signer.Sign(k.Secret, q)
	}
	tests := []struct {
		name, method, path, query, key string
		status, code                   int
	}{
		{"missing key", "GET", "/openapi/v1/account", signedBy(s.opts.Keys[0], "a=1"), "", 401, codeUnauthorized},
		{"malformed key", "GET", "/openapi/v1/account", signedBy(s.opts.Keys[0], "a=1"), "bad key!", 401, codeBadAPIKeyFmt},
		{"too long key", "GET", "/openapi/v1/account", signedBy(s.opts.Keys[0], "a=1"), repeat("k", 257), 401, codeBadAPIKeyFmt},
		{"unknown key", "GET", "/openapi/v1/account", signedBy(s.opts.Keys[0], "a=1"), "nobody", 401, codeRejectedKey},
		{"trade key reading account", "GET", "/openapi/v1/account", signedBy(tradeOnly, "a=1"), tradeOnly.APIKey, 401, codeRejectedKey},
		{"trade key on user stream", "POST", "/openapi/v1/userDataStream", signedBy(tradeOnly, "a=1"), tradeOnly.APIKey, 401, codeRejectedKey},
		{"no-trade key placing", "POST", "/openapi/v1/order", signedBy(noTrade, "symbol=ETHBTC"), noTrade.APIKey, 401, codeRejectedKey},
		{"no-trade key reading account", "GET", "/openapi/v1/account", signedBy(noTrade, "a=1"), noTrade.APIKey, 200, 0},
		{"wrong secret", "GET", "/openapi/v1/account", signedBy(tradeOnly, "a=1"), DemoAPIKey, 400, codeInvalidSignature},
		{"no signature", "GET", "/openapi/v1/account", "timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10), DemoAPIKey, 400, codeMandatoryParam},
		{"no timestamp", "GET", "/openapi/v1/account", "a=1&signature=" + signer.Sign(s.Secret(), "a=1"), DemoAPIKey, 400, codeMandatoryParam},
		{"open endpoint without key", "GET", "/openapi/v1/time", "", "", 200, 0},
		{"unknown path", "GET", "/openapi/v1/nothing", "", "", 404, codeUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := raw(t, s, tt.method, tt.path, tt.query, "", tt.key)
			wantErr(t, tt.name, r, tt.status, tt.code)
		})
	}
}

func repeat(s string, n int) string {
	b := make([]byte, 0, n*len(s))
	for range n {
		b = append(b, s...)
	}
	return string(b)
}

// The timing rule: timestamp < serverTime+1000 and serverTime-timestamp
// <= recvWindow, with the request's recvWindow only for order creation.
func TestTimingRule(t *testing.T) {
	clock := newClock(exampleTS)
	s := start(t, Options{Now: clock.Now, Skew: 1234})
	now := s.Now().UnixMilli()
	send := func(path, method, params string, ts int64) reply {
		q := params + "timestamp=" + strconv.FormatInt(ts, 10)
		q += "&signature=" + signer.Sign(s.Secret(), q)
		return raw(t, s, method, path, q, "", s.APIKey())
	}
	order := "symbol=ETHBTC&side=SELL&type=LIMIT&quantity=0.01&price=0.09&"
	tests := []struct {
		name, method, path, params string
		ts                         int64
		code                       int
	}{
		{"now", "GET", "/openapi/v1/account", "", now, 0},
		{"999 ms ahead", "GET", "/openapi/v1/account", "", now + 999, 0},
		{"1000 ms ahead", "GET", "/openapi/v1/account", "", now + 1000, codeInvalidTimestamp},
		{"5000 ms old", "GET", "/openapi/v1/account", "", now - 5000, 0},
		{"5001 ms old", "GET", "/openapi/v1/account", "", now - 5001, codeInvalidTimestamp},
		{"recvWindow ignored outside order creation", "GET", "/openapi/v1/account", "recvWindow=10000&", now - 9000, codeInvalidTimestamp},
		{"order within its recvWindow", "POST", "/openapi/v1/order", order + "recvWindow=10000&", now - 9000, 0},
		{"order outside its recvWindow", "POST", "/openapi/v1/order", order + "recvWindow=100&", now - 101, codeInvalidTimestamp},
		{"order 1000 ms ahead", "POST", "/openapi/v1/order", order, now + 1000, codeInvalidTimestamp},
		{"user stream old", "POST", "/openapi/v1/userDataStream", "", now - 5001, codeInvalidTimestamp},
		{"open endpoint carrying a bad timestamp", "GET", "/openapi/v1/time", "", now - 6000, codeInvalidTimestamp},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := send(tt.path, tt.method, tt.params, tt.ts)
			if got := r.code(); got != tt.code {
				t.Errorf("%s %s ts=now%+d = %d %s, want code %d", tt.method, tt.path, tt.ts-now, r.status, r.body, tt.code)
			}
		})
	}
}
