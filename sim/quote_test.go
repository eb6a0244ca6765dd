package sim

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

func get(t *testing.T, s *Server, path, query string) reply {
	t.Helper()
	return raw(t, s, "GET", path, query, "", "")
}

// Every quote endpoint answers its documented shape, and -1121 for a
// symbol it does not know.
func TestQuoteShapes(t *testing.T) {
	s := start(t, Options{})
	s.locked(s.marketStep)
	tests := []struct {
		path, query string
		keys        []string // keys of the object (or of the first element)
		array       bool
	}{
		{"/openapi/quote/v1/depth", "symbol=BTCUSDT", []string{"time", "bids", "asks"}, false},
		{"/openapi/quote/v1/trades", "symbol=BTCUSDT", []string{"price", "qty", "time", "isBuyerMaker"}, true},
		{"/openapi/quote/v1/ticker/24hr", "symbol=ETHUSDT", []string{"time", "symbol", "bestBidPrice", "bestAskPrice", "lastPrice", "openPrice", "highPrice", "lowPrice", "volume"}, false},
		{"/openapi/quote/v1/ticker/24hr", "", []string{"symbol", "lastPrice"}, true},
		{"/openapi/quote/v1/ticker/price", "symbol=ETHUSDT", []string{"price"}, false},
		{"/openapi/quote/v1/ticker/price", "", []string{"symbol", "price"}, true},
		{"/openapi/quote/v1/ticker/bookTicker", "symbol=ETHBTC", []string{"symbol", "bidPrice", "bidQty", "askPrice", "askQty"}, false},
		{"/openapi/quote/v1/ticker/bookTicker", "", []string{"symbol", "bidPrice"}, true},
		{"/openapi/v1/pairs", "", []string{"symbol", "quoteToken", "baseToken"}, true},
		{"/openapi/quote/v1/contract/index", "", []string{"index", "edp"}, false},
		{"/openapi/quote/v1/contract/depth", "symbol=ETH-PERP", []string{"bids", "asks"}, false},
		{"/openapi/quote/v1/contract/trades", "symbol=BTC-PERP-REV", []string{"price", "qty", "time", "isBuyerMaker"}, true},
		{"/openapi/v1/contracts", "", []string{"symbol", "quoteToken", "lastPrice", "bid", "ask", "high", "low", "baseVolume", "openInterest", "indexPrice", "index", "fundingRate", "nextFundingRate", "nextFundingRateTs"}, true},
		{"/openapi/contract/v1/fundingRate", "symbol=ETH-PERP", []string{"symbol", "intervalStart", "intervalEnd", "rate", "index"}, true},
		{"/openapi/contract/v1/fundingRate", "symbol=ETH-PERP&state=past&limit=3", []string{"symbol", "intervalStart", "intervalEnd", "rate", "index"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.path+"?"+tt.query, func(t *testing.T) {
			r := get(t, s, tt.path, tt.query)
			wantOK(t, r)
			var obj map[string]any
			if tt.array {
				var arr []map[string]any
				r.decode(t, &arr)
				if len(arr) == 0 {
					t.Fatalf("empty array %s", r.body)
				}
				obj = arr[0]
			} else {
				r.decode(t, &obj)
			}
			for _, k := range tt.keys {
				if _, ok := obj[k]; !ok {
					t.Errorf("%s lacks %q: %s", tt.path, k, r.body)
				}
			}
		})
	}
	// 26 hours of history stay near the start price (0.05 % steps, pulled back)
	var tick map[string]any
	get(t, s, "/openapi/quote/v1/ticker/24hr", "symbol=BTCUSDT").decode(t, &tick)
	if h, l := dec(str(tick["highPrice"])), dec(str(tick["lowPrice"])); h.GreaterThan(dec("70000")) || l.LessThan(dec("52000")) {
		t.Errorf("24 h range %s..%s strays far from 61234.56", l, h)
	}
	var idx struct{ Index, Edp map[string]string }
	get(t, s, "/openapi/quote/v1/contract/index", "symbol=BTCUSDT").decode(t, &idx)
	if len(idx.Index) != 1 || idx.Index["BTCUSDT"] == "" || idx.Edp["BTCUSDT"] == "" {
		t.Errorf("index of BTCUSDT = %+v", idx)
	}
	for _, q := range []struct{ path, query string }{
		{"/openapi/quote/v1/depth", "symbol=NOPE"},
		{"/openapi/quote/v1/depth", "symbol=ETH-PERP"},
		{"/openapi/quote/v1/contract/depth", "symbol=BTCUSDT"},
		{"/openapi/quote/v1/trades", "symbol=NOPE"},
		{"/openapi/quote/v1/klines", "symbol=NOPE&interval=1m"},
		{"/openapi/quote/v1/contract/klines", "symbol=ETHUSDT&interval=1m"},
		{"/openapi/quote/v1/ticker/24hr", "symbol=NOPE"},
		{"/openapi/quote/v1/ticker/price", "symbol=NOPE"},
		{"/openapi/quote/v1/ticker/bookTicker", "symbol=NOPE"},
		{"/openapi/quote/v1/contract/index", "symbol=NOPE"},
		{"/openapi/contract/v1/fundingRate", "symbol=BTCUSDT"},
	} {
		wantErr(t, q.path+"?"+q.query, get(t, s, q.path, q.query), http.StatusBadRequest, codeBadSymbol)
	}
	wantErr(t, "bad interval", get(t, s, "/openapi/quote/v1/klines", "symbol=BTCUSDT&interval=3m"), http.StatusBadRequest, codeBadInterval)
}

// brokerInfo lists the spot symbols and, under contracts, the contract
// fields valuation needs.
func TestBrokerInfoContracts(t *testing.T) {
	s := start(t, Options{})
	var info struct {
		Symbols   []map[string]any
		Contracts []map[string]any
	}
	get(t, s, "/openapi/v1/brokerInfo", "").decode(t, &info)
	if len(info.Symbols) != 7 || len(info.Contracts) != 2 {
		t.Fatalf("%d symbols, %d contracts", len(info.Symbols), len(info.Contracts))
	}
	for _, c := range info.Contracts {
		for _, k := range []string{"symbol", "baseAsset", "quoteAsset", "filters", "inverse", "index", "contractMultiplier", "marginToken", "riskLimits"} {
			if _, ok := c[k]; !ok {
				t.Errorf("contract %v lacks %q", c["symbol"], k)
			}
		}
	}
	rev := info.Contracts[0]
	if rev["symbol"] != "BTC-PERP-REV" || rev["inverse"] != true || rev["index"] != "BTCUSDT" || rev["marginToken"] != "BTC" || rev["contractMultiplier"] != "1" {
		t.Errorf("BTC-PERP-REV = %v", rev)
	}
}

// The depth is the book: levels sorted, the limit honoured (at most 100),
// and the best levels equal to bookTicker.
func TestQuoteDepthLimits(t *testing.T) {
	s := start(t, Options{})
	var d struct{ Bids, Asks [][2]string }
	get(t, s, "/openapi/quote/v1/depth", "symbol=BTCUSDT&limit=5").decode(t, &d)
	if len(d.Bids) != 5 || len(d.Asks) != 5 {
		t.Fatalf("limit 5: %d bids %d asks", len(d.Bids), len(d.Asks))
	}
	for i := 1; i < 5; i++ {
		if !dec(d.Bids[i][0]).LessThan(dec(d.Bids[i-1][0])) || !dec(d.Asks[i][0]).GreaterThan(dec(d.Asks[i-1][0])) {
			t.Errorf("levels out of order: %v %v", d.Bids, d.Asks)
		}
	}
	var bt map[string]string
	get(t, s, "/openapi/quote/v1/ticker/bookTicker", "symbol=BTCUSDT").decode(t, &bt)
	if bt["bidPrice"] != d.Bids[0][0] || bt["askPrice"] != d.Asks[0][0] || bt["bidQty"] != d.Bids[0][1] {
		t.Errorf("bookTicker %v, depth top %v %v", bt, d.Bids[0], d.Asks[0])
	}
	s.mu.Lock()
	for i := range 80 {
		s.symbols["BTCUSDT"].mkt.Rest(s.eng.NewOrder(engine.Buy, 100+int64(i), 1, nil))
	}
	s.mu.Unlock()
	get(t, s, "/openapi/quote/v1/depth", "symbol=BTCUSDT&limit=1000").decode(t, &d)
	if len(d.Bids) != 100 {
		t.Errorf("limit 1000 gave %d bids, want at most 100", len(d.Bids))
	}
	var tr []map[string]any
	get(t, s, "/openapi/quote/v1/trades", "symbol=BTCUSDT&limit=500").decode(t, &tr)
	if len(tr) != 60 {
		t.Errorf("trades limit 500 gave %d, want 60", len(tr))
	}
}

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// The documented weights count against the limit: the all-symbols ticker
// costs 40, a depth of 1000 levels 10. The clock stands still: the
// weight is counted per calendar minute, and on real time a run across
// a minute's end (likelier the slower the machine) started the count
// anew, so the 61st weight was served.
func TestQuoteWeights(t *testing.T) {
	s := start(t, Options{Now: newClock(1_760_000_000_000).Now, RateLimits: RateLimits{WeightPerMinute: 60}})
	wantOK(t, get(t, s, "/openapi/quote/v1/ticker/24hr", ""))
	wantOK(t, get(t, s, "/openapi/quote/v1/depth", "symbol=BTCUSDT&limit=1000"))
	wantOK(t, get(t, s, "/openapi/quote/v1/depth", "symbol=BTCUSDT&limit=500"))
	for range 5 {
		wantOK(t, get(t, s, "/openapi/quote/v1/ticker/price", "symbol=BTCUSDT"))
	}
	wantOK(t, get(t, s, "/openapi/quote/v1/contract/index", "")) // weight 0
	wantErr(t, "61st weight", get(t, s, "/openapi/quote/v1/trades", "symbol=BTCUSDT"), http.StatusTooManyRequests, codeTooManyRequests)
}

// Klines of every interval aggregate the same trades: each interval's
// volumes sum to the same total over the history.
func TestQuoteKlines(t *testing.T) {
	clock := newClock(1_760_000_000_000)
	s := start(t, Options{Now: clock.Now})
	rows := func(path, q string) [][]json.RawMessage {
		var out [][]json.RawMessage
		r := get(t, s, path, q)
		wantOK(t, r)
		r.decode(t, &out)
		return out
	}
	var want decimal.Decimal
	for _, iv := range append([]string{"1M"}, engine.Intervals...) {
		k := rows("/openapi/quote/v1/klines", "symbol=ETHUSDT&limit=1000&interval="+iv)
		if len(k) == 0 || len(k[0]) != 11 {
			t.Fatalf("%s: %d rows", iv, len(k))
		}
		var sum decimal.Decimal
		for _, row := range k {
			var v string
			_ = json.Unmarshal(row[5], &v)
			sum = sum.Add(dec(v))
		}
		if want.IsZero() {
			want = sum // 1M: the whole history
		}
		if iv == "1m" && len(k) != 1000 {
			t.Errorf("1m limit 1000: %d rows", len(k))
		}
		if len(k) < 1000 && !sum.Equal(want) {
			t.Errorf("%s volume %s, 1m %s", iv, sum, want)
		}
	}
	now := clock.Now().UnixMilli()
	start := now - 3*3600_000
	k := rows("/openapi/quote/v1/klines", "symbol=ETHUSDT&interval=1h&limit=2&startTime="+strconv.FormatInt(start, 10))
	var open int64
	_ = json.Unmarshal(k[0][0], &open)
	if len(k) != 2 || open < start || open >= start+3600_000 {
		t.Errorf("startTime: %d rows from %d, want 2 from the first hour opening at or after %d", len(k), open, start)
	}
	k = rows("/openapi/quote/v1/klines", "symbol=ETHUSDT&interval=5m&limit=3&endTime="+strconv.FormatInt(now-3600_000, 10))
	_ = json.Unmarshal(k[2][0], &open)
	if len(k) != 3 || open > now-3600_000 {
		t.Errorf("endTime: %d rows, last opens at %d", len(k), open)
	}
	k = rows("/openapi/quote/v1/contract/klines", "symbol=ETH-PERP&interval=15m&limit=4&to="+strconv.FormatInt(now, 10))
	if len(k) != 4 {
		t.Errorf("contract klines: %d rows, want 4", len(k))
	}
}

// --no-market-data: every quote endpoint is 404, the rest works.
func TestNoMarketData(t *testing.T) {
	s := start(t, Options{NoMarketData: true})
	for _, p := range []string{"/openapi/quote/v1/depth", "/openapi/quote/v1/ticker/24hr", "/openapi/v1/pairs", "/openapi/v1/contracts", "/openapi/quote/v1/contract/index", "/openapi/contract/v1/fundingRate"} {
		if r := get(t, s, p, "symbol=BTCUSDT"); r.status != http.StatusNotFound {
			t.Errorf("%s = %d, want 404", p, r.status)
		}
	}
	wantOK(t, get(t, s, "/openapi/v1/brokerInfo", ""))
}
