package cli

import (
	"strings"
	"testing"

	"bhtop/sim"
	"bhtop/state"
)

// TestDumpDuplicateClientOrderIDIsListed: a second `dump --order` reusing
// the client order id of an open order is refused by the service (-1141
// ORDER_DUPLICATED); the refused send is listed in pending as NOT_PLACED
// with the service's code, and the first order stays in orders.
func TestDumpDuplicateClientOrderIDIsListed(t *testing.T) {
	s := keyedSim(t, sim.Options{Activity: 20}).Server
	const cid = "dup-cid-1"
	order := "symbol=ETHBTC&side=BUY&type=LIMIT&quantity=0.01&price=0.01&newClientOrderId=" + cid
	env := orderEnv(t, s, nil)
	var snap state.Snapshot
	for range 2 { // the second run sends the same client order id again
		snap, _ = dumpOK[state.Snapshot](t, env, "--for", "1s", "--order", order)
	}
	inOrders := false
	for _, o := range snap.Orders.All() {
		inOrders = inOrders || (o.ClientOrderID == cid && o.Status == "NEW")
	}
	if !inOrders {
		t.Errorf("the first order %s is not in orders as NEW: %+v", cid, snap.Orders)
	}
	if len(snap.Pending) != 1 {
		t.Fatalf("pending = %+v, want the refused duplicate", snap.Pending)
	}
	p := snap.Pending[0]
	if p.ClientOrderID != cid || p.Status != state.PendingNotPlaced || !strings.HasPrefix(p.Reason, "-1141 ") ||
		p.Symbol != "ETHBTC" || p.Side != "BUY" || p.Since == 0 {
		t.Errorf("pending = %+v, want %s NOT_PLACED ETHBTC BUY with reason \"-1141 ...\"", p, cid)
	}
}
