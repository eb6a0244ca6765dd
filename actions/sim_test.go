package actions_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/actions"
	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// statuses counts the logged answers by HTTP status.
func statuses(t testing.TB, s *simtest.Sim) map[int]int {
	out := map[int]int{}
	for _, e := range s.Log.Entries(t) {
		out[e.Status]++
	}
	return out
}

// placeResting places n spot and m contract orders that rest (far from
// the market) and returns them as cancel targets.
func placeResting(t testing.TB, tr *rest.Trader, n, m int) []actions.Target {
	t.Helper()
	ctx := context.Background()
	var out []actions.Target
	for i := 0; i < n; i++ {
		res := tr.PlaceOrder(ctx, rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "0.001", Price: decimal.NewFromInt(int64(30000 + i)).String()})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("spot order %d: %+v", i, res)
		}
		out = append(out, actions.Target{Market: state.MarketSpot, Symbol: "BTCUSDT", OrderID: res.OrderID, ClientOrderID: res.ClientOrderID})
	}
	for i := 0; i < m; i++ {
		sym, price := "ETH-PERP", decimal.NewFromInt(int64(2000+i)).String()
		if i%3 == 2 {
			sym, price = "BTC-PERP-REV", decimal.NewFromInt(int64(30000+i)).String()
		}
		res := tr.PlaceContractOrder(ctx, rest.ContractOrderRequest{Symbol: sym, Side: "BUY_OPEN", Quantity: "1", Price: price, Leverage: "10"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("contract order %d: %+v", i, res)
		}
		out = append(out, actions.Target{Market: state.MarketContract, Symbol: sym, OrderID: res.OrderID, ClientOrderID: res.ClientOrderID})
	}
	return out
}

func openCount(t testing.TB, c *rest.Client) int {
	t.Helper()
	ctx := context.Background()
	spot, err := c.OpenOrders(ctx, "", 1000)
	if err != nil {
		t.Fatal(err)
	}
	ctr, err := c.ContractOpenOrders(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	return len(spot) + len(ctr)
}

// TestCancelAllWhileOrdersClose cancels 40 orders of both markets while
// another client cancels every third of them: nothing stays open, and the
// ones that closed meanwhile count as already closed, not failed.
func TestCancelAllWhileOrdersClose(t *testing.T) {
	s := simtest.Start(t, sim.Options{RateLimits: sim.RateLimits{OrdersPerSecond: 1000, WeightPerMinute: 100000}})
	tr := s.Trader()
	tr.Client().SetRateLimits([]rest.RateLimit{{Type: "ORDER", Interval: "SECOND", Limit: 1000}})
	targets := placeResting(t, tr, 25, 15)
	other := s.Trader()
	other.Client().SetRateLimits([]rest.RateLimit{{Type: "ORDER", Interval: "SECOND", Limit: 1000}})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < len(targets); i += 3 {
			tg := targets[i]
			other.Cancel(context.Background(), rest.CancelRequest{OrderID: tg.OrderID, Contract: tg.Market == state.MarketContract})
		}
	}()
	var progress []int
	c := actions.Canceller{Trader: tr, Progress: func(s actions.Summary) { progress = append(progress, s.Done()) }}
	sum := c.CancelAll(context.Background(), targets)
	wg.Wait()
	if sum.Total != 40 || sum.Failed != 0 || sum.Unknown != 0 || sum.Cancelled+sum.AlreadyClosed != 40 || len(sum.Errors) != 0 {
		t.Errorf("summary = %+v, want 40 cancelled or already closed, none failed", sum)
	}
	if n := openCount(t, tr.Client()); n != 0 {
		t.Errorf("%d orders still open", n)
	}
	if len(progress) == 0 || progress[len(progress)-1] != 40 {
		t.Errorf("progress = %v, want it to end at 40", progress)
	}
	if st := statuses(t, s); st[429]+st[418]+st[500]+st[504] != 0 {
		t.Errorf("answers by status %v", st)
	}
}

