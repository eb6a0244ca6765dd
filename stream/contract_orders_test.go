package stream

// The contract orders and the cancel-all of a session (contract_orders.go),
// against the simulator.

import (
	"context"
	"fmt"
	"testing"
	"time"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestCancelContractOrder: a resting contract order is canceled through
// the contract endpoint, and the stream's report closes it here.
func TestCancelContractOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{}, Config{}, true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	placed := rest.NewTrader(f.rest).PlaceContractOrder(ctx, rest.ContractOrderRequest{
		Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "0.01", Price: "1000", Leverage: "5",
	})
	if placed.Outcome != rest.OutcomeAccepted {
		t.Fatalf("PlaceContractOrder = %+v, want accepted", placed)
	}
	status := func() string {
		for _, o := range f.s.Hub().Latest().Orders.All() {
			if o.Market == state.MarketContract && o.OrderID == placed.OrderID {
				return o.Status
			}
		}
		return ""
	}
	if !eventually(5*time.Second, func() bool { return status() == "NEW" }) {
		t.Fatalf("contract order %s status = %q, want NEW", placed.OrderID, status())
	}
	res := f.s.CancelOrder(ctx, rest.CancelRequest{Symbol: "ETH-PERP", OrderID: placed.OrderID, Contract: true, OrderType: "LIMIT"})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("CancelOrder(contract) = %+v, want accepted", res)
	}
	if !eventually(5*time.Second, func() bool { return status() == "CANCELED" }) {
		t.Errorf("contract order %s status = %q after cancel, want CANCELED", placed.OrderID, status())
	}
	if n := f.log.count("DELETE", "/openapi/contract/v1/order/cancel"); n != 1 {
		t.Errorf("contract cancels sent = %d, want 1", n)
	}
	if n := f.log.count("DELETE", "/openapi/v1/order"); n != 0 {
		t.Errorf("spot cancels sent = %d, want 0", n)
	}
}

// TestPlaceContractOrderUnknown: a contract order answered 504 is UNKNOWN,
// then settled by its client order id through the contract query: into
// the orders when it took effect, NOT_PLACED when it did not. Each order
// is sent once.
func TestPlaceContractOrderUnknown(t *testing.T) {
	t.Parallel()
	for _, took := range []bool{true, false} {
		t.Run(fmt.Sprintf("took effect %v", took), func(t *testing.T) {
			t.Parallel()
			f := newFakeFixture(t, sim.Options{Faults: sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: took}}, Config{}, true)
			res := f.s.PlaceContractOrder(context.Background(), rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN",
				Quantity: "0.01", Price: "1000", Leverage: "5"})
			if res.Outcome != rest.OutcomeUnknown || res.ClientOrderID == "" {
				t.Fatalf("PlaceContractOrder = %+v, want unknown with a client order id", res)
			}
			cid := res.ClientOrderID
			f.until(500*time.Millisecond, func() bool { // QueryDelay 2s of the clock
				snap := f.s.Hub().Latest()
				p := pendingOf(snap, cid)
				if took {
					return p == nil && hasClientOrder(snap, cid)
				}
				return p != nil && p.Status == state.PendingNotPlaced
			}, "the pending order to settle")
			if n := f.log.count("POST", "/openapi/contract/v1/order"); n != 1 {
				t.Errorf("contract orders sent = %d, want 1", n)
			}
			if n := f.log.count("GET", "/openapi/contract/v1/getOrder"); !took && n == 0 {
				t.Error("not settled through the contract query") // one that took effect may settle by its event first
			}
		})
	}
}

// TestReadOnlyPlacesNoContractOrder: a read-only session refuses a
// contract order and the simulator's request log shows nothing sent.
func TestReadOnlyPlacesNoContractOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{}, Config{}, false)
	res := f.s.PlaceContractOrder(context.Background(), rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN",
		Quantity: "1", Price: "1000", Leverage: "5"})
	if res.Outcome != rest.OutcomeRejected {
		t.Errorf("read-only PlaceContractOrder = %+v, want rejected", res)
	}
	if n := f.log.count("POST", "/openapi/contract/v1/order"); n != 0 {
		t.Errorf("%d contract orders sent in read-only mode", n)
	}
	if pendingOf(f.s.Hub().Latest(), res.ClientOrderID) != nil {
		t.Error("a refused order was listed as pending")
	}
}

// TestSessionCancelAll: the dashboard's cancel-all (a spot order and a
// contract order) cancels both, reports progress, and leaves nothing
// open; a read-only session sends nothing at all.
func TestSessionCancelAll(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{}, Config{}, true)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	syms, err := f.s.Contracts(ctx)
	if err != nil || len(syms) == 0 {
		t.Fatalf("Contracts = %d, %v; want the simulator's contracts", len(syms), err)
	}
	tr := rest.NewTrader(f.rest)
	spot := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "XRPUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "100", Price: "0.1"})
	contract := tr.PlaceContractOrder(ctx, rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "1", Price: "100", Leverage: "5"})
	if spot.Outcome != rest.OutcomeAccepted || contract.Outcome != rest.OutcomeAccepted {
		t.Fatalf("placing: %+v, %+v", spot, contract)
	}
	targets := []actions.Target{
		{Market: state.MarketSpot, Symbol: "XRPUSDT", OrderID: spot.OrderID},
		{Market: state.MarketContract, Symbol: "ETH-PERP", OrderID: contract.OrderID},
	}
	var progress []actions.Summary
	sum := f.s.CancelAll(ctx, targets, func(s actions.Summary) { progress = append(progress, s) })
	if sum.Cancelled != 2 || sum.Failed+sum.Unknown+sum.AlreadyClosed != 0 || len(progress) != 2 {
		t.Fatalf("CancelAll = %+v with %d progress reports; want 2 cancelled, 2 reports", sum, len(progress))
	}
	open := func() int {
		n := 0
		for _, o := range f.s.Hub().Latest().Orders.All() {
			if o.Open() {
				n++
			}
		}
		return n
	}
	if !eventually(5*time.Second, func() bool { return open() == 0 }) {
		t.Errorf("%d orders still open after cancel-all", open())
	}

	ro := newFixture(t, sim.Options{}, Config{}, false)
	sum = ro.s.CancelAll(ctx, targets, nil)
	if sum.Failed != 2 || ro.log.count("DELETE", "/openapi/v1/order") != 0 ||
		ro.log.count("DELETE", "/openapi/contract/v1/order/batchCancel") != 0 {
		t.Errorf("read-only CancelAll = %+v, or a cancel was sent", sum)
	}
}
