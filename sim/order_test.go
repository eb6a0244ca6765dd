package sim

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/shopspring/decimal"

	"bhtop/internal/testkit"
)

// truth is what the user stream said, folded: the last event of each
// order, the last value of each balance and position.
type truth struct {
	orders    map[string]map[string]any // order id -> last execution report
	balances  map[string][2]string      // asset -> free, locked
	positions map[string]map[string]any // symbol/side -> last position event
	events    int
}

func drain(t testing.TB, ch <-chan []byte) truth {
	t.Helper()
	tr := truth{orders: map[string]map[string]any{}, balances: map[string][2]string{}, positions: map[string]map[string]any{}}
	for {
		select {
		case obj := <-ch:
			tr.events++
			var m map[string]any
			decodeJSON(t, obj, &m)
			switch m["e"] {
			case "executionReport", "contractExecutionReport":
				tr.orders[str(m["i"])] = m
			case "outboundAccountInfo":
				for _, b := range m["B"].([]any) {
					bm := b.(map[string]any)
					tr.balances[bm["a"].(string)] = [2]string{bm["f"].(string), bm["l"].(string)}
				}
			case "outboundContractPositionInfo":
				tr.positions[str(m["s"])+"/"+str(m["S"])] = m
			default:
				t.Fatalf("unknown event %s", obj)
			}
		default:
			return tr
		}
	}
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		return v.String()
	}
	return ""
}

func decEq(a, b string) bool { return testkit.DecEqual(a, b) }

// checkStream compares the folded stream with REST truth: every balance
// the stream mentioned, and every order it reported.
func checkStream(t *testing.T, s *Server, tr truth) {
	t.Helper()
	var acct struct {
		Balances []struct{ Asset, Free, Locked string }
	}
	signed(t, s, "GET", "/openapi/v1/account", "").decode(t, &acct)
	rest := map[string][2]string{}
	for _, b := range acct.Balances {
		rest[b.Asset] = [2]string{b.Free, b.Locked}
	}
	for asset, got := range tr.balances {
		want := rest[asset]
		if !decEq(got[0], want[0]) || !decEq(got[1], want[1]) {
			t.Errorf("stream balance %s = %v, REST %v", asset, got, want)
		}
	}
	for id, ev := range tr.orders {
		path, param := "/openapi/v1/order", "orderId="
		if ev["e"] == "contractExecutionReport" {
			path = "/openapi/contract/v1/getOrder"
		}
		var rec struct {
			Status, ExecutedQty, AvgPrice string
			CummulativeQuoteQty           string
		}
		r := signed(t, s, "GET", path, param+id)
		wantOK(t, r)
		r.decode(t, &rec)
		if str(ev["X"]) != rec.Status || !decEq(str(ev["z"]), rec.ExecutedQty) {
			t.Errorf("order %s: stream X=%s z=%s, REST %s %s", id, ev["X"], ev["z"], rec.Status, rec.ExecutedQty)
		}
		if rec.CummulativeQuoteQty != "" && !decEq(str(ev["Z"]), rec.CummulativeQuoteQty) {
			t.Errorf("order %s: stream Z=%s, REST %s", id, ev["Z"], rec.CummulativeQuoteQty)
		}
	}
}

func orderRec(t *testing.T, s *Server, params string) map[string]any {
	t.Helper()
	return signedOK(t, s, "GET", "/openapi/v1/order", params)
}

func balanceOf(t *testing.T, s *Server, asset string) [2]string {
	t.Helper()
	return s.AccountTruth(s.APIKey())[asset]
}

