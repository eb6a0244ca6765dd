package stream

import (
	"context"
	"testing"
	"time"

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
	for _, took := range []bool{true, false} {
		f := newFixture(t, sim.Options{Faults: sim.Faults{OrderErrorRate: 1, OrderErrorTakesEffect: took}},
			Config{QueryDelay: 100 * time.Millisecond}, true)
		res := f.s.PlaceContractOrder(context.Background(), rest.ContractOrderRequest{Symbol: "ETH-PERP", Side: "BUY_OPEN",
			Quantity: "0.01", Price: "1000", Leverage: "5"})
		if res.Outcome != rest.OutcomeUnknown || res.ClientOrderID == "" {
			t.Fatalf("PlaceContractOrder = %+v, want unknown with a client order id", res)
		}
		cid := res.ClientOrderID
		if !eventually(3*time.Second, func() bool {
			snap := f.s.Hub().Latest()
			p := pendingOf(snap, cid)
			if took {
				return p == nil && hasClientOrder(snap, cid)
			}
			return p != nil && p.Status == state.PendingNotPlaced
		}) {
			t.Errorf("took effect %v: pending %+v, want settled", took, pendingOf(f.s.Hub().Latest(), cid))
		}
		if n := f.log.count("POST", "/openapi/contract/v1/order"); n != 1 {
			t.Errorf("contract orders sent = %d, want 1", n)
		}
		if n := f.log.count("GET", "/openapi/contract/v1/getOrder"); !took && n == 0 {
			t.Error("not settled through the contract query") // one that took effect may settle by its event first
		}
	}
}

// TestReadOnlyPlacesNoContractOrder: a read-only session refuses a
// contract order and the simulator's request log shows nothing sent.
func TestReadOnlyPlacesNoContractOrder(t *testing.T) {
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
