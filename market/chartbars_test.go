package market_test

import (
	"context"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// ethbtcOrder is an open order on ETHBTC, a symbol account() does not
// otherwise touch.
func ethbtcOrder() *state.Order {
	return &state.Order{Market: "spot", Symbol: "ETHBTC", OrderID: "1", Side: "BUY", Type: "LIMIT",
		Price: "0.04", Quantity: "1", ExecutedQty: "0", Status: "NEW"}
}

func bars(m *market.Snapshot, sym, iv string) int { return m.Candles[market.CandleKey(sym, iv)].Len() }

// TestChartKeepsItsSymbol: a chart opened on a symbol in the second its
// order appeared keeps its bars when the order goes (the symbol leaves
// the account's symbols and is hidden), also past KeepFor; once charts
// have moved on to other symbols it is dropped, and a chart coming back
// to it gets its bars again. (The chart used to say "no 1m candles for
// ETHBTC yet" from the moment the symbol was hidden; after KeepFor the
// series stayed "followed" with no bars, so asking again did nothing.)
func TestChartKeepsItsSymbol(t *testing.T) {
	s := startSim(t, sim.Options{})
	clk := clock.NewFake(time.Now())
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.Now = clk.Now })
	waitFor(t, c.Hub(), "market up", func(m *market.Snapshot) bool { return m.Health.Up })

	st.Publish(account(2, ethbtcOrder()))
	c.LoadCandles("ETHBTC", "1m") // the chart opened with the order
	waitFor(t, c.Hub(), "ETHBTC quoted and charted", func(m *market.Snapshot) bool {
		_, quoted := m.Quotes["ETHBTC"]
		return quoted && bars(m, "ETHBTC", "1m") > 0
	})
	st.Publish(account(3)) // the order is gone
	m := waitFor(t, c.Hub(), "ETHBTC hidden", func(m *market.Snapshot) bool { _, quoted := m.Quotes["ETHBTC"]; return !quoted })
	if bars(m, "ETHBTC", "1m") == 0 {
		t.Fatal("ETHBTC left the account's symbols: its chart shows no bars")
	}
	clk.Advance(3 * time.Minute) // past KeepFor
	v := m.Version
	m = waitFor(t, c.Hub(), "a recheck past KeepFor", func(m *market.Snapshot) bool { return m.Version > v+5 })
	if bars(m, "ETHBTC", "1m") == 0 {
		t.Fatal("past KeepFor the charted ETHBTC was dropped")
	}

	for _, sym := range []string{"BTCUSDT", "ETHUSDT", "LTCBTC", "XRPUSDT"} { // the charts move on
		c.LoadCandles(sym, "5m")
	}
	waitFor(t, c.Hub(), "ETHBTC no longer charted", func(m *market.Snapshot) bool { return bars(m, "ETHBTC", "1m") == 0 })
	clk.Advance(3 * time.Minute) // dropped
	v = c.Hub().Latest().Version
	waitFor(t, c.Hub(), "a recheck past KeepFor", func(m *market.Snapshot) bool { return m.Version > v+5 })
	c.LoadCandles("ETHBTC", "1m")
	waitFor(t, c.Hub(), "ETHBTC charted again", func(m *market.Snapshot) bool { return bars(m, "ETHBTC", "1m") > 0 })
}

// TestChartBarsWaitForWeight: bars asked for while the request weight
// used is above half the limit are not fetched (the socket may push the
// current bar), the snapshot says why, and the history comes by itself
// (no second ask) once the weight window has passed.
func TestChartBarsWaitForWeight(t *testing.T) {
	clk := clock.NewFake(time.Now().Truncate(time.Minute))
	s := startSim(t, sim.Options{Now: clk.Now, RateLimits: sim.RateLimits{WeightPerMinute: 120, OrdersPerSecond: 10, OrdersPerDay: 1000}})
	rc := rest.New(s.URL(), rest.WithClock(clk.Now))
	st := &state.Hub{}
	st.Publish(account(1))
	c := simtest.Market(t, s, st, func(cfg *market.Config) { cfg.Now, cfg.REST = clk.Now, rc })
	waitFor(t, c.Hub(), "market up", func(m *market.Snapshot) bool { return m.Health.Up })
	for used, limit := rc.Weight(); used <= limit/2+1; used, limit = rc.Weight() {
		if _, err := rc.Depth(context.Background(), "BTCUSDT", 5, false); err != nil { // the account's requests
			t.Fatalf("at weight %d of %d: %v", used, limit, err)
		}
	}

	key := market.CandleKey("ETHBTC", "5m")
	c.LoadCandles("ETHBTC", "5m")
	m := waitFor(t, c.Hub(), "the wait said", func(m *market.Snapshot) bool { return m.BarsWait[key] != "" })
	if got := m.BarsWait[key]; got != market.BarsNoWeight || bars(m, "ETHBTC", "5m") > 1 {
		t.Fatalf("bars asked for over half the weight: BarsWait %q, %d bars; want %q and at most the socket's current bar",
			got, bars(m, "ETHBTC", "5m"), market.BarsNoWeight)
	}
	clk.Advance(2 * time.Minute) // the weight window (a minute and a margin) has passed
	m = waitFor(t, c.Hub(), "the history, retried", func(m *market.Snapshot) bool { return bars(m, "ETHBTC", "5m") > 10 })
	if got := m.BarsWait[key]; got != "" {
		t.Errorf("bars loaded, yet BarsWait says %q", got)
	}
}