func TestSpotOrderLifecycle(t *testing.T) {
	s := start(t, Options{})
	events, stop := s.feed.subscribe("1", 10000)
	defer stop()
	usdt0 := balanceOf(t, s, "USDT")

	r := signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=60000&newClientOrderId=my-1")
	wantOK(t, r)
	var placed struct {
		OrderID       json.Number
		ClientOrderID string
		Status        string
	}
	r.decode(t, &placed)
	if placed.ClientOrderID != "my-1" || placed.Status != "NEW" {
		t.Fatalf("placed = %+v, want my-1 NEW", placed)
	}
	if got := balanceOf(t, s, "USDT"); !decEq(got[1], "600") {
		t.Errorf("USDT locked after placing = %s, want 600", got[1])
	}
	wantErr(t, "reused client order id", signed(t, s, "POST", "/openapi/v1/order", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=60000&newClientOrderId=my-1"),
		http.StatusBadRequest, codeOrderDuplicated)

	s.crossTo("BTCUSDT", "59999", "0.004")
	rec := orderRec(t, s, "origClientOrderId=my-1")
	if rec["status"] != "PARTIALLY_FILLED" || rec["executedQty"] != "0.004" {
		t.Errorf("after partial fill: %v %v, want PARTIALLY_FILLED 0.004", rec["status"], rec["executedQty"])
	}
	checkStream(t, s, drain(t, events))

	s.crossTo("BTCUSDT", "59990", "1")
	rec = orderRec(t, s, "orderId="+placed.OrderID.String())
	if rec["status"] != "FILLED" || rec["executedQty"] != "0.01" || !decEq(str(rec["avgPrice"]), "60000") {
		t.Errorf("after fill: %v %v avg %v, want FILLED 0.01 60000", rec["status"], rec["executedQty"], rec["avgPrice"])
	}
	usdt := balanceOf(t, s, "USDT")
	if want := decimal.RequireFromString(usdt0[0]).Sub(decimal.NewFromInt(600)); !decEq(usdt[0], want.String()) || !decEq(usdt[1], "0") {
		t.Errorf("USDT after fill = %v, want free %s locked 0", usdt, want)
	}
	tr := drain(t, events)
	checkStream(t, s, tr)
	if ev := tr.orders[placed.OrderID.String()]; str(ev["N"]) != "BTC" || !decEq(str(ev["n"]), "0.0000048") || ev["m"] != true {
		t.Errorf("fill event commission %v %v maker %v, want 0.0000048 BTC maker", ev["n"], ev["N"], ev["m"])
	}
	wantErr(t, "cancel of filled order", signed(t, s, "DELETE", "/openapi/v1/order", "clientOrderId=my-1"), http.StatusBadRequest, codeOrderFilled)

	// a resting sell, canceled: the lock comes back
	eth0 := balanceOf(t, s, "ETH")
	r = signed(t, s, "POST", "/openapi/v1/order", "symbol=ETHUSDT&side=SELL&type=LIMIT&quantity=1.5&price=4000")
	wantOK(t, r)
	r.decode(t, &placed)
	if got := balanceOf(t, s, "ETH"); !decEq(got[1], "1.5") {
		t.Errorf("ETH locked = %s, want 1.5", got[1])
	}
	r = signed(t, s, "DELETE", "/openapi/v1/order", "orderId="+placed.OrderID.String())
	wantOK(t, r)
	if got := balanceOf(t, s, "ETH"); got != eth0 {
		t.Errorf("ETH after cancel = %v, want %v", got, eth0)
	}
	wantErr(t, "second cancel", signed(t, s, "DELETE", "/openapi/v1/order", "orderId="+placed.OrderID.String()), http.StatusBadRequest, codeOrderCanceled)
	wantErr(t, "cancel of unknown", signed(t, s, "DELETE", "/openapi/v1/order", "orderId=42"), http.StatusBadRequest, codeNoSuchOrder)
	wantErr(t, "query of unknown", signed(t, s, "GET", "/openapi/v1/order", "origClientOrderId=nope"), http.StatusBadRequest, codeNoSuchOrder)

	// a taker order fills at once at the market price
	r = signed(t, s, "POST", "/openapi/v1/order", "symbol=ETHBTC&side=BUY&type=MARKET&quantity=2")
	wantOK(t, r)
	r.decode(t, &placed)
	if placed.Status != "FILLED" {
		t.Errorf("market order status = %s, want FILLED", placed.Status)
	}
	var open, hist []map[string]any
	signed(t, s, "GET", "/openapi/v1/openOrders", "").decode(t, &open)
	signed(t, s, "GET", "/openapi/v1/historyOrders", "limit=2").decode(t, &hist)
	if len(open) != 0 || len(hist) != 2 || hist[1]["type"] != "MARKET" {
		t.Errorf("open %d history %v, want 0 open and the last 2 closed", len(open), hist)
	}
	checkStream(t, s, drain(t, events))
}

func TestOrderValidation(t *testing.T) {
	s := start(t, Options{})
	tests := []struct {
		name, params string
		code         int
	}{
		{"bad symbol", "symbol=NOPE&side=BUY&type=LIMIT&quantity=1&price=1", codeBadSymbol},
		{"contract symbol on spot", "symbol=ETH-PERP&side=BUY&type=LIMIT&quantity=1&price=1", codeBadSymbol},
		{"bad side", "symbol=BTCUSDT&side=HOLD&type=LIMIT&quantity=0.01&price=60000", codeInvalidSide},
		{"bad type", "symbol=BTCUSDT&side=BUY&type=STOP_LOSS&quantity=0.01&price=60000", codeInvalidOrderType},
		{"bad tif", "symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=DAY&quantity=0.01&price=60000", codeInvalidTIF},
		{"no quantity", "symbol=BTCUSDT&side=BUY&type=LIMIT&price=60000", codeMandatoryParam},
		{"no price", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01", codeMandatoryParam},
		{"malformed quantity", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1e-2&price=60000", codeIllegalChars},
		{"quantity precision", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.0100001&price=60000", codeBadPrecision},
		{"price precision", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.01&price=60000.001", codeBadPrecision},
		{"below min quantity", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.00001&price=60000", codeFilterFailure},
		{"below min notional", "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.0001&price=60000", codeFilterFailure},
		{"contract tick", "symbol=ETHBTC&side=BUY&type=LIMIT&quantity=1&price=0", codeFilterFailure},
		{"insufficient balance", "symbol=BTCUSDT&side=SELL&type=LIMIT&quantity=99&price=70000", codeNewOrderRejected},
		{"limit maker would take", "symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&quantity=0.01&price=70000", codeNewOrderRejected},
		{"fine", "symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&quantity=0.01&price=50000", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := signed(t, s, "POST", "/openapi/v1/order", tt.params)
			if got := r.code(); got != tt.code {
				t.Errorf("order %s = %d %s, want code %d", tt.params, r.status, r.body, tt.code)
			}
		})
	}
}

// The synthetic market walks and, in time, fills a resting order near it.
func TestMarketFillsRestingOrders(t *testing.T) {
	s := start(t, Options{Seed: 3})
	s.mu.Lock()
	price := s.symbols["LTCUSDT"].last().Sub(decimal.RequireFromString("0.05"))
	s.mu.Unlock()
	r := signed(t, s, "POST", "/openapi/v1/order", "symbol=LTCUSDT&side=BUY&type=LIMIT&quantity=2&price="+price.String())
	wantOK(t, r)
	var placed struct{ OrderID json.Number }
	r.decode(t, &placed)
	seen := map[string]bool{}
	for range 2000 {
		s.locked(s.marketStep)
		st := orderRec(t, s, "orderId="+placed.OrderID.String())["status"].(string)
		seen[st] = true
		if st == "FILLED" {
			break
		}
	}
	if !seen["FILLED"] {
		t.Errorf("statuses seen while the market walked: %v, want FILLED in the end", seen)
	}
}
