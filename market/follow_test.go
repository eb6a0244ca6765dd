// Which symbols the market client follows: a new order's at once, a
// dropped one kept for KeepFor and then cancelled.

package market_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/stream"
)

// TestClientKeepsADroppedSymbol: a symbol that leaves the touched set
// (its open order went away) vanishes from the snapshots at once but
// stays subscribed for KeepFor, so coming back within it shows its data
// again without a new REST snapshot; after KeepFor it is dropped and
// coming back fetches it again.
func TestClientKeepsADroppedSymbol(t *testing.T) {
	s := simtest.Start(t, sim.Options{Seed: 7, MarketActivity: 20})
	fake := clock.NewFake(time.Now())
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s.Server, st, func(cfg *market.Config) {
		cfg.Now = fake.Now
		cfg.KeepFor = time.Minute
	})
	fetches := func() int {
		return s.Log.CountFunc(func(e testkit.Entry) bool {
			return (strings.HasSuffix(e.Path, "/klines") || strings.HasSuffix(e.Path, "/depth")) &&
				strings.Contains(e.Query, "symbol=XRPUSDT")
		})
	}
	xrp := market.CandleKey("XRPUSDT", "1m")
	shown := func(m *market.Snapshot) bool {
		_, book := m.Books["XRPUSDT"]
		return m.Quotes["XRPUSDT"].Last != "" && m.Candles[xrp].Len() > 0 && book
	}
	hidden := func(m *market.Snapshot) bool {
		_, q := m.Quotes["XRPUSDT"]
		_, book := m.Books["XRPUSDT"]
		_, bars := m.Candles[xrp]
		_, trades := m.Trades["XRPUSDT"]
		return !q && !book && !bars && !trades && m.Quotes["BTCUSDT"].Last != ""
	}
	order := &state.Order{Symbol: "XRPUSDT", Status: "NEW"}

	st.Publish(account(2, order))
	waitFor(t, c.Hub(), "XRPUSDT followed", shown)
	// The simulator logs a request after its reply is sent, so the
	// client can show the data before the log has both lines.
	testkit.Eventually(t, 5*time.Second, func() bool { return fetches() >= 2 },
		"XRPUSDT kline and depth requests logged")
	before := fetches()
	if before != 2 {
		t.Fatalf("%d XRPUSDT kline and depth requests, want 2", before)
	}

	st.Publish(account(3))
	waitFor(t, c.Hub(), "XRPUSDT hidden", hidden)
	fake.Advance(30 * time.Second)
	st.Publish(account(4, order))
	waitFor(t, c.Hub(), "XRPUSDT shown again", shown)
	if n := fetches(); n != before {
		t.Errorf("%d XRPUSDT kline and depth requests after it came back within KeepFor, want %d", n, before)
	}

	// Gone for longer than KeepFor: dropped, fetched again on return.
	st.Publish(account(5))
	waitFor(t, c.Hub(), "XRPUSDT hidden again", hidden)
	fake.Advance(time.Minute)
	st.Publish(account(6, order))
	waitFor(t, c.Hub(), "XRPUSDT fetched again", func(m *market.Snapshot) bool {
		return shown(m) && fetches() == before+2
	})
}

// TestClientTakesPushesOfASymbolBackAtKeepFor: a symbol coming back at
// the very recheck that finds its KeepFor over is dropped (cancel) and
// followed anew (sub, REST snapshot) in one step; its live pushes must
// then be taken, not dropped as a forgotten symbol's late ones (the last
// price would stay the REST snapshot's).
func TestClientTakesPushesOfASymbolBackAtKeepFor(t *testing.T) {
	s := simtest.Start(t, sim.Options{Seed: 7, MarketActivity: 40, MarketInterval: 200 * time.Millisecond})
	clk := clock.NewFake(time.Now())
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s.Server, st, func(cfg *market.Config) {
		cfg.Clock, cfg.RecheckEvery, cfg.KeepFor = clk, time.Second, time.Minute
	})
	shown := func(m *market.Snapshot) bool { return m.Quotes["XRPUSDT"].Last != "" && len(m.Trades["XRPUSDT"]) > 0 }
	order := &state.Order{Symbol: "XRPUSDT", Status: "NEW"}
	// The recheck ticks when the test moves the clock: moved a second at
	// a time until the loop, which may not have made its ticker yet, saw it.
	until := func(what string, ok func(m *market.Snapshot) bool) *market.Snapshot {
		t.Helper()
		var m *market.Snapshot
		if !testkit.WithinEvery(10*time.Second, 50*time.Millisecond, func() bool {
			if m = c.Hub().Latest(); ok(m) {
				return true
			}
			clk.Advance(time.Second)
			return false
		}) {
			t.Fatalf("timed out waiting for %s", what)
		}
		return m
	}
	st.Publish(account(2, order))
	m := until("XRPUSDT followed", shown)
	tape := m.Trades["XRPUSDT"]
	last := tape[len(tape)-1]
	waitFor(t, c.Hub(), "XRPUSDT's first pushed trades", func(m *market.Snapshot) bool {
		tape := m.Trades["XRPUSDT"]
		return len(tape) > 0 && tape[len(tape)-1] != last
	})
	st.Publish(account(3))
	until("XRPUSDT hidden", func(m *market.Snapshot) bool { _, q := m.Quotes["XRPUSDT"]; return !q })
	// Back just as KeepFor ends: the one recheck drops it and follows it.
	st.Publish(account(4, order))
	clk.Advance(time.Minute)
	m = waitFor(t, c.Hub(), "XRPUSDT followed again", shown)
	tape = m.Trades["XRPUSDT"]
	last = tape[len(tape)-1]
	waitFor(t, c.Hub(), "XRPUSDT's pushed trades", func(m *market.Snapshot) bool {
		tape := m.Trades["XRPUSDT"]
		return len(tape) > 0 && tape[len(tape)-1] != last
	})
}

