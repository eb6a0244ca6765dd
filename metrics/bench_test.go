package metrics

import (
	"context"
	"testing"
	"time"

	"bhtop/internal/benchkit"
	"bhtop/market"
	"bhtop/state"
	"bhtop/stream"
)

// BenchmarkScrape: one Gather (what a scrape costs bhtop) with one account
// of 50 priced balances and 20 positions, the Go and process collectors
// included. The ingest path pays nothing for it.
func BenchmarkScrape(b *testing.B) {
	st := &state.Snapshot{Version: 1}
	mk := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{}, Instruments: map[string]market.Instrument{}}
	benchkit.Account(st, mk, 50, 20)
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
