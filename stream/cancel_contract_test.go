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
		for _, o := range f.s.Hub().Latest().Orders {
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