// newOrderSetup runs the simulator, a market client whose recheck ticks
// on a fake clock only when the test moves it, and the account's user
// stream publishing to the client's state hub (telling the client of new
// symbols when notify is set), and waits until the account's own symbols
// are followed.
func newOrderSetup(t *testing.T, notify bool) (*sim.Server, *clock.Fake, *state.Hub, *market.Client) {
	t.Helper()
	s := startSim(t, sim.Options{})
	clk := clock.NewFake(time.Now())
	st := &state.Hub{}
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.Clock, cfg.RecheckEvery = clk, time.Second })
	cfg := stream.Config{REST: simtest.Client(s), WSURL: s.WSURL(), Hub: st, Simulated: true}
	if notify {
		cfg.Symbols = c
	}
	sess, err := stream.New(cfg)
	testkit.Live(t, sess, err)
	waitFor(t, c.Hub(), "the balances' symbols", func(m *market.Snapshot) bool {
		return m.Health.Up && m.Quotes["BTCUSDT"].Last != ""
	})
	if _, ok := c.Hub().Latest().Quotes["LTCBTC"]; ok {
		t.Fatal("LTCBTC followed before an order touched it")
	}
	return s, clk, st, c
}

// placeLTCBTC places an open limit order on LTCBTC, a symbol the account
// does not touch yet.
func placeLTCBTC(t *testing.T, s *sim.Server) time.Time {
	t.Helper()
	at := time.Now()
	res := rest.NewTrader(simtest.Client(s)).PlaceOrder(context.Background(), rest.OrderRequest{
		Symbol: "LTCBTC", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1", Price: "0.001"})
	if res.Outcome != rest.OutcomeAccepted {
		t.Fatalf("order not accepted: %+v", res)
	}
	return at
}

// TestNewOrdersSymbolFollowedAtOnce: an order on a symbol the account
// did not touch has its symbol's last price one quote round trip later:
// the stream's writer tells the client of the new symbol, publishes the
// state and the client looks at once, with its recheck never ticking
// (the fake clock does not move).
func TestNewOrdersSymbolFollowedAtOnce(t *testing.T) {
	s, _, _, c := newOrderSetup(t, true)
	at := placeLTCBTC(t, s)
	waitFor(t, c.Hub(), "LTCBTC's last price with the recheck's clock stopped", func(m *market.Snapshot) bool {
		return m.Quotes["LTCBTC"].Last != ""
	})
	t.Logf("order to LTCBTC's last: %s", time.Since(at))
}

// TestNewOrdersSymbolAtTheRecheck: without the writer's notice, the
// periodic recheck (the safety net) follows the new symbol once its
// clock ticks.
func TestNewOrdersSymbolAtTheRecheck(t *testing.T) {
	s, clk, st, c := newOrderSetup(t, false)
	placeLTCBTC(t, s)
	testkit.Eventually(t, 10*time.Second, func() bool {
		for _, o := range st.Latest().Orders.All() {
			if o.Symbol == "LTCBTC" && o.Open() {
				return true
			}
		}
		return false
	}, "the LTCBTC order in the account's state")
	// Published a few times since: still not followed before the tick.
	v := c.Hub().Latest().Version
	waitFor(t, c.Hub(), "three publications", func(m *market.Snapshot) bool { return m.Version >= v+3 })
	if _, ok := c.Hub().Latest().Quotes["LTCBTC"]; ok {
		t.Fatal("LTCBTC followed before the recheck ticked: the test does not hold the recheck")
	}
	clk.Advance(time.Second)
	waitFor(t, c.Hub(), "LTCBTC's last price after the recheck", func(m *market.Snapshot) bool {
		return m.Quotes["LTCBTC"].Last != ""
	})
}

// TestFormsSymbolShownAgainAtOnce: the order form followed a symbol the
// account does not touch and closed when its order was sent (the symbol
// is kept, hidden); the order's report shows it again at once, with the
// recheck's clock stopped.
func TestFormsSymbolShownAgainAtOnce(t *testing.T) {
	s, _, _, c := newOrderSetup(t, true)
	c.Follow("LTCBTC")
	waitFor(t, c.Hub(), "the form's LTCBTC", func(m *market.Snapshot) bool { return m.Quotes["LTCBTC"].Last != "" })
	c.Follow("")
	waitFor(t, c.Hub(), "LTCBTC hidden when the form closed", func(m *market.Snapshot) bool {
		_, ok := m.Quotes["LTCBTC"]
		return !ok
	})
	placeLTCBTC(t, s)
	waitFor(t, c.Hub(), "LTCBTC shown again for its order", func(m *market.Snapshot) bool { return m.Quotes["LTCBTC"].Last != "" })
}