// TestCancelAllSelection cancels only the orders given: a contract symbol
// with other open orders is cancelled order by order, not by batchCancel.
func TestCancelAllSelection(t *testing.T) {
	tr := simtest.Start(t, sim.Options{}).Trader()
	targets := placeResting(t, tr, 2, 4) // ETH-PERP, ETH-PERP, BTC-PERP-REV, ETH-PERP
	sum := actions.Canceller{Trader: tr}.CancelAll(context.Background(), targets[:3])
	if sum.Cancelled != 3 || sum.Failed != 0 {
		t.Errorf("summary = %+v, want 3 cancelled", sum)
	}
	open, err := tr.Client().ContractOpenOrders(context.Background(), 100)
	if err != nil || len(open)+openCount(t, tr.Client())-len(open) != 3 {
		t.Fatalf("open after = %d, %v; want the 3 not selected", openCount(t, tr.Client()), err)
	}
	got := map[string]bool{}
	for _, o := range open {
		got[o.OrderID] = true
	}
	for _, tg := range targets[3:] {
		if tg.Market == state.MarketContract && !got[tg.OrderID] {
			t.Errorf("unselected order %s was cancelled", tg.OrderID)
		}
	}
	if n := actions.CountBySymbol(targets); n["contract ETH-PERP"] != 3 || n["spot BTCUSDT"] != 2 {
		t.Errorf("CountBySymbol = %v", n)
	}
}

// TestClosePosition opens a position with a market order and closes it
// with the closing order of its row (OPPONENT: what the best level does
// not fill rests there until the moving market's flow takes it): the
// position is then zero.
func TestClosePosition(t *testing.T) {
	s := simtest.Start(t, sim.Options{MarketInterval: 5 * time.Millisecond})
	tr := s.Trader()
	ctx := context.Background()
	for _, sym := range []string{"ETH-PERP", "BTC-PERP-REV"} {
		res := tr.PlaceContractOrder(ctx, rest.ContractOrderRequest{Symbol: sym, Side: "SELL_OPEN", Quantity: "3", PriceType: "MARKET", Leverage: "5"})
		if res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("open %s: %+v", sym, res)
		}
		p := position(t, tr, sym, "SHORT")
		res, err := actions.ClosePosition(ctx, tr, p, "")
		if err != nil || res.Outcome != rest.OutcomeAccepted {
			t.Fatalf("ClosePosition(%+v) = %+v, %v", p, res, err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			recs, err := tr.Client().ContractPositions(ctx)
			if err != nil {
				t.Fatal(err)
			}
			left := "0"
			for _, r := range recs {
				if r.Symbol == sym && r.Side == "SHORT" {
					left = r.Position
				}
			}
			if decimal.RequireFromString(left).IsZero() {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s SHORT still %s after its closing order", sym, left)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if st := statuses(t, s); len(st) != 1 || st[200] == 0 {
		t.Errorf("answers by status %v, want all 200", st)
	}
}

func position(t *testing.T, tr *rest.Trader, sym, side string) state.Position {
	t.Helper()
	recs, err := tr.Client().ContractPositions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows := make([]state.Position, len(recs))
	for i, r := range recs {
		rows[i] = actions.PositionOf(r)
	}
	p, err := actions.FindPosition(rows, sym, side)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BenchmarkCancelAll500 cancels 500 open orders (300 spot, 200 contract
// on two symbols) against the simulator's default rate limits: the spot
// ones paced by the governor, the contract ones in two batchCancels. It
// fails on any 429 or 418. Placing them takes ~25 s at 20 orders/s
// (outside the timer); the cancel-all ~15 s.
func BenchmarkCancelAll500(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := simtest.Start(b, sim.Options{})
		tr := s.Trader()
		if _, err := tr.Client().BrokerInfo(context.Background()); err != nil {
			b.Fatal(err)
		}
		targets := placeResting(b, tr, 300, 200)
		b.StartTimer()
		sum := actions.Canceller{Trader: tr}.CancelAll(context.Background(), targets)
		b.StopTimer()
		if sum.Cancelled != 500 {
			b.Fatalf("summary %+v, want 500 cancelled", sum)
		}
		if st := statuses(b, s); st[429]+st[418] != 0 {
			b.Fatalf("answers by status %v: the governor let a 429 or 418 happen", st)
		}
		if n := openCount(b, tr.Client()); n != 0 {
			b.Fatalf("%d still open", n)
		}
		s.Close()
	}
	b.ReportMetric(float64(500*b.N)/b.Elapsed().Seconds(), "cancels/s")
}
