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
