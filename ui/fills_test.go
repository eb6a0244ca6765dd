package ui

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"bhtop/state"
)

// TestFillsFeeTotalsFit: the Fills title's fee totals are never cut
// mid-amount ("…"): the assets that do not fit give way whole, counted
// as "+N more"; the totals of three assets all show at 200 columns.
func TestFillsFeeTotalsFit(t *testing.T) {
	for _, tc := range []struct {
		added []string
		sizes [][2]int
	}{
		{[]string{"ETH", "BNB", "LTC", "XRP", "BHT"}, [][2]int{{80, 24}, {160, 48}, {200, 60}}},
		{[]string{"BNB"}, [][2]int{{200, 60}}},
	} {
		snap := testSnapshot()
		for i, asset := range tc.added {
			f := snap.Fills[2]
			f.TradeID, f.CommissionAsset, f.Commission = strconv.Itoa(6000+i), asset, "0.12345678"
			snap.Fills = append(snap.Fills, f)
		}
		n := len(tc.added) + 2 // and the fixture's BTC and USDT
		for _, sz := range tc.sizes {
			t.Run(fmt.Sprintf("%d-assets/%dx%d", n, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, sized(New(newTestBackend(snap), &testTrader{}, WithNow(fixedNow)), sz[0], sz[1]), "6 s")
				out := plainGolden(t, m, sz[0], sz[1])
				var title string
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, "Fills (") {
						title = l
					}
				}
				if !strings.Contains(title, "sort:") || !strings.Contains(title, "fees ") {
					t.Fatalf("the Fills title %q lacks its sort or its fee totals", title)
				}
				if strings.Contains(title, "…") {
					t.Errorf("the Fills title cuts its fee totals: %q", title)
				}
				shown := strings.Count(title, " · ") + 1
				if more := strings.Contains(title, "more"); more {
					shown-- // the count of the others
				}
				if n <= 3 && shown != n {
					t.Errorf("%d of %d fee totals show at %d columns: %q", shown, n, sz[0], title)
				}
				if n > 3 && !strings.Contains(title, fmt.Sprintf("+%d more", n-shown)) {
					t.Errorf("%d of %d fee totals show, want the others counted as '+%d more': %q", shown, n, n-shown, title)
				}
			})
		}
	}
}

// TestFitNote: the note's items give way whole, from the end.
func TestFitNote(t *testing.T) {
	note := "fees 1.5 BNB · 0.3 USDT · 2.25 ETHW"
	for _, tc := range []struct {
		room int
		want string
	}{
		{100, note},
		{textWidth(note), note},
		{textWidth(note) - 1, "fees 1.5 BNB · 0.3 USDT · +1 more"},
		{textWidth("fees 1.5 BNB · 0.3 USDT · +1 more") - 1, "fees 1.5 BNB · +2 more"},
		{textWidth("fees 1.5 BNB · +2 more") - 1, "fees +3 more"},
		{5, ""},
	} {
		if got := fitNote(note, tc.room); got != tc.want {
			t.Errorf("fitNote(%d) = %q, want %q", tc.room, got, tc.want)
		}
	}
}

// TestFillRowID: the cursor follows a fill by its row's id, which must
// stay while the fill gains its trade id (a resync's myTrades record
// pairing with an event that had no t) and tell apart two executions of
// one order at one time without t (both are fills, DESIGN.md).
func TestFillRowID(t *testing.T) {
	f := state.Fill{Market: state.MarketSpot, OrderID: "8", Qty: "1", Time: 30, Seq: 1}
	twin := f
	twin.Seq = 2
	paired := f
	paired.TradeID = "700"
	id := func(f state.Fill) string { return (&item{fill: &f}).id() }
	if id(f) == id(twin) {
		t.Errorf("two fills, one id %q", id(f))
	}
	if id(f) != id(paired) {
		t.Errorf("the fill's id went from %q to %q when it gained its trade id", id(f), id(paired))
	}
}

// simFillsSnapshot is testSnapshot with the simulator's kind of fills:
// spot sides, prices with up to 7 decimals and quantities from 0.000328
// to 1396.
func simFillsSnapshot() *state.Snapshot {
	s := testSnapshot()
	s.Fills = nil
	for i, f := range [][3]string{
		{"BTCUSDT", "61209.38", "0.000328"}, {"BHTUSDT", "0.01441", "1396"}, {"LTCBTC", "0.0013819", "0.06"},
		{"LTCUSDT", "83.91", "0.297"}, {"ETHUSDT", "3002.86", "0.0085"},
	} {
		id := strconv.Itoa(7000 + i)
		s.Fills = append(s.Fills, state.Fill{Market: "spot", Symbol: f[0], OrderID: id, TradeID: id, Side: "SELL",
			Price: f[1], Qty: f[2], QuoteQty: "1", Commission: "0.001", CommissionAsset: "USDT", Time: t0.Add(-time.Duration(50-i) * time.Second).UnixMilli()})
	}
	return s
}

// TestFillsQtyCutNarrow: at 40 columns the Fills' Qty, which the line's
// end cuts, shows each quantity as far as it reads right, as a price is
// cut elsewhere (its start, the "…" for the rest: 0.000328 as
// "0.00032…"), rather than a blank column; a quantity that fits there
// shows whole, and one whose integer part would be cut is left out.
func TestFillsQtyCutNarrow(t *testing.T) {
	m := press(t, sized(New(newTestBackend(simFillsSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 40, 14), "6")
	out := plainGolden(t, m, 40, 14)
	for _, want := range []string{" 1396 ", " 0.06 ", " 0.297", " 0.00032…", " 0.0085", " Qty"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Fills at 40 columns lack %q:\n%s", want, out)
		}
	}
}
