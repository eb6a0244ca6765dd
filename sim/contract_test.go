package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

func TestContractPositions(t *testing.T) {
	s := start(t, Options{})
	events, stop := s.feed.subscribe("1", 10000)
	defer stop()
	usdt0 := decimal.RequireFromString(balanceOf(t, s, "USDT")[0])
	order := func(params string) map[string]any {
		t.Helper()
		return signedOK(t, s, "POST", "/openapi/contract/v1/order", params)
	}
	positions := func() []map[string]any {
		var p []map[string]any
		signed(t, s, "GET", "/openapi/contract/v1/positions", "").decode(t, &p)
		return p
	}
	// open 2 at 3011.5, leverage 10: margin 602.3, fee 6.023
	s.quoteBook("ETH-PERP", "3011.4", "3011.5", "100")
	o := order("symbol=ETH-PERP&side=BUY_OPEN&orderType=LIMIT&priceType=MARKET&quantity=2&leverage=10&clientOrderId=c1")
	if o["status"] != "FILLED" || o["side"] != "BUY_OPEN" {
		t.Fatalf("open = %v", o)
	}
	if id, ok := o["orderId"].(json.Number); !ok || id.String() != "469961015902208001" {
		t.Errorf("contract orderId = %#v, want the JSON number 469961015902208001 (beyond 2^53)", o["orderId"])
	}
	p := positions()
	if len(p) != 1 || p[0]["side"] != "LONG" || p[0]["position"] != "2" || !decEq(p[0]["margin"].(string), "602.3") || !decEq(p[0]["avgPrice"].(string), "3011.5") {
		t.Fatalf("positions after open = %v", p)
	}
	// add 2 at 3111.5: average 3061.5
	s.crossTo("ETH-PERP", "3111.5", "0")
	s.quoteBook("ETH-PERP", "3111.4", "3111.5", "100")
	order("symbol=ETH-PERP&side=BUY_OPEN&priceType=MARKET&quantity=2&leverage=10&clientOrderId=c2")
	if p = positions(); !decEq(p[0]["avgPrice"].(string), "3061.5") || p[0]["position"] != "4" {
		t.Fatalf("positions after add = %v", p)
	}
	// a resting close reserves the position; canceling gives it back
	order("symbol=ETH-PERP&side=SELL_CLOSE&price=4000&quantity=1&clientOrderId=c3")
	if p = positions(); p[0]["available"] != "3" {
		t.Errorf("available with a resting close = %v, want 3", p[0]["available"])
	}
	wantErr(t, "close more than available", signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=SELL_CLOSE&price=4000&quantity=3.5&clientOrderId=c4"),
		http.StatusBadRequest, codeNewOrderRejected)
	r := signed(t, s, "DELETE", "/openapi/contract/v1/order/cancel", "clientOrderId=c3&orderType=LIMIT")
	wantOK(t, r)
	if p = positions(); p[0]["available"] != "4" {
		t.Errorf("available after cancel = %v, want 4", p[0]["available"])
	}
	// close 1 at 3161.5: PnL 100 (1 × (3161.5 - 3061.5))
	s.crossTo("ETH-PERP", "3161.5", "0")
	s.quoteBook("ETH-PERP", "3161.5", "3161.6", "100")
	order("symbol=ETH-PERP&side=SELL_CLOSE&priceType=MARKET&quantity=1&clientOrderId=c5")
	if p = positions(); p[0]["position"] != "3" || !decEq(p[0]["realizedPnL"].(string), "100") {
		t.Errorf("after partial close = %v", p)
	}
	// close the rest: PnL 300 more, nothing left
	order("symbol=ETH-PERP&side=SELL_CLOSE&priceType=MARKET&quantity=3&clientOrderId=c6")
	if p = positions(); len(p) != 0 {
		t.Errorf("positions after closing all = %v", p)
	}
	usdt := balanceOf(t, s, "USDT")
	fees := decimal.RequireFromString("6.023").Add(decimal.RequireFromString("6.223")).Add(decimal.RequireFromString("3.1615")).Add(decimal.RequireFromString("9.4845"))
	if want := usdt0.Add(decimal.NewFromInt(400)).Sub(fees); !decEq(usdt[0], want.String()) || !decEq(usdt[1], "0") {
		t.Errorf("USDT after round trip = %v, want free %s locked 0", usdt, want)
	}
	tr := drain(t, events)
	checkStream(t, s, tr)
	pos := tr.positions["ETH-PERP/LONG"]
	if pos == nil || pos["P"] != "0" || !decEq(pos["r"].(string), "400") || pos["A"] != "1" {
		t.Errorf("last position event = %v, want P 0 r 400 A 1", pos)
	}
	var ev map[string]any
	for _, e := range tr.orders {
		if e["c"] == "c6" {
			ev = e
		}
	}
	if ev == nil || ev["C"] != true || ev["S"] != "SELL" || ev["v"] != "10" || ev["X"] != "FILLED" {
		t.Errorf("close order event = %v", ev)
	}

	// inverse contract: 100 contracts of 1 USD at 61230 with leverage 20
	s.quoteBook("BTC-PERP-REV", "61230", "61230.5", "100000")
	order("symbol=BTC-PERP-REV&side=SELL_OPEN&priceType=MARKET&quantity=100&leverage=20&clientOrderId=r1")
	if p = positions(); len(p) != 1 || p[0]["side"] != "SHORT" || !decEq(p[0]["margin"].(string), "0.00008166") {
		t.Errorf("inverse short = %v", p)
	}
	checkStream(t, s, drain(t, events))
	wantErr(t, "contract order without clientOrderId", signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&priceType=MARKET&quantity=1&leverage=10"),
		http.StatusBadRequest, codeMandatoryParam)
	wantErr(t, "open without leverage", signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&priceType=MARKET&quantity=1&clientOrderId=x"),
		http.StatusBadRequest, codeMandatoryParam)
	wantErr(t, "stop order without trigger price", signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&orderType=STOP&price=1&quantity=1&leverage=5&clientOrderId=x"),
		http.StatusBadRequest, codeMandatoryParam)
	wantErr(t, "unknown order type", signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&orderType=TRAILING&price=1&quantity=1&leverage=5&clientOrderId=x"),
		http.StatusBadRequest, codeInvalidOrderType)
}

