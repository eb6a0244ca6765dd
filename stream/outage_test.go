package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// inOutage is a trading session on the fake clock whose user data stream
// the simulator has taken down (REST still answers), once the session
// has noticed; its reconnects are 20 to 100 ms of the clock apart.
func inOutage(t *testing.T) *fixture {
	t.Helper()
	f := newFakeFixture(t, sim.Options{}, Config{BackoffBase: 20 * time.Millisecond, BackoffCap: 100 * time.Millisecond}, true)
	f.srv.SetUserStreamDown(true)
	f.until(100*time.Millisecond, func() bool { return f.s.Status().State != StateLive }, "the session to notice the outage")
	return f
}

// TestOrderFilledDuringOutageIsKnown: an order placed and filled while
// the user data stream is down (the simulator cuts and refuses it; REST
// answers) is known after the resync as a closed order with its true
// status, executed quantity and Z (avgPrice Z/z), in the snapshot and
// in the dump, not only as fills of an order found nowhere.
func TestOrderFilledDuringOutageIsKnown(t *testing.T) {
	t.Parallel()
	f := inOutage(t)
	ctx := context.Background()
	tr := rest.NewTrader(f.rest)
	spot := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.05"})
	contract := tr.PlaceContractOrder(ctx, rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "4",
		PriceType: "MARKET", Leverage: "10"})
	for _, res := range []rest.OrderResult{spot, contract} {
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("order: %+v", res)
		}
	}
	wantSpot, err := f.rest.QueryOrder(ctx, rest.OrderQuery{OrderID: spot.OrderID})
	if err != nil || wantSpot.Status != "FILLED" {
		t.Fatalf("order %s: %+v, %v; want it FILLED", spot.OrderID, wantSpot, err)
	}
	wantContract, err := f.rest.ContractQueryOrder(ctx, rest.OrderQuery{OrderID: contract.OrderID})
	if err != nil || wantContract.Status != "FILLED" {
		t.Fatalf("contract order %s: %+v, %v; want it FILLED", contract.OrderID, wantContract, err)
	}
	f.srv.SetUserStreamDown(false)

	type want struct {
		market, id, symbol, status, z, quote, avg string
	}
	wants := []want{
		{state.MarketSpot, spot.OrderID, "BTCUSDT", wantSpot.Status, wantSpot.ExecutedQty, wantSpot.CumulativeQuoteQty, wantSpot.AvgPrice},
		{state.MarketContract, contract.OrderID, "ETH-PERP", wantContract.Status, wantContract.ExecutedQty,
			decimal.RequireFromString(wantContract.ExecutedQty).Mul(decimal.RequireFromString(wantContract.AvgPrice)).String(),
			wantContract.AvgPrice},
	}
	for _, w := range wants {
		var got *state.Order
		f.until(100*time.Millisecond, func() bool {
			got, _ = f.s.Hub().Latest().Orders.Find(w.market, w.id)
			return got != nil
		}, fmt.Sprintf("%s order %s in the state after the resync", w.market, w.id))
		if got.Open() || got.Status != w.status || !decEq(got.ExecutedQty, w.z) || !decEq(got.CumulativeQuoteQty, w.quote) ||
			got.AvgPrice == nil || !decEq(*got.AvgPrice, w.avg) || got.Symbol != w.symbol || got.Side != "BUY" {
			t.Errorf("order %+v, want the service's %+v", got, w)
		}
	}

	var buf bytes.Buffer
	if err := state.WriteDump(&buf, f.s.Hub().Latest(), ""); err != nil {
		t.Fatal(err)
	}
	var dump struct {
		Orders []struct {
			Market, OrderID, Status, ExecutedQty, CumulativeQuoteQty string
			AvgPrice                                                 *string
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &dump); err != nil {
		t.Fatal(err)
	}
	for _, w := range wants {
		found := false
		for _, o := range dump.Orders {
			if o.Market == w.market && o.OrderID == w.id {
				found = o.Status == w.status && decEq(o.ExecutedQty, w.z) && decEq(o.CumulativeQuoteQty, w.quote) &&
					o.AvgPrice != nil && decEq(*o.AvgPrice, w.avg)
			}
		}
		if !found {
			t.Errorf("dump lacks %s order %s as the service has it: %s", w.market, w.id, buf.String())
		}
	}
}

// TestUnknownOrdersBoundedPerResync: more orders filled during an outage
// than one resync fetches: the resync queries unknownOrdersOnResync of
// them (those of the newest fills), never more; the next resync the
// rest.
func TestUnknownOrdersBoundedPerResync(t *testing.T) {
	t.Parallel()
	f := inOutage(t)
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
	f.until(100*time.Millisecond, func() bool { return known() == unknownOrdersOnResync },
		fmt.Sprintf("%d of the %d orders known after the resync", unknownOrdersOnResync, n))
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

// TestNoOrderQueriesAtStart: at the first connect the fetched executions'
// orders are history from before the session started: none is queried,
// so a start (one request at a time per host) costs no requests for
// them; only a reconnect after an outage asks (the tests above).
func TestNoOrderQueriesAtStart(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{MarketInterval: -1}, Config{}, true)
	tr := rest.NewTrader(f.rest)
	for range 3 {
		res := tr.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Quantity: "0.01"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("order: %+v", res)
		}
	}
	before := f.log.count("GET", "/openapi/v1/order")
	later, err := New(Config{REST: f.rest, WSURL: f.srv.WSURL(), Simulated: true})
	testkit.Live(t, later, err)
	testkit.Eventually(t, 5*time.Second, func() bool { return len(later.Hub().Latest().Fills) >= 3 },
		"the 3 fills of before in the state after the start's resync")
	if q := f.log.count("GET", "/openapi/v1/order") - before; q != 0 {
		t.Errorf("%d orders of past fills queried at the first connect, want none", q)
	}
}
