package market

import (
	"testing"

	"bhtop/rest"
)

// TestWants: a symbol is wanted when brokerInfo lists it and it is not
// shown; an asset when it is not the valuation asset and no shown
// symbol prices it directly. Nothing is wanted before the first session.
func TestWants(t *testing.T) {
	c, err := New(Config{REST: rest.New("http://127.0.0.1:1"), WSURL: "ws://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Wants([]string{"BTCUSDT"}, []string{"BTC"}) {
		t.Error("wanted before the first session")
	}
	c.store.SetInstruments(map[string]Instrument{"BTCUSDT": {}, "ETHBTC": {}, "ETHUSDT": {}, "XRPBTC": {}})
	c.follow([]string{"BTCUSDT"})
	for _, tc := range []struct {
		syms, assets []string
		want         bool
	}{
		{nil, nil, false},
		{[]string{"BTCUSDT"}, nil, false},
		{[]string{"BTCUSDT", "ETHBTC"}, nil, true},
		{[]string{"NOSUCH"}, nil, false},
		{nil, []string{"USDT", "BTC"}, false},
		{nil, []string{"ETH"}, true},
		{nil, []string{"XRP"}, true}, // through a bridge: Touched decides
	} {
		if got := c.Wants(tc.syms, tc.assets); got != tc.want {
			t.Errorf("Wants(%q, %q) = %v, want %v", tc.syms, tc.assets, got, tc.want)
		}
	}
}

// TestRecheckNeverBlocks: notices coalesce in one slot.
func TestRecheckNeverBlocks(t *testing.T) {
	c, err := New(Config{REST: rest.New("http://127.0.0.1:1"), WSURL: "ws://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	c.Recheck()
	c.Recheck()
	if n := len(c.recheckWake); n != 1 {
		t.Errorf("%d notices waiting, want 1", n)
	}
}
