package api

import (
	"strings"
	"testing"
)

func TestEndpointsOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		if seen[e.Key()] {
			t.Errorf("%s listed twice", e.Key())
		}
		seen[e.Key()] = true
		if !strings.HasPrefix(e.Path, "/openapi/") {
			t.Errorf("%s: path outside /openapi/", e.Key())
		}
		if e.Changing && e.Security != Trade {
			t.Errorf("%s changes orders but is not TRADE", e.Key())
		}
		if e.Order && !e.Changing {
			t.Errorf("%s counts toward ORDER but changes no order", e.Key())
		}
		if e.Market && e.Security != None {
			t.Errorf("%s: market data must be open", e.Key())
		}
		if got, ok := Lookup(e.Method, e.Path); !ok || got.Key() != e.Key() {
			t.Errorf("Lookup(%s) = %v, %v", e.Key(), got.Key(), ok)
		}
	}
	if _, ok := Lookup("GET", "/openapi/v1/nothing"); ok {
		t.Error("Lookup found an endpoint not in the table")
	}
}

// The ORDER limit counts placing and cancelling, nothing else.
func TestOrderCounting(t *testing.T) {
	want := map[string]bool{NewOrder.Key(): true, CancelOrder.Key(): true, ContractOrder.Key(): true,
		ContractCancel.Key(): true, ContractBatchCancel.Key(): true}
	for _, e := range All() {
		if e.Order != want[e.Key()] {
			t.Errorf("%s: Order = %v, want %v", e.Key(), e.Order, want[e.Key()])
		}
	}
}

func TestWeightOf(t *testing.T) {
	q := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		e    Endpoint
		get  func(string) string
		want int
	}{
		{Ticker24h, q("symbol", "BTCUSDT"), 1},
		{Ticker24h, q(), 40},
		{Depth, q("symbol", "BTCUSDT"), 1},
		{Depth, q("limit", "100"), 1},
		{Depth, q("limit", "101"), 5},
		{Depth, q("limit", "500"), 5},
		{Depth, q("limit", "501"), 10},
		{ContractDepth, q("limit", "1000"), 10},
		{Account, q(), 5},
		{Ping, q(), 0},
	}
	for _, c := range cases {
		if got := c.e.WeightOf(c.get); got != c.want {
			t.Errorf("%s WeightOf = %d, want %d", c.e.Key(), got, c.want)
		}
	}
}

func TestSecurity(t *testing.T) {
	for _, c := range []struct {
		s             Security
		name          string
		keyed, signed bool
	}{
		{None, "NONE", false, false}, {UserStream, "USER_STREAM", true, false},
		{UserData, "USER_DATA", true, true}, {Trade, "TRADE", true, true},
	} {
		if c.s.String() != c.name || c.s.Keyed() != c.keyed || c.s.Signed() != c.signed {
			t.Errorf("%v: got %s keyed %v signed %v", c.name, c.s, c.s.Keyed(), c.s.Signed())
		}
	}
	if !NewOrder.HasParam("timestamp") || Ping.HasParam("timestamp") || !Depth.HasParam("limit") {
		t.Error("HasParam")
	}
}

func TestCodes(t *testing.T) {
	if CodeName(CodeTooManyOrders) != "TOO_MANY_ORDERS" || CodeName(1) != "" {
		t.Error("CodeName")
	}
	if !Open(StatusNew) || !Open(StatusPartiallyFilled) || Open(StatusFilled) || Open(StatusCanceled) {
		t.Error("Open")
	}
}
