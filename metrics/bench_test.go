package metrics

import (
	"context"
	"fmt"
	"testing"

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
	for i := range 50 {
		a := fmt.Sprintf("A%d", i)
		st.Balances = append(st.Balances, state.Balance{Asset: a, Free: "10", Locked: "1"})
		mk.Quotes[a+"USDT"] = market.Quote{Symbol: a + "USDT", Last: "1.5"}
	}
	for i := range 20 {
		s := fmt.Sprintf("C%d-PERP", i)
		st.Positions = append(st.Positions, state.Position{Symbol: s, Side: "LONG", AvgPrice: "100", Total: "3", LiquidationPrice: "80"})
		mk.Quotes[s] = market.Quote{Symbol: s, Mark: "101"}
		mk.Instruments[s] = market.Instrument{Symbol: s, Quote: "USDT", Contract: true, Multiplier: "1"}
	}
	var sh state.Hub
	sh.Publish(st)
	var mh market.Hub
	mh.Publish(mk)
	reg := New()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reg.AddAccount(ctx, Account{Name: "main", State: &sh, Market: &mh, Status: func() stream.Status { return stream.Status{State: stream.StateLive} }})
	reg.CountRequest("GET /openapi/v1/account", 200)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := reg.Gatherer().Gather(); err != nil {
			b.Fatal(err)
		}
	}
}
