package state

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/shopspring/decimal"
)

// TestFillScanArrivalOrders: what a FillScan counts of a Store's fills
// (as the metrics do: bhtop_fills_total, bhtop_fees_total), scanning after
// every step, is at every step the executions that came so far, and in
// the end every execution once, whatever the order in which an
// execution's myTrades record (ApplyTrades, as a resync brings it) and its
// order event (ApplyFrame) come: record then event, event then record,
// either half dropped (retention) before the other comes, events without
// trade id t (sim.Faults.NoTradeIDs) or with it, and two executions of
// one order alike in quantity and price. Fees add up to one commission an
// execution. Run on both markets.
func TestFillScanArrivalOrders(t *testing.T) {
	type step struct {
		frame []byte      // an order event, or
		recs  []TradeSnap // a myTrades batch
		want  int         // executions counted after it
	}
	type tcase struct {
		name string
		keep int // fill retention
		// steps builds the steps: ev is the event of order 8's execution
		// with z after it (t "" leaves t out), rec the record of order 8's
		// trade id, other an unrelated complete execution (its own order,
		// event with t) that makes the retention drop the oldest.
		steps func(ev func(z, t string) []byte, rec func(id string) TradeSnap, other func(k int) []byte) []step
	}
	cases := []tcase{
		{"record then event", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: ev("1", ""), want: 1}}
		}},
		{"record then event with t", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: ev("1", "700"), want: 1}}
		}},
		{"event then record", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{frame: ev("1", ""), want: 1}, {recs: []TradeSnap{rec("700")}, want: 1}}
		}},
		{"event with t then record", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{frame: ev("1", "700"), want: 1}, {recs: []TradeSnap{rec("700")}, want: 1}}
		}},
		{"record dropped before its event", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: other(1), want: 2}, {frame: ev("1", ""), want: 2}, {frame: other(2), want: 3}}
		}},
		{"record dropped before its event with t", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: other(1), want: 2}, {frame: ev("1", "700"), want: 2}, {frame: other(2), want: 3}}
		}},
		{"event dropped before its record", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{frame: ev("1", ""), want: 1}, {frame: other(1), want: 2}, {recs: []TradeSnap{rec("700")}, want: 2}, {frame: other(2), want: 3}}
		}},
		{"event with t dropped before its record", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{frame: ev("1", "700"), want: 1}, {frame: other(1), want: 2}, {recs: []TradeSnap{rec("700")}, want: 2}}
		}},
		{"two alike: records then events", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {recs: []TradeSnap{rec("701")}, want: 2},
				{frame: ev("1", ""), want: 2}, {frame: ev("2", ""), want: 2}}
		}},
		{"two alike: records in one batch then events", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700"), rec("701")}, want: 2}, {frame: ev("1", ""), want: 2}, {frame: ev("2", ""), want: 2}}
		}},
		{"two alike: records then events with t", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700"), rec("701")}, want: 2}, {frame: ev("1", "700"), want: 2}, {frame: ev("2", "701"), want: 2}}
		}},
		{"two alike: events then records", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{frame: ev("1", ""), want: 1}, {frame: ev("2", ""), want: 2},
				{recs: []TradeSnap{rec("700")}, want: 2}, {recs: []TradeSnap{rec("701")}, want: 2}}
		}},
		{"two alike: record, event, event, record", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: ev("1", ""), want: 1},
				{frame: ev("2", ""), want: 2}, {recs: []TradeSnap{rec("701")}, want: 2}}
		}},
		{"two alike: event, record, record, event", 100, func(ev func(z, t string) []byte, rec func(string) TradeSnap, _ func(int) []byte) []step {
			return []step{{frame: ev("1", ""), want: 1}, {recs: []TradeSnap{rec("700")}, want: 1},
				{recs: []TradeSnap{rec("701")}, want: 2}, {frame: ev("2", ""), want: 2}}
		}},
		{"two alike: records dropped before their events", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {recs: []TradeSnap{rec("701")}, want: 2}, {frame: other(1), want: 3},
				{frame: ev("1", ""), want: 3}, {frame: ev("2", ""), want: 3}, {frame: other(2), want: 4}}
		}},
		{"two alike: one record dropped before the events", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: other(1), want: 2},
				{frame: ev("1", ""), want: 2}, {frame: ev("2", ""), want: 3}, {recs: []TradeSnap{rec("701")}, want: 3}}
		}},
		{"two alike: each record dropped before its event", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			// (The second record merged into the first event, paired with
			// the first record: 2 counted of 3 until the second event came.)
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: other(1), want: 2}, {frame: ev("1", ""), want: 2},
				{recs: []TradeSnap{rec("701")}, want: 3}, {frame: other(2), want: 4}, {frame: ev("2", ""), want: 4}, {frame: other(3), want: 5}}
		}},
		{"two alike: record, its event, dropped, record, dropped, event", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {frame: ev("1", ""), want: 1}, {frame: other(1), want: 2},
				{recs: []TradeSnap{rec("701")}, want: 3}, {frame: other(2), want: 4}, {frame: ev("2", ""), want: 4}}
		}},
		{"two alike: events dropped before their records", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{frame: ev("1", ""), want: 1}, {frame: ev("2", ""), want: 2}, {frame: other(1), want: 3},
				{recs: []TradeSnap{rec("700")}, want: 3}, {recs: []TradeSnap{rec("701")}, want: 3}, {frame: other(2), want: 4}}
		}},
		{"two alike: records dropped before events with t", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			return []step{{recs: []TradeSnap{rec("700")}, want: 1}, {recs: []TradeSnap{rec("701")}, want: 2}, {frame: other(1), want: 3},
				{frame: ev("1", "700"), want: 3}, {frame: ev("2", "701"), want: 3}}
		}},
		{"two alike: a batch of records outgrowing the retention", 1, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			// The first record is dropped before a scan saw it: not
			// counted then (as documented), but by an event (the second:
			// the first pairs with the kept record, alike).
			return []step{{recs: []TradeSnap{rec("700"), rec("701")}, want: 1}, {frame: ev("1", ""), want: 1},
				{frame: ev("2", ""), want: 2}, {frame: other(1), want: 3}}
		}},
		{"a resync between the events of a kept retention", 3, func(ev func(z, t string) []byte, rec func(string) TradeSnap, other func(int) []byte) []step {
			// As metrics' TestResyncCountsDroppedFillsOnce: events counted
			// and dropped, then the resync's records of them and of
			// executions whose events come after it.
			return []step{{frame: ev("1", ""), want: 1}, {frame: other(1), want: 2}, {frame: other(2), want: 3}, {frame: other(3), want: 4},
				{recs: []TradeSnap{rec("700"), rec("701"), rec("702")}, want: 6},
				{frame: ev("2", ""), want: 6}, {frame: other(4), want: 7}, {frame: ev("3", ""), want: 7}, {frame: other(5), want: 8}}
		}},
	}
	for _, mkt := range []string{MarketSpot, MarketContract} {
		fee, asset, symbol := "0.0001", "BTC", "ETHBTC"
		if mkt == MarketContract {
			fee, asset, symbol = "0.01", "USDT", "ETH-PERP"
		}
		for _, c := range cases {
			t.Run(mkt+"/"+c.name, func(t *testing.T) {
				e := int64(100)
				ev := func(z, tid string) []byte { e++; return execFill(mkt, "8", e, "1", "0.05", z, tid) }
				rec := func(id string) TradeSnap {
					e++
					return TradeSnap{Market: mkt, Symbol: symbol, TradeID: id, OrderID: "8", Side: "SELL",
						Price: "0.05", Qty: "1", Commission: fee, CommissionAsset: asset, Time: e}
				}
				other := func(k int) []byte {
					e++
					return execFill(mkt, strconv.Itoa(90+k), e, "1", "0.05", "1", strconv.Itoa(900+k))
				}
				s := NewStore(WithFillRetention(c.keep))
				var scan FillScan
				n, fees, unit := 0, decimal.Zero, decimal.RequireFromString(fee)
				for i, st := range c.steps(ev, rec, other) {
					if st.frame != nil {
						s.ApplyFrame(st.frame, nil)
					} else {
						s.ApplyTrades(st.recs)
					}
					snap := s.Snapshot()
					scan.Scan(snap.Fills, func(f *Fill) {
						n++
						if f.CommissionAsset != asset {
							t.Errorf("step %d: fill %+v counted with fee asset %q", i, f, f.CommissionAsset)
						}
						fees = fees.Add(decimal.RequireFromString(f.Commission))
					})
					if n != st.want || !fees.Equal(unit.Mul(decimal.NewFromInt(int64(n)))) {
						t.Errorf("step %d: counted %d fills, fees %s; want %d, %s (fills %s)", i, n, fees, st.want,
							unit.Mul(decimal.NewFromInt(int64(st.want))), fillsText(snap.Fills))
					}
				}
			})
		}
	}
}

