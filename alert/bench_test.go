package alert

import (
	"fmt"
	"testing"

	"bhtop/internal/benchkit"
	"bhtop/market"
	"bhtop/state"
)

// BenchmarkEvaluate: one evaluation of one rule of every kind over an
// account with 10,000 retained orders, 50 balances and 20 positions, each
// on a new snapshot. "orders changed": the snapshot's order chunks are
// new, its rows the same (the fill and rejection watch compares every row
// by pointer); "orders unchanged": they are shared with the previous
// snapshot, as the state store does; "fills changed": 10,000 retained
// fills, one more (and the oldest evicted) in every other snapshot, as a
// busy account's fills arrive (the new ones are read for fills of orders
// without a row).
func BenchmarkEvaluate(b *testing.B) {
	st := &state.Snapshot{}
	mk := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{}, Instruments: map[string]market.Instrument{}}
	var rows []*state.Order
	for i := range 10000 {
		rows = append(rows, &state.Order{Market: "spot", Symbol: "ETHBTC", OrderID: fmt.Sprint(i), Side: "BUY",
			Type: "LIMIT", Quantity: "2", ExecutedQty: "1", Status: "PARTIALLY_FILLED"})
	}
	st.Orders = state.NewOrderRows(rows...)
	benchkit.Account(st, mk, 50, 20)
	var rules []Rule
	for i, f := range []map[string]any{
		{"kind": "fill"}, {"kind": "order_rejected"},
		{"kind": "balance_below", "asset": "A7", "below": int64(5)},
		{"kind": "equity_below", "below": int64(5)},
		{"kind": "pnl_below", "symbol": "C3-PERP", "below": int64(-5)},
		{"kind": "liquidation_within", "percent": int64(5)},
		{"kind": "stream_silent", "after": "1m"},
		{"kind": "price_cross", "symbol": "A1USDT", "above": int64(5)},
	} {
		r, err := ParseRule(i+1, f)
		if err != nil {
			b.Fatal(err)
		}
		rules = append(rules, r)
	}
	other := state.NewOrderRows(st.Orders.Slice(0, st.Orders.Len())...) // same rows, other chunks
	// A window of 10,000 fills moves along these: one new, the oldest evicted.
	var fills []state.Fill
	for i := range 20000 {
		fills = append(fills, state.Fill{Market: "spot", Symbol: "ETHBTC", OrderID: fmt.Sprint(i % 10000), TradeID: fmt.Sprint(i), Qty: "1", Time: int64(i)})
	}
	st.Fills = fills[:10000]
	for _, changed := range []string{"orders unchanged", "orders changed", "fills changed"} {
		b.Run(changed, func(b *testing.B) {
			e := NewEngine(rules)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s := *st
				s.Version = uint64(i + 1)
				switch {
				case i%2 == 0:
				case changed == "orders changed":
					s.Orders = other
				}
				if changed == "fills changed" {
					k := (i / 2) % 10000
					s.Fills = fills[k : k+10000]
				}
				e.Evaluate(Input{Account: "default", Now: t0, State: &s, Ready: true, Market: mk, ValueIn: "USDT",
					Stream: Stream{LastFrame: t0, Since: t0}})
			}
		})
	}
}
