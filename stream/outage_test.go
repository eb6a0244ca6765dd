package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestOrderFilledDuringOutageIsKnown: an order placed and filled while
// the user data stream is down (the simulator cuts and refuses it; REST
// answers) is known after the resync as a closed order with its true
// status, executed quantity and Z (avgPrice Z/z), in the snapshot and
// in the dump, not only as fills of an order found nowhere.
func TestOrderFilledDuringOutageIsKnown(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{MarketInterval: -1}, Config{BackoffBase: 20 * time.Millisecond,
		BackoffCap: 100 * time.Millisecond}, true)
	f.srv.SetUserStreamDown(true)
	testkit.Eventually(t, 5*time.Second, func() bool { return f.s.Status().State != StateLive },
		"the session notices the outage")

	ctx := context.Background()
	res := rest.NewTrader(f.rest).PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.05"})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("order: %+v", res)
	}
	want, err := f.rest.QueryOrder(ctx, rest.OrderQuery{OrderID: res.OrderID})
	if err != nil || want.Status != "FILLED" {
		t.Fatalf("order %s: %+v, %v; want it FILLED", res.OrderID, want, err)
	}
	f.srv.SetUserStreamDown(false)

	var got *state.Order
	if !eventually(5*time.Second, func() bool {
		got, _ = f.s.Hub().Latest().Orders.Find(state.MarketSpot, res.OrderID)
		return got != nil
	}) {
		t.Fatalf("order %s not in the state after the resync (fills %d; %s)", res.OrderID, len(f.s.Hub().Latest().Fills), f.describe())
	}
	if got.Open() || got.Status != want.Status || !decEq(got.ExecutedQty, want.ExecutedQty) ||
		!decEq(got.CumulativeQuoteQty, want.CumulativeQuoteQty) || got.AvgPrice == nil ||
		!decEq(*got.AvgPrice, want.AvgPrice) || got.Symbol != "BTCUSDT" || got.Side != "BUY" {
		t.Errorf("order %+v, want the service's %+v", got, want)
	}

	var buf bytes.Buffer
	if err := state.WriteDump(&buf, f.s.Hub().Latest(), ""); err != nil {
		t.Fatal(err)
	}
	var dump struct {
		Orders []struct {
			OrderID, Status, ExecutedQty, CumulativeQuoteQty string
			AvgPrice                                         *string
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &dump); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range dump.Orders {
		if o.OrderID == res.OrderID {
			found = o.Status == "FILLED" && decEq(o.ExecutedQty, want.ExecutedQty) &&
				decEq(o.CumulativeQuoteQty, want.CumulativeQuoteQty) && o.AvgPrice != nil && decEq(*o.AvgPrice, want.AvgPrice)
		}
	}
	if !found {
		t.Errorf("dump lacks order %s as the service has it: %s", res.OrderID, buf.String())
	}
}

// TestUnknownOrdersBoundedPerResync: more orders filled during an outage
// than one resync fetches: the resync queries unknownOrdersOnResync of
// them (those of the newest fills), never more; the next resync the
// rest.
func TestUnknownOrdersBoundedPerResync(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{MarketInterval: -1, RateLimits: sim.RateLimits{OrdersPerSecond: 1000, WeightPerMinute: 100000}},
		Config{BackoffBase: 20 * time.Millisecond, BackoffCap: 100 * time.Millisecond}, true)
	f.srv.SetUserStreamDown(true)
	testkit.Eventually(t, 5*time.Second, func() bool { return f.s.Status().State != StateLive },
		"the session notices the outage")
	ctx := context.Background()
	tr := rest.NewTrader(f.rest)
	n := unknownOrdersOnResync + 5
	var ids []string
	for range n {
		res := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Quantity: "0.01"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("order: %+v", res)
		}
		ids = append(ids, res.OrderID)
	}
	f.srv.SetUserStreamDown(false)
	known := func() (k int) {
		snap := f.s.Hub().Latest()
		for _, id := range ids {
			if o, _ := snap.Orders.Find(state.MarketSpot, id); o != nil {
				k++
			}
		}
		return k
	}
	testkit.Eventually(t, 5*time.Second, func() bool { return known() == unknownOrdersOnResync },
		"%d of the %d orders known after the resync", unknownOrdersOnResync, n)
	if q := f.log.count("GET", "/openapi/v1/order"); q != unknownOrdersOnResync {
		t.Errorf("%d orders queried, want %d at one resync", q, unknownOrdersOnResync)
	}
	for _, id := range ids[n-unknownOrdersOnResync:] { // the newest
		if o, _ := f.s.Hub().Latest().Orders.Find(state.MarketSpot, id); o == nil {
			t.Errorf("order %s (of the newest fills) not fetched", id)
		}
	}
	if err := f.s.Resync(ctx); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, 5*time.Second, func() bool { return known() == n }, "all %d orders known after a second resync", n)
	if q := f.log.count("GET", "/openapi/v1/order"); q != n {
		t.Errorf("%d orders queried, want %d (each once)", q, n)
	}
}