func fillsText(fills []Fill) string {
	s := ""
	for _, f := range fills {
		s += fmt.Sprintf("[order %s t %q seq %d again %d] ", f.OrderID, f.TradeID, f.Seq, f.Again)
	}
	return s
}

// TestFillScanArrivalInterleavings: the same over random interleavings of
// three executions of one order alike in quantity and price, or some at
// another price (records in trade id order, one or two a batch, events in
// z order, as the service and the stream send them) and unrelated
// executions, with a retention of 1 to 4 fills and a
// scan after every step: never more counted than the executions come so
// far, and in the end each once.
func TestFillScanArrivalInterleavings(t *testing.T) {
	const alike = 3
	rng := rand.New(rand.NewPCG(7, 11))
	for run := range 5000 {
		mkt, fee := MarketSpot, "0.0001"
		if run%2 == 1 {
			mkt, fee = MarketContract, "0.01"
		}
		withT := run%3 == 0
		keep := 1 + rng.IntN(4)
		s := NewStore(WithFillRetention(keep))
		var scan FillScan
		counted, e, recs, evs, others := 0, int64(100), 0, 0, 0
		came := map[int]bool{}  // executions of order 8 a half of which came
		var price [alike]string // alike, or some at another price
		for i := range price {
			price[i] = "0.05"
			if run%4 == 3 && rng.IntN(2) == 0 {
				price[i] = "0.06"
			}
		}
		var log []string
		for recs < alike || evs < alike {
			e++
			switch k := rng.IntN(5); {
			case k < 2 && recs < alike:
				var batch []TradeSnap // a resync's: one or two records
				for n := 1 + rng.IntN(2); n > 0 && recs < alike; n-- {
					batch = append(batch, TradeSnap{Market: mkt, Symbol: "X", TradeID: strconv.Itoa(700 + recs), OrderID: "8", Side: "SELL",
						Price: price[recs], Qty: "1", Commission: fee, CommissionAsset: "A", Time: e})
					came[recs] = true
					log = append(log, "rec"+strconv.Itoa(recs))
					recs++
				}
				s.ApplyTrades(batch)
			case k < 4 && evs < alike:
				tid := ""
				if withT {
					tid = strconv.Itoa(700 + evs)
				}
				s.ApplyFrame(execFill(mkt, "8", e, "1", price[evs], strconv.Itoa(evs+1), tid), nil)
				came[evs] = true
				log = append(log, "ev"+strconv.Itoa(evs))
				evs++
			default:
				others++
				s.ApplyFrame(execFill(mkt, strconv.Itoa(90+others), e, "1", "0.05", "1", strconv.Itoa(900+others)), nil)
				log = append(log, "other")
			}
			scan.Scan(s.Snapshot().Fills, func(*Fill) { counted++ })
			if counted > len(came)+others {
				t.Fatalf("run %d (%s, t %v, keep %d) %v: counted %d, more than the %d executions come", run, mkt, withT, keep, log, counted, len(came)+others)
			}
		}
		if counted != alike+others {
			t.Errorf("run %d (%s, t %v, keep %d) %v: counted %d, want %d", run, mkt, withT, keep, log, counted, alike+others)
		}
	}
}