// OrderErrorRate answers order requests with a 5XX, with or without the
// order taking effect.
func TestOrderFaults(t *testing.T) {
	for _, effect := range []bool{false, true} {
		s := start(t, Options{Faults: Faults{OrderErrorRate: 1, OrderErrorTakesEffect: effect}})
		r := signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=50000&newClientOrderId=f1")
		wantErr(t, "faulty order", r, http.StatusGatewayTimeout, codeTimeout)
		q := signed(t, s, "GET", "/openapi/v1/order", "origClientOrderId=f1")
		if got := q.status == http.StatusOK; got != effect {
			t.Errorf("takes effect %v: query after 504 = %d %s", effect, q.status, q.body)
		}
		wantOK(t, signed(t, s, "GET", "/openapi/v1/account", "")) // other requests are unaffected
	}
}

func TestRequestLog(t *testing.T) {
	var log bytes.Buffer
	s := start(t, Options{RequestLog: &log})
	signed(t, s, "GET", "/openapi/v1/account", "")
	raw(t, s, "GET", "/openapi/v1/account", "timestamp=1", "", "")
	raw(t, s, "POST", "/openapi/v1/order/test", "", "symbol=ETHBTC", "")
	_ = s.Close()
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 3 {
		t.Fatalf("log has %d lines, want 3:\n%s", len(lines), log.String())
	}
	var l [3]map[string]any
	for i, line := range lines {
		if err := json.Unmarshal([]byte(line), &l[i]); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
	}
	if l[0]["status"] != 200.0 || l[0]["code"] != nil || l[0]["apiKey"] != true || l[0]["path"] != "/openapi/v1/account" || !strings.Contains(l[0]["query"].(string), "signature=") {
		t.Errorf("first line = %v", l[0])
	}
	if l[1]["status"] != 401.0 || l[1]["code"] != -1002.0 || l[1]["apiKey"] != false {
		t.Errorf("second line = %v", l[1])
	}
	if l[2]["body"] != "symbol=ETHBTC" || l[2]["method"] != "POST" {
		t.Errorf("third line = %v", l[2])
	}
	if strings.Contains(log.String(), DemoSecret) {
		t.Errorf("the log holds the secret")
	}
}
