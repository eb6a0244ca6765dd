package stream

import (
	"context"
	"testing"
	"time"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

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
