package sim

import (
	"net/http"
	"strconv"
	"testing"

	"bhtop/signer"

	"github.com/shopspring/decimal"
)

// events collects the order events of a feed subscription in order.
func orderEvents(t *testing.T, ch <-chan []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for {
		select {
		case obj := <-ch:
			var m map[string]any
			decodeJSON(t, obj, &m)
			if e := m["e"]; e == "executionReport" || e == "contractExecutionReport" {
				out = append(out, m)
			}
		default:
			return out
		}
	}
}

// A marketable order walks the book: its fills are the tape's new trades
// (same prices, quantities, times and ids), the events carry t, and
// myTrades lists the same fills newest first.
func TestMarketableOrderMatchesTape(t *testing.T) {
	s := start(t, Options{})
	events, stop := s.feed.subscribe("1", 10000)
	defer stop()
	before := s.symbols["ETHUSDT"].mkt.TradeCount()
	r := signed(t, s, "POST", "/openapi/v1/order", "symbol=ETHUSDT&side=BUY&type=MARKET&quantity=3")
	wantOK(t, r)
	var fills []map[string]any
	for _, ev := range orderEvents(t, events) {
		if str(ev["l"]) != "0" {
			fills = append(fills, ev)
		}
	}
	var tape []map[string]any
	get(t, s, "/openapi/quote/v1/trades", "symbol=ETHUSDT&limit=60").decode(t, &tape)
	n := int(s.symbols["ETHUSDT"].mkt.TradeCount() - before)
	if n < 2 || len(fills) != n {
		t.Fatalf("%d tape trades, %d fill events; want the same number, at least 2 (the order walks levels)", n, len(fills))
	}
	tape = tape[len(tape)-n:]
	sum := decimal.Zero
	for i, f := range fills {
		if !decEq(str(f["L"]), str(tape[i]["price"])) || !decEq(str(f["l"]), str(tape[i]["qty"])) || str(f["E"]) != str(tape[i]["time"]) || tape[i]["isBuyerMaker"] != false {
			t.Errorf("fill %d = %s @ %s (E %s), tape %v", i, f["l"], f["L"], f["E"], tape[i])
		}
		if str(f["t"]) == "" {
			t.Errorf("fill event %d has no t", i)
		}
		sum = sum.Add(decimal.RequireFromString(str(f["l"])))
	}
	if !sum.Equal(decimal.NewFromInt(3)) || fills[len(fills)-1]["X"] != "FILLED" {
		t.Errorf("fills sum to %s, last %v; want 3 FILLED", sum, fills[len(fills)-1]["X"])
	}
	var mine []map[string]any
	signed(t, s, "GET", "/openapi/v1/myTrades", "symbol=ETHUSDT").decode(t, &mine)
	if len(mine) != n {
		t.Fatalf("myTrades has %d, want %d", len(mine), n)
	}
	for i, m := range mine {
		f := fills[n-1-i] // newest first
		if str(m["id"]) != str(f["t"]) || !decEq(str(m["qty"]), str(f["l"])) || !decEq(str(m["commission"]), str(f["n"])) || m["isBuyer"] != true || m["isMaker"] != false {
			t.Errorf("myTrades[%d] = %v, event %v", i, m, f)
		}
	}
	signed(t, s, "GET", "/openapi/v1/myTrades", "limit=1&toId="+str(mine[1]["id"])).decode(t, &mine)
	if len(mine) != 1 || str(mine[0]["id"]) != str(fills[n-2]["t"]) {
		t.Errorf("paging with toId = %v", mine)
	}
}

