package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestEverySizeFits: at every width from 40 to 250 and heights from 10
// to 60 the dashboard (the grid with the Market beside wide Fills, the
// Market or the Fills focused) and the All view of many accounts (names
// of 40 characters, long reasons, notes) draw exactly the screen's
// cells, the All view keeping its Total line; at 80 and 100 columns,
// with desks of every size, no blank row but the one before the Total
// while accounts are left out.
func TestEverySizeFits(t *testing.T) {
	if testing.Short() {
		t.Skip("every size: long")
	}
	opts := []Option{WithNow(fixedNow), WithMarket(marketHub(longSymbolMarket()), "USDT"), WithNoColor(true)}
	dash := New(newTestBackend(widerFillsSnapshot()), &testTrader{}, opts...)
	desk := press(t, NewDesk(stackedDesk(9, "slow-account-with-a-very-long-name-here"), WithNow(fixedNow), WithNoColor(true)), "A")
	// Every height where the layout changes (header, status, tabs), a few
	// beyond: every height to 60 took 40 s.
	heights := []int{29, 30, 36, 40, 45, 48, 50, 55, 60}
	for h := 10; h <= 24; h++ {
		heights = append(heights, h)
	}
	wstep, hstep := 1, 1
	if raceOn { // a sample: every size took 3 minutes
		heights, wstep, hstep = []int{10, 11, 12, 24, 29, 30, 60}, 13, 7
	}
	for w := 40; w <= 250; w += wstep {
		for _, h := range heights {
			for _, keys := range []string{"5", "6"} { // the Market, the Fills focused
				m := press(t, sized(dash, w, h), keys)
				if out := m.View().Content; !fits(out, w, h) {
					t.Fatalf("%dx%d, keys %q: the screen is not %d×%d cells:\n%s", w, h, keys, w, h, ansi.Strip(out))
				}
			}
			checkAllView(t, desk, w, h, false)
		}
	}
	// Desks of every size on the screens where rows stack (80, 100
	// columns): the last account shown on one row, or its note left out,
	// never a blank row. (Narrower, or with longer names, a row whose
	// stream state does not fit beside its amounts is left blank: its
	// state is never cut.)
	for live := range 17 {
		desk := press(t, NewDesk(stackedDesk(live, "slow"), WithNow(fixedNow), WithNoColor(true)), "A")
		for _, w := range []int{80, 100} {
			for h := 10; h <= 60; h += hstep {
				checkAllView(t, desk, w, h, true)
			}
		}
	}
}

// checkAllView checks desk's All view at w×h: exactly its cells, the
// Total line there, and (noBlank) no blank row but the one before it
// while accounts are left out.
func checkAllView(t *testing.T, desk Model, w, h int, noBlank bool) {
	t.Helper()
	out := ansi.Strip(sized(desk, w, h).View().Content)
	if !fits(out, w, h) {
		t.Fatalf("%dx%d, the All view: the screen is not %d×%d cells:\n%s", w, h, w, h, out)
	}
	lines := strings.Split(out, "\n")
	total := -1
	for i, l := range lines {
		if strings.HasPrefix(l, " Total ") {
			total = i
		}
	}
	if total < 0 {
		t.Fatalf("%dx%d: the All view has no Total line:\n%s", w, h, out)
	}
	if !noBlank || !strings.Contains(out, " more") {
		return
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == "" && i != total-1 { // (the line before the Total is blank)
			t.Errorf("%dx%d: a blank row while accounts are left out:\n%s", w, h, out)
			return
		}
	}
}

// fits says s is exactly w×h cells.
func fits(s string, w, h int) bool {
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		return false
	}
	for _, l := range lines {
		if ansi.StringWidth(l) != w {
			return false
		}
	}
	return true
}
