package stream

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
)

// TestSnapshotter: the resync's REST reads alone, against the simulator:
// the account and the open orders; at the open-orders limit the spot
// orders are not a complete snapshot and a note says so.
func TestSnapshotter(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	tr := s.Trader()
	ctx := context.Background()
	for i := range 2 {
		res := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "0.001", Price: fmt.Sprintf("3000%d.00", i)})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("place order %d: %+v", i, res)
		}
	}
	for _, c := range []struct {
		limit    int
		complete bool
	}{{1000, true}, {2, false}} {
		cfg, rep := partsFor(s.Client(), Config{OpenOrdersLimit: c.limit})
		p := &snapshotter{rest: cfg.REST, cfg: cfg, rep: rep, apply: func(func(*writer)) bool { return true }}
		snap, err := p.takeSnapshots(ctx)
		if err != nil {
			t.Fatalf("limit %d: %v", c.limit, err)
		}
		if snap.Account == nil || len(snap.Account.Balances) == 0 || len(snap.SpotOpenOrders) != 2 {
			t.Errorf("limit %d: account %v, %d open orders", c.limit, snap.Account, len(snap.SpotOpenOrders))
		}
		if snap.HaveSpotOrders != c.complete || !snap.HavePositions {
			t.Errorf("limit %d: HaveSpotOrders %v HavePositions %v", c.limit, snap.HaveSpotOrders, snap.HavePositions)
		}
		notes, _ := rep.notes.Since(0)
		if noted := len(notes) == 1 && strings.Contains(notes[0].Text, "(the limit)"); noted == c.complete {
			t.Errorf("limit %d: notes %v", c.limit, notes)
		}
	}
}
