package market_test

import (
	"context"
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
