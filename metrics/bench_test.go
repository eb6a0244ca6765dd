package metrics

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"bhtop/internal/benchkit"
	"bhtop/market"
	"bhtop/state"
	"bhtop/stream"
)

// BenchmarkScrape: one Gather (what a scrape costs bhtop) with one account
// of 50 priced balances, 20 positions and 10,000 retained fills (20
// symbols, 3 fee assets), the Go and process collectors included. The
// ingest path pays nothing for it.
func BenchmarkScrape(b *testing.B) {
	st := &state.Snapshot{Version: 1}
	mk := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{}, Instruments: map[string]market.Instrument{}}
	benchkit.Account(st, mk, 50, 20)
	st.Fills = benchFills(state.DefaultFillRetention)
	var sh state.Hub
	sh.Publish(st)
	var mh market.Hub
	mh.Publish(mk)
	reg := New()
	synced := time.Now() // the equity and PnL are exported
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg.AddAccount(ctx, Account{Name: "main", State: &sh, Market: &mh, Status: func() stream.Status { return stream.Status{State: stream.StateLive, LastSnapshot: synced} }})
	reg.CountRequest("GET /openapi/v1/account", 200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gatherer().Gather(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchFills are n fills of 20 symbols, their fees in 3 assets.
func benchFills(n int) []state.Fill {
	fills := make([]state.Fill, n)
	for i := range fills {
		fills[i] = state.Fill{Market: state.MarketSpot, Symbol: fmt.Sprintf("SYM%dUSDT", i%20),
			OrderID: strconv.Itoa(i / 2), TradeID: strconv.Itoa(i + 1), Side: "BUY", Price: "101.5", Qty: "0.25",
			Commission: "0.0002537", CommissionAsset: []string{"USDT", "BHT", "BTC"}[i%3], Time: int64(1_700_000_000_000 + i)}
	}
	return fills
}

// BenchmarkScrapeNewFills: the fill counters' part of a scrape when 10
// fills were appended since the last one (the oldest 10 evicted), out of
// 10,000 retained: only those are read.
func BenchmarkScrapeNewFills(b *testing.B) {
	const window, step = state.DefaultFillRetention, 10
	pool := benchFills(window + step*10_000)
	var sh state.Hub
	reg := New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg.AddAccount(ctx, Account{Name: "main", State: &sh, Status: func() stream.Status { return stream.Status{} }})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		at := (i * step) % (len(pool) - window)
		i++
		sh.Publish(&state.Snapshot{Version: uint64(i), Fills: pool[at : at+window]})
		if _, err := reg.Gatherer().Gather(); err != nil {
			b.Fatal(err)
		}
	}
}
