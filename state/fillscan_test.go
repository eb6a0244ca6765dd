package state

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFillScanOncePerFill: FillScan over a Store's snapshots visits each
// fill once: two executions of one order alike in quantity and time
// (events without t) are two; the myTrades records that pair with them
// later (giving them their trade ids) are not new; and a fill the Store
// dropped (retention) that a record brings back is not new either.
func TestFillScanOncePerFill(t *testing.T) {
	s := NewStore(WithFillRetention(3))
	var scan FillScan
	var seen []string
	step := func(want string) {
		t.Helper()
		seen = seen[:0]
		scan.Scan(s.Snapshot().Fills, func(f *Fill) { seen = append(seen, f.OrderID+"/"+f.Qty+"/"+f.TradeID) })
		if got := strings.Join(seen, " "); got != want {
			t.Errorf("visited %q, want %q", got, want)
		}
	}
	// Two executions of order 8 at one time and quantity, no t.
	fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""), execFill(MarketSpot, "8", 30, "1", "0.05", "2", ""))
	step("8/1/ 8/1/")
	rec := func(id string, qty string, time int64) TradeSnap {
		return TradeSnap{Market: MarketSpot, Symbol: "ETHBTC", TradeID: id, OrderID: "8", Side: "SELL", Price: "0.05",
			Qty: qty, Commission: "0.0001", CommissionAsset: "BTC", Time: time}
	}
	s.ApplyTrades([]TradeSnap{rec("700", "1", 30), rec("701", "1", 30)})
	step("")
	// Two new fills: the first of order 8 is dropped (retention 3).
	fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"), execFill(MarketSpot, "9", 41, "1", "0.05", "2", "901"))
	step("9/1/900 9/1/901")
	s.ApplyTrades([]TradeSnap{rec("700", "1", 30)}) // a resync reads it again
	if n := len(s.Snapshot().Fills); n != 3 {
		t.Fatalf("%d fills kept, want 3", n)
	}
	step("")
}

// TestFillScanShuffled: whatever the order the events (repeated, with t or
// without) and the myTrades records (some twice, some never) of a set of
// executions come in, self-trades included (two orders, one trade id),
// the Store keeps one fill per execution and FillScan, scanning at random
// points, visits each once; with a small retention too when every
// snapshot is scanned (a fill evicted unseen is not counted) and events
// carry t (without t, an evicted event fill and the record that comes
// after are one execution, state.Fill.Again, but many executions of one
// order alike in quantity and price cannot always be told apart).
func TestFillScanShuffled(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 2))
		retention, withT := 10000, seed%3 != 0
		if withT && seed%2 == 0 {
			retention = 2 + r.IntN(5)
		}
		s := NewStore(WithFillRetention(retention))
		var ops []func()
		execs, zs := 0, map[string]int{}
		addExec := func(order, trade string, e int64) {
			execs++
			zs[order]++
			z, tid := fmt.Sprint(zs[order]), ""
			if withT {
				tid = trade
			}
			ev := func() { fold(s, execFill(MarketSpot, order, e, "1", "0.05", z, tid)) }
			rec := func() {
				s.ApplyTrades([]TradeSnap{{Market: MarketSpot, Symbol: "ETHBTC", TradeID: trade, OrderID: order, Side: "SELL",
					Price: "0.05", Qty: "1", Commission: "0.0001", CommissionAsset: "BTC", Time: e}})
			}
			ops = append(ops, ev)
			for range r.IntN(3) {
				ops = append(ops, ev)
			}
			for range r.IntN(3) {
				ops = append(ops, rec)
			}
		}
		for k := range 30 {
			trade, e := fmt.Sprint(500+k), int64(10+k)
			addExec(fmt.Sprint(1+r.IntN(4)), trade, e)
			if r.IntN(3) == 0 {
				addExec(fmt.Sprint(5+r.IntN(3)), trade, e) // the other side of a self-trade
			}
		}
		r.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
		var scan FillScan
		visits := 0
		for _, op := range ops {
			op()
			if retention < 100 || r.IntN(2) == 0 {
				scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
			}
		}
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		if n := len(s.Snapshot().Fills); retention > 100 && n != execs {
			t.Errorf("seed %d: %d fills kept, want %d", seed, n, execs)
		}
		if visits != execs {
			t.Errorf("seed %d (retention %d, t %v): %d fills visited, want %d", seed, retention, withT, visits, execs)
		}
	}
}

