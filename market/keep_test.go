package market_test

import (
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/sim"
	"bhtop/state"
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
