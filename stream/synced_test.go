package stream

import (
	"context"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestSyncedStatusAfterPublish: once Status().LastSnapshot says a resync
// is done, Hub().Latest() holds what it folded in. Alert rules and the
// metrics take LastSnapshot as "the state is synced" and read Latest: a
// stale Latest there was an empty account (balance_below and
// equity_below firing on 0) or the fills before start (fill alerts for
// old fills). With PublishEvery of an hour and a subscriber that does not
// read its notices, nothing but the resync itself can publish.
func TestSyncedStatusAfterPublish(t *testing.T) {
	t.Parallel()
	f := newFixture(t, sim.Options{}, Config{PublishEvery: time.Hour, PublishIdle: time.Hour}, false)
	_, unsub := f.s.Hub().Subscribe() // never read: no notice is waited for
	defer unsub()
	testkit.Eventually(t, 10*time.Second, func() bool { return !f.s.Status().LastSnapshot.IsZero() }, "the first resync")
	tr := rest.NewTrader(f.rest)
	ack := tr.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "1", Price: "0.001", NewClientOrderID: "bh-synced-test"})
	if ack.Outcome != rest.OutcomeAccepted {
		t.Fatalf("PlaceOrder: %+v", ack)
	}
	before := f.s.Status().LastSnapshot
	if err := f.s.Resync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !f.s.Status().LastSnapshot.After(before) {
		t.Fatalf("LastSnapshot %v did not move after Resync (was %v)", f.s.Status().LastSnapshot, before)
	}
	found := false
	for _, o := range f.s.Hub().Latest().Orders.All() {
		found = found || o.OrderID == ack.OrderID
	}
	if !found {
		t.Errorf("LastSnapshot says synced, but Hub().Latest() lacks order %s the resync read", ack.OrderID)
	}
}
