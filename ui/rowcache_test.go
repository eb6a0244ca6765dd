package ui

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"bhtop/actions"
	"bhtop/market"
	"bhtop/state"
)

// wantFeeNote is the fee note made the plain way, from actions.FeeTotals.
func wantFeeNote(fills []state.Fill) string {
	totals := actions.FeeTotals(fills)
	if len(totals) == 0 {
		return ""
	}
	parts := make([]string, len(totals))
	for i, t := range totals {
		parts[i] = t.Total.String() + " " + t.Asset
	}
	return "fees " + strings.Join(parts, " · ")
}

// TestFeeNoteIncremental: the shared, incremental fee totals equal
// actions.FeeTotals over the fills shown, on random fills of two
// accounts sharing one cache, with the oldest evicted from the ring,
// late fills placed among the shown ones, commissions that do not parse
// and assets that leave the note.
func TestFeeNoteIncremental(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	c := NewRowCache()
	stores := []*state.Store{state.NewStore(state.WithFillRetention(30)), state.NewStore(state.WithFillRetention(7))}
	assets := []string{"BNB", "USDT", "BTC", "", "ETH"}
	fees := []string{"0.1", "0.25", "0.00000001", "12.5", "1e-3", "", "x", "0", "-0.5", "3.140"}
	times := []int64{0, 0}
	checked, incremental := 0, 0
	for i := 1; i <= 5000; i++ {
		k := rnd.IntN(2)
		s := stores[k]
		times[k] += int64(rnd.IntN(3))
		tm := times[k]
		if rnd.IntN(12) == 0 {
			tm -= int64(rnd.IntN(20)) // late: placed among the shown fills
		}
		asset := assets[rnd.IntN(len(assets))]
		if i > 2500 && asset == "ETH" {
			asset = "BNB" // ETH leaves the note as its fills are evicted
		}
		s.ApplyTrades([]state.TradeSnap{{Market: state.MarketSpot, Symbol: "BTCUSDT", TradeID: strconv.Itoa(i),
			OrderID: strconv.Itoa(1 + i%11), Side: "BUY", Price: "100", Qty: "1",
			Commission: fees[rnd.IntN(len(fees))], CommissionAsset: asset, Time: tm}})
		if rnd.IntN(4) != 0 {
			continue
		}
		snap := s.Snapshot()
		for _, f := range c.fees {
			if !f.same(snap.Fills) && f.shift(snap.Fills) >= 0 {
				incremental++
				break
			}
		}
		for range 1 + rnd.IntN(2) { // asked again: from the cache
			if got, want := c.feeNote(snap.Fills), wantFeeNote(snap.Fills); got != want {
				t.Fatalf("after %d fills, account %d: fee note %q, want %q", i, k, got, want)
			}
		}
		checked++
	}
	if checked < 1000 || incremental < checked/8 {
		t.Fatalf("%d snapshots checked, %d of them summed from the previous", checked, incremental)
	}
}

// randomOrder is a random order row: few prices, symbols and ages, so
// the sorts have many ties.
func randomOrder(rnd *rand.Rand, market string, id int) *state.Order {
	status := []string{"NEW", "PARTIALLY_FILLED", "FILLED", "CANCELED"}[rnd.IntN(4)]
	return &state.Order{Market: market, Symbol: []string{"BTCUSDT", "ETHUSDT", "X"}[rnd.IntN(3)],
		OrderID: strconv.Itoa(id), Side: []string{"BUY", "SELL"}[rnd.IntN(2)], Type: "LIMIT",
		Price: []string{"1", "1.5", "10", "100.25", "2"}[rnd.IntN(5)], Quantity: strconv.Itoa(1 + rnd.IntN(3)),
		ExecutedQty: "0", Status: status, Created: int64(rnd.IntN(5))}
}

