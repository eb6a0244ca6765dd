package sim

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/api"
)

// TestExchangeWithoutHTTP: the exchange alone — no server, no request —
// places a resting order locking its funds, fills it when the market
// crosses its price, and publishes the account events to its feed.
func TestExchangeWithoutHTTP(t *testing.T) {
	opts := Options{Now: func() time.Time { return time.UnixMilli(1_700_000_000_000) }}
	x := newExchange(&opts)
	events, stop := x.feed.subscribe(x.demo.id, 64)
	defer stop()
	usdt := x.demo.balances["USDT"].free
	o := &order{acct: x.demo, sym: x.symbols["BTCUSDT"], side: "BUY", typ: "LIMIT", tif: "GTC",
		qty: decimal.RequireFromString("0.01"), price: decimal.RequireFromString("60000")}
	x.mu.Lock()
	e := x.placeSpot(o, x.nowMs())
	x.mu.Unlock()
	if e != nil {
		t.Fatalf("placeSpot: %d %s", e.code, e.msg)
	}
	if o.status != api.StatusNew || !x.demo.balances["USDT"].locked.Equal(decimal.RequireFromString("600")) {
		t.Fatalf("after placing: status %s, locked %s", o.status, x.demo.balances["USDT"].locked)
	}
	x.crossTo("BTCUSDT", "59999", "1")
	if o.status != api.StatusFilled {
		t.Fatalf("after the market crossed: status %s", o.status)
	}
	if got := x.demo.balances["USDT"].free; !got.Equal(usdt.Sub(decimal.RequireFromString("600"))) {
		t.Errorf("USDT free = %s, want %s less 600", got, usdt)
	}
	if len(events) == 0 {
		t.Error("no account events published")
	}
}