// TestFillScanRemembersPastRebuild: when FillScan's memory outgrows its
// bound it is not rebuilt from the last snapshot alone: a fill the Store
// dropped long before (retention) that a resync's record brings back
// after many more fills is still not new.
func TestFillScanRemembersPastRebuild(t *testing.T) {
	s := NewStore(WithFillRetention(2))
	var scan FillScan
	visits := 0
	count := func(*Fill) { visits++ }
	fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", "700"))
	scan.Scan(s.Snapshot().Fills, count)
	for k := range 700 { // past one rebuild (4×2+1024 keys, two a fill)
		fold(s, execFill(MarketSpot, fmt.Sprint(100+k), int64(40+k), "1", "0.05", "1", fmt.Sprint(1000+k)))
		scan.Scan(s.Snapshot().Fills, count)
	}
	visits = 0
	s.ApplyTrades([]TradeSnap{{Market: MarketSpot, Symbol: "ETHBTC", TradeID: "700", OrderID: "8", Side: "SELL",
		Price: "0.05", Qty: "1", Commission: "0.0001", CommissionAsset: "BTC", Time: 30}})
	scan.Scan(s.Snapshot().Fills, count)
	if visits != 0 {
		t.Errorf("the record of a fill seen 700 fills before visited %d times, want 0", visits)
	}
}

// TestFillScanRecordOfDroppedFill: an event fill without t that the
// Store dropped (retention) before its myTrades record came is counted
// once: the record, a new fill of the Store, is Again; and so is an
// event without t whose record was dropped before it came.
func TestFillScanRecordOfDroppedFill(t *testing.T) {
	rec := func(id, order string, time int64) TradeSnap {
		return TradeSnap{Market: MarketSpot, Symbol: "ETHBTC", TradeID: id, OrderID: order, Side: "SELL",
			Price: "0.05", Qty: "1", Commission: "0.0001", CommissionAsset: "BTC", Time: time}
	}
	t.Run("event first", func(t *testing.T) {
		s := NewStore(WithFillRetention(1))
		var scan FillScan
		visits := 0
		fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		s.ApplyTrades([]TradeSnap{rec("700", "8", 30)})
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		s.ApplyTrades([]TradeSnap{rec("701", "8", 31)}) // another execution: new
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		if visits != 3 {
			t.Errorf("%d fills visited, want 3", visits)
		}
	})
	t.Run("event dropped unseen", func(t *testing.T) { // counted once: by its record
		s := NewStore(WithFillRetention(1))
		var scan FillScan
		visits := 0
		fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""))
		fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		s.ApplyTrades([]TradeSnap{rec("700", "8", 30)})
		snap := s.Snapshot()
		scan.Scan(snap.Fills, func(*Fill) { visits++ })
		if visits != 2 || snap.Fills[len(snap.Fills)-1].Again == 0 {
			t.Errorf("%d fills visited, want 2 (the record Again: %+v)", visits, snap.Fills)
		}
	})
	t.Run("record first", func(t *testing.T) {
		s := NewStore(WithFillRetention(1))
		var scan FillScan
		visits := 0
		s.ApplyTrades([]TradeSnap{rec("700", "8", 30)})
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		fold(s, execFill(MarketSpot, "8", 31, "1", "0.05", "2", "")) // another execution: new
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		if visits != 3 {
			t.Errorf("%d fills visited, want 3", visits)
		}
	})
	t.Run("complete event dropped", func(t *testing.T) { // its record came before the drop: no half lacks
		s := NewStore(WithFillRetention(1))
		var scan FillScan
		visits := 0
		fold(s, execFill(MarketSpot, "7", 20, "1", "0.05", "1", "")) // a half dropped before
		fold(s, execFill(MarketSpot, "8", 30, "1", "0.05", "1", ""))
		s.ApplyTrades([]TradeSnap{rec("700", "8", 30)}) // its record: one fill, complete
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		fold(s, execFill(MarketSpot, "9", 40, "1", "0.05", "1", "900"))
		scan.Scan(s.Snapshot().Fills, func(*Fill) { visits++ })
		s.ApplyTrades([]TradeSnap{rec("701", "8", 31)}) // another execution of order 8 (its event missed): new
		snap := s.Snapshot()
		scan.Scan(snap.Fills, func(*Fill) { visits++ })
		if visits != 3 || snap.Fills[0].Again != 0 {
			t.Errorf("%d fills visited, want 3 (not Again: %+v)", visits, snap.Fills)
		}
	})
}