// TestPatchOrders: the Open Orders rows patched from the previous
// snapshot's by the orders that changed are the rows built afresh, in
// both modes and every sort, on random adds, changes and removals.
func TestPatchOrders(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	p := newPanes()[paneOrders]
	var rows []*state.Order // in the dump's order
	next := 1
	snap := func(v uint64) *state.Snapshot {
		return &state.Snapshot{Version: v, Orders: state.NewOrderRows(rows...), Pending: []state.Pending{}}
	}
	prev := snap(1)
	mk := &mktView{snap: &market.Snapshot{Quotes: map[string]market.Quote{"BTCUSDT": {Last: "97000.5"}, "ETHUSDT": {Last: "3100.125"}}}}
	patched := 0
	for v := uint64(2); v < 300; v++ {
		for range 1 + rnd.IntN(6) {
			switch i := rnd.IntN(len(rows) + 1); {
			case i == len(rows) || rnd.IntN(3) == 0:
				rows = append(rows, randomOrder(rnd, []string{"spot", "contract"}[rnd.IntN(2)], next))
				next += 1 + rnd.IntN(20)
			case rnd.IntN(2) == 0:
				rows = append(rows[:i], rows[i+1:]...)
			default:
				o := randomOrder(rnd, rows[i].Market, 0)
				o.OrderID = rows[i].OrderID
				rows[i] = o
			}
		}
		slices.SortFunc(rows, func(a, b *state.Order) int { // the dump's order, as a Store's
			x, _ := strconv.Atoi(a.OrderID)
			y, _ := strconv.Atoi(b.OrderID)
			return cmp.Or(strings.Compare(a.Market, b.Market), cmp.Compare(x, y))
		})
		s := snap(v)
		for _, sortIdx := range append([]int{-1}, slicesIndexes(p.sorts)...) {
			for _, desc := range []bool{false, true} {
				for mode := range 2 {
					p.sortIdx, p.desc = sortIdx, desc
					col := -1
					if sortIdx >= 0 {
						col = p.sorts[sortIdx]
					}
					if col >= 0 && p.cols[col].cmp == nil {
						continue // a market sort: never shared
					}
					old := buildRows(&p, rowsKey{snap: prev, pane: paneOrders, mode: mode, col: col, desc: desc})
					old.quotes.widths(&p, old.rows, mk) // measured: the patch counts the changed rows
					k := rowsKey{snap: s, pane: paneOrders, mode: mode, col: col, desc: desc}
					got := patchOrders(&p, old, k)
					if got == nil {
						continue
					}
					patched++
					want := buildRows(&p, k)
					if !slices.Equal(got.rows, want.rows) || !slices.Equal(got.widths, want.widths) ||
						!slices.Equal(got.quotes.by, want.quotes.widths(&p, want.rows, mk)) {
						t.Fatalf("version %d, sort %d desc %v mode %d: patched rows differ from built ones", v, sortIdx, desc, mode)
					}
				}
			}
		}
		prev = s
	}
	if patched < 1000 {
		t.Fatalf("only %d patched", patched)
	}
}

func slicesIndexes[T any](s []T) []int {
	out := make([]int, len(s))
	for i := range s {
		out[i] = i
	}
	return out
}

// TestRowCacheShared: dashboards reading one cache at once get the same
// rows for the same snapshot (run with -race).
func TestRowCacheShared(t *testing.T) {
	c := NewRowCache()
	snaps := make([]*state.Snapshot, 20)
	for i := range snaps {
		s := bigSnapshot(200+i, 50, 10)
		s.Version = uint64(i + 1)
		snaps[i] = s
	}
	got := make([][]*sharedRows, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := newPanes()[paneOrders]
			p.sortIdx = 4 // price
			for _, s := range snaps {
				got[g] = append(got[g], c.paneRows(&p, s, 0))
				c.feeNote(s.Fills)
			}
		}()
	}
	wg.Wait()
	for g := 1; g < len(got); g++ {
		for i := range snaps {
			if got[g][i] != got[0][i] {
				t.Fatalf("dashboard %d got other rows for snapshot %d", g, i)
			}
		}
	}
}