// A LIMIT_MAKER that would cross and an IOC that finds nothing end
// REJECTED, with nothing left locked.
func TestRejectedEvents(t *testing.T) {
	s := start(t, Options{})
	events, stop := s.feed.subscribe("1", 10000)
	defer stop()
	usdt := balanceOf(t, s, "USDT")
	wantErr(t, "crossing LIMIT_MAKER", signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&quantity=0.01&price=70000&newClientOrderId=lm"),
		http.StatusBadRequest, codeNewOrderRejected)
	r := signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=IOC&quantity=0.01&price=1000&newClientOrderId=ioc")
	wantOK(t, r)
	var rec map[string]any
	r.decode(t, &rec)
	if rec["status"] != "REJECTED" {
		t.Errorf("IOC that finds nothing: status %v", rec["status"])
	}
	last := map[string]string{}
	for _, ev := range orderEvents(t, events) {
		last[str(ev["c"])] = str(ev["X"])
	}
	if last["lm"] != "REJECTED" || last["ioc"] != "REJECTED" {
		t.Errorf("last events = %v, want both REJECTED", last)
	}
	if got := balanceOf(t, s, "USDT"); got != usdt {
		t.Errorf("USDT %v after rejections, want %v", got, usdt)
	}
}

// batchCancel cancels the contract orders of the symbols named (all
// without one), STOP orders included, and leaves spot orders alone.
func TestBatchCancel(t *testing.T) {
	s := start(t, Options{})
	for i, p := range []string{
		"symbol=ETH-PERP&side=BUY_OPEN&price=2000&quantity=1&leverage=5",
		"symbol=ETH-PERP&side=SELL_OPEN&price=4000&quantity=1&leverage=5",
		"symbol=ETH-PERP&side=BUY_OPEN&orderType=STOP&triggerPrice=3500&price=3600&quantity=1&leverage=5",
		"symbol=BTC-PERP-REV&side=BUY_OPEN&price=50000&quantity=10&leverage=5",
	} {
		wantOK(t, signed(t, s, "POST", "/openapi/contract/v1/order", p+"&clientOrderId=b"+strconv.Itoa(i)))
	}
	wantOK(t, signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=50000"))
	open := func(path string) int {
		var l []map[string]any
		signed(t, s, "GET", path, "limit=100").decode(t, &l)
		return len(l)
	}
	r := signed(t, s, "DELETE", "/openapi/contract/v1/order/batchCancel", "symbol=ETH-PERP")
	wantOK(t, r)
	var ans map[string]any
	r.decode(t, &ans)
	if ans["message"] != "success" || ans["timestamp"] == nil {
		t.Errorf("batchCancel answer = %v", ans)
	}
	if n := open("/openapi/contract/v1/openOrders"); n != 1 {
		t.Errorf("contract orders open after batchCancel of ETH-PERP = %d, want 1", n)
	}
	wantOK(t, signed(t, s, "DELETE", "/openapi/contract/v1/order/batchCancel", ""))
	if n := open("/openapi/contract/v1/openOrders"); n != 0 {
		t.Errorf("contract orders open after batchCancel = %d", n)
	}
	if n := open("/openapi/v1/openOrders"); n != 1 {
		t.Errorf("spot orders open = %d, want 1", n)
	}
	var acct map[string]map[string]string
	signed(t, s, "GET", "/openapi/contract/v1/account", "").decode(t, &acct)
	if u := acct["USDT"]; u["orderMargin"] != "0" || u["positionMargin"] != "0" || u["total"] == "" {
		t.Errorf("contract account = %v", acct)
	}
	wantErr(t, "bad symbol", signed(t, s, "DELETE", "/openapi/contract/v1/order/batchCancel", "symbol=BTCUSDT"), http.StatusBadRequest, codeBadSymbol)
}

// A STOP order waits off the book and executes when the last price
// reaches its trigger; its fills show in contract myTrades; margin can be
// added to the position it opened; positions report the mark.
func TestStopOrderTriggers(t *testing.T) {
	s := start(t, Options{})
	wantOK(t, signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&orderType=STOP&triggerPrice=3100&priceType=MARKET&quantity=2&leverage=10&clientOrderId=st"))
	rec := func() map[string]any {
		var m map[string]any
		signed(t, s, "GET", "/openapi/contract/v1/getOrder", "clientOrderId=st").decode(t, &m)
		return m
	}
	if m := rec(); m["status"] != "NEW" || m["orderType"] != "STOP" {
		t.Fatalf("stop before trigger = %v", m)
	}
	s.crossTo("ETH-PERP", "3050", "0")
	if m := rec(); m["status"] != "NEW" {
		t.Fatalf("stop at 3050 = %v, want still NEW", m)
	}
	s.crossTo("ETH-PERP", "3100", "0")
	if m := rec(); m["status"] != "FILLED" {
		t.Fatalf("stop after the price reached 3100 = %v, want FILLED", m)
	}
	var trades []map[string]string
	signed(t, s, "GET", "/openapi/contract/v1/myTrades", "symbol=ETH-PERP&limit=100").decode(t, &trades)
	sum := decimal.Zero
	for _, tr := range trades {
		sum = sum.Add(decimal.RequireFromString(tr["quantity"]))
		if tr["side"] != "BUY_OPEN" || tr["tradeId"] == "" || tr["symbolId"] != "ETH-PERP" {
			t.Errorf("contract trade = %v", tr)
		}
	}
	if !sum.Equal(decimal.NewFromInt(2)) {
		t.Errorf("contract myTrades sum to %s, want 2", sum)
	}
	var pos []map[string]string
	signed(t, s, "GET", "/openapi/contract/v1/positions", "").decode(t, &pos)
	s.mu.Lock()
	mark := s.symbols["ETH-PERP"].last().String()
	s.mu.Unlock()
	if len(pos) != 1 || pos[0]["lastPrice"] != mark {
		t.Fatalf("positions = %v, want lastPrice = mark %s", pos, mark)
	}
	margin := decimal.RequireFromString(pos[0]["margin"])
	r := signed(t, s, "POST", "/openapi/contract/v1/modifyMargin", "symbol=ETH-PERP&side=LONG&amount=25")
	wantOK(t, r)
	var mm map[string]any
	r.decode(t, &mm)
	if !decEq(str(mm["margin"]), margin.Add(decimal.NewFromInt(25)).String()) {
		t.Errorf("modifyMargin = %v, want margin %s+25", mm, margin)
	}
	wantOK(t, signed(t, s, "POST", "/openapi/contract/v1/modifyMargin", "symbol=ETH-PERP&side=LONG&amount=-25"))
	wantErr(t, "no short", signed(t, s, "POST", "/openapi/contract/v1/modifyMargin", "symbol=ETH-PERP&side=SHORT&amount=1"), http.StatusBadRequest, codeNewOrderRejected)
}

// Accounts are independent: an order of the second account touches
// neither the first one's balances nor its stream.
func TestAccountsIndependent(t *testing.T) {
	s := start(t, Options{Accounts: 2})
	acc := s.Accounts(DemoSecret)
	if len(acc) != 2 || acc[0].APIKey != DemoAPIKey || acc[1].APIKey == DemoAPIKey {
		t.Fatalf("accounts = %v", acc)
	}
	first, stop1 := s.feed.subscribe("1", 100)
	defer stop1()
	second, stop2 := s.feed.subscribe("2", 100)
	defer stop2()
	before := balanceOf(t, s, "USDT")
	q := "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=50000&timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10)
	q += "&signature=" + signer.Sign(signer.NewSecret(acc[1].SecretKey), q)
	wantOK(t, raw(t, s, "POST", "/openapi/v1/order", q, "", acc[1].APIKey))
	if got := balanceOf(t, s, "USDT"); got != before {
		t.Errorf("first account's USDT moved: %v -> %v", before, got)
	}
	if got := s.AccountTruth(acc[1].APIKey)["USDT"]; !decEq(got[1], "500") {
		t.Errorf("second account's USDT locked = %s, want 500", got[1])
	}
	if n := len(orderEvents(t, first)); n != 0 {
		t.Errorf("first account's stream got %d order events", n)
	}
	if n := len(orderEvents(t, second)); n != 1 {
		t.Errorf("second account's stream got %d order events, want 1", n)
	}
}
