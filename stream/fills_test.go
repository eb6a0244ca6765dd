package stream

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// TestFillsMatchTheSimulator trades on both markets before the session
// starts (those fills are known only from myTrades) and while it runs
// (from order events, with t), on a moving market so resting orders fill
// in parts: the fills then equal the simulator's myTrades one for one,
// and each order's fills sum to its executed quantity. The rounds of
// trades are a few steps of the market apart.
func TestFillsMatchTheSimulator(t *testing.T) {
	t.Parallel()
	fillsMatch(t, sim.Faults{}, Config{}, 20*time.Millisecond)
}

// TestFillsMatchTheSimulatorUnderFaults is TestFillsMatchTheSimulator
// with duplicated and reordered events with the optional fields, and
// connections dropped every 300 ms (fills missed while away come from
// the myTrades of each resync); the rounds of trades are a third of the
// time between drops apart, so that they spread over reconnects.
func TestFillsMatchTheSimulatorUnderFaults(t *testing.T) {
	t.Parallel()
	fillsMatch(t, sim.Faults{DuplicateRate: 0.2, ReorderWindow: 20 * time.Millisecond, OptionalFields: true,
		DropEvery: 300 * time.Millisecond}, Config{BackoffBase: 20 * time.Millisecond, BackoffCap: 100 * time.Millisecond},
		100*time.Millisecond)
}

func fillsMatch(t *testing.T, faults sim.Faults, cfg Config, pause time.Duration) {
	log := &syncBuf{}
	srv := sim.New(sim.Options{MarketInterval: 5 * time.Millisecond, RequestLog: log, Faults: faults,
		RateLimits: sim.RateLimits{OrdersPerSecond: 1000, WeightPerMinute: 100000}})
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c := rest.New(srv.URL(), rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()))
	c.SetRateLimits([]rest.RateLimit{{Type: "ORDER", Interval: "SECOND", Limit: 1000}, {Type: "REQUEST_WEIGHT", Interval: "MINUTE", Limit: 100000}})
	tr := rest.NewTrader(c)
	ctx := context.Background()
	var orders []state.OrderKey
	trade := func(round int) {
		for _, r := range []rest.OrderRequest{
			{Symbol: "BTCUSDT", Side: "BUY", Type: "MARKET", Quantity: "0.05"},
			{Symbol: "ETHUSDT", Side: "SELL", Type: "MARKET", Quantity: "1.5"},
		} {
			res := tr.PlaceOrder(ctx, r)
			if res.Outcome != rest.OutcomeAccepted {
				t.Fatalf("round %d: %+v: %+v", round, r, res)
			}
			orders = append(orders, state.OrderKey{Market: state.MarketSpot, OrderID: res.OrderID})
		}
		for _, r := range []rest.ContractOrderRequest{
			{Symbol: "ETH-PERP", Side: "BUY_OPEN", Quantity: "4", PriceType: "MARKET", Leverage: "10"},
			{Symbol: "BTC-PERP-REV", Side: "SELL_OPEN", Quantity: "300", PriceType: "OPPONENT", Leverage: "5"},
		} {
			res := tr.PlaceContractOrder(ctx, r)
			if res.Outcome != rest.OutcomeAccepted {
				t.Fatalf("round %d: %+v: %+v", round, r, res)
			}
			orders = append(orders, state.OrderKey{Market: state.MarketContract, OrderID: res.OrderID})
		}
	}
	trade(0)
	cfg.REST, cfg.Trader, cfg.WSURL, cfg.Simulated = c, tr, srv.WSURL(), true
	s, err := New(polled(cfg))
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := s.WaitLive(wctx); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 6; round++ {
		trade(round)
		time.Sleep(pause)
	}
	// Let resting remainders fill, then pull what is left.
	time.Sleep(2 * pause)
	for _, k := range orders {
		tr.Cancel(ctx, rest.CancelRequest{OrderID: k.OrderID, Contract: k.Market == state.MarketContract})
	}
	var diff string
	ok := eventually(10*time.Second, func() bool {
		diff, err = fillsDiff(ctx, c, s.Hub().Latest(), orders)
		return err == nil && diff == ""
	})
	if !ok {
		t.Fatalf("fills differ from the simulator (err %v):\n%s", err, diff)
	}
	t.Logf("%d fills of %d orders; %d connections", len(s.Hub().Latest().Fills), len(orders), s.Status().Connects)
	if n := log.count("GET", "/openapi/v1/myTrades") + log.count("GET", "/openapi/contract/v1/myTrades"); n < 2 {
		t.Errorf("myTrades asked %d times, want both markets at start", n)
	}
}

// fillsDiff compares the snapshot's fills with the simulator's myTrades
// and each order's executedQty ("" when they agree).
func fillsDiff(ctx context.Context, c *rest.Client, snap *state.Snapshot, orders []state.OrderKey) (string, error) {
	var diffs []string
	have := map[string]state.Fill{}
	sum := map[string]decimal.Decimal{}
	for _, f := range snap.Fills {
		if f.TradeID == "" {
			diffs = append(diffs, fmt.Sprintf("fill without trade id %+v", f))
		}
		have[f.Market+"/"+f.OrderID+"/"+f.TradeID] = f // a self-trade's sides share the trade id
		sum[f.Market+"/"+f.OrderID] = sum[f.Market+"/"+f.OrderID].Add(decimal.RequireFromString(f.Qty))
	}
	want := 0
	for _, contract := range []bool{false, true} {
		recs, err := c.RecentTrades(ctx, contract, 1000, 0)
		if err != nil {
			return "", err
		}
		for _, r := range recs {
			m := state.MarketSpot
			if r.Contract {
				m = state.MarketContract
			}
			want++
			f, ok := have[m+"/"+r.OrderID+"/"+r.TradeID]
			if !ok || f.OrderID != r.OrderID || !decEq(f.Qty, r.Qty) || !decEq(f.Price, r.Price) ||
				!decEq(f.Commission, r.Commission) || f.CommissionAsset != r.CommissionAsset || f.Side != r.Side || f.Symbol != r.Symbol {
				diffs = append(diffs, fmt.Sprintf("trade %s/%s: got %+v, want %+v", m, r.TradeID, f, r))
			}
		}
	}
	if want != len(snap.Fills) {
		diffs = append(diffs, fmt.Sprintf("%d fills, the simulator has %d trades", len(snap.Fills), want))
	}
	for _, k := range orders {
		query := c.QueryOrder
		if k.Market == state.MarketContract {
			query = c.ContractQueryOrder
		}
		rec, err := query(ctx, rest.OrderQuery{OrderID: k.OrderID})
		if err != nil {
			return "", err
		}
		if got := sum[k.Market+"/"+k.OrderID]; !got.Equal(decimal.RequireFromString(rec.ExecutedQty)) {
			diffs = append(diffs, fmt.Sprintf("order %s/%s: fills sum to %s, executedQty %s", k.Market, k.OrderID, got, rec.ExecutedQty))
		}
	}
	sort.Strings(diffs)
	return strings.Join(diffs, "\n"), nil
}
