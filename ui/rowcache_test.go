package ui

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"bhtop/actions"
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
