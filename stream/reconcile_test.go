package stream

import (
	"context"
	"testing"

	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestReconcilerSettle: the reconciler alone, against the simulator: a
// pending order the service has settles to its record; one it never
// received settles as NOT_PLACED.
func TestReconcilerSettle(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	ctx := context.Background()
	placed := rest.NewClientOrderID()
	res := s.Trader().PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "0.001", Price: "30000.00", NewClientOrderID: placed})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("place: %+v", res)
	}
	cfg, rep := partsFor(s.Client(), Config{})
	w := &writer{store: state.NewStore()}
	r := &reconciler{rest: cfg.REST, cfg: cfg, rep: rep, hub: &state.Hub{}, ctx: ctx,
		apply:     func(fn func(*writer)) bool { fn(w); return true },
		goTracked: func(f func()) { f() }}

	lost := rest.NewClientOrderID()
	r.pend(placed, "BTCUSDT", "BUY")
	r.pend(lost, "BTCUSDT", "BUY")
	if !r.stillPending(placed) || !r.stillPending(lost) {
		t.Fatal("pend did not list the orders as pending")
	}
	if !r.settle(placed, false) || !r.settle(lost, false) {
		t.Fatal("settle: the service did not answer")
	}
	if r.stillPending(placed) || r.stillPending(lost) {
		t.Error("still pending after the service answered")
	}
	snap := w.store.Snapshot()
	found := false
	for _, o := range snap.Orders.All() {
		found = found || (o.ClientOrderID == placed && o.OrderID == res.OrderID && o.Open())
	}
	if !found {
		t.Errorf("the settled order is not in the store: %+v", snap.Orders)
	}
	status := ""
	for _, p := range snap.Pending {
		if p.ClientOrderID == lost {
			status = p.Status
		}
	}
	if status != state.PendingNotPlaced {
		t.Errorf("the lost order is %q, want NOT_PLACED", status)
	}
}
