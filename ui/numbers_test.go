package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/value"
)

// TestPadDecAligns: every value of a column puts its point (or where its
// point would be) at the same offset.
func TestPadDecAligns(t *testing.T) {
	vals := []string{"10250.75", "0.5", "12", "1.23456789", "-35.25"}
	intW, fracW := 0, 0
	for _, v := range vals {
		i, f := decParts(v)
		intW, fracW = max(intW, i), max(fracW, f)
	}
	for _, v := range vals {
		var b strings.Builder
		padDec(&b, v, intW, fracW)
		got := b.String()
		if len(got) != decWidth(intW, fracW) {
			t.Errorf("padDec(%q) = %q, %d wide, want %d", v, got, len(got), decWidth(intW, fracW))
		}
		if p := strings.IndexByte(got, '.'); p >= 0 && p != intW {
			t.Errorf("padDec(%q) = %q, point at %d, want %d", v, got, p, intW)
		}
		if strings.TrimSpace(got) != v {
			t.Errorf("padDec(%q) = %q changed the number", v, got)
		}
	}
}

func TestFillPct(t *testing.T) {
	for _, tc := range []struct{ z, q, want string }{
		{"0.004", "0.01", "40.0"},
		{"1", "3", "33.3"},
		{"2", "3", "66.7"},
		{"3", "3", "100.0"},
		{"0", "5", "0.0"},
		{"1", "0", ""},
		{"", "1", ""},
	} {
		if got := fillPct(tc.z, tc.q); got != tc.want {
			t.Errorf("fillPct(%q, %q) = %q, want %q", tc.z, tc.q, got, tc.want)
		}
	}
}

func TestAges(t *testing.T) {
	for _, tc := range []struct {
		d            time.Duration
		compact, two string
	}{
		{0, "0s", "0s"},
		{45 * time.Second, "45s", "45s"},
		{3*time.Minute + 5*time.Second, "3m", "3m05s"},
		{62 * time.Minute, "1h", "1h02m"},
		{50 * time.Hour, "2d", "50h00m"},
		{-time.Second, "0s", "0s"},
	} {
		if got := compactAge(tc.d); got != tc.compact {
			t.Errorf("compactAge(%s) = %q, want %q", tc.d, got, tc.compact)
		}
		if got := twoUnitAge(tc.d); got != tc.two {
			t.Errorf("twoUnitAge(%s) = %q, want %q", tc.d, got, tc.two)
		}
	}
}

// TestSortByPriceIsNumeric: s on the price column orders by value, not
// text, and S reverses.
func TestSortByPriceIsNumeric(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow)), 160, 48)
	m = press(t, m, "2 s s s s s") // Mkt, Symbol, Side, Type, Price
	p := m.panes[paneOrders]
	if p.sortName() != "Price" {
		t.Fatalf("sort column = %q, want Price", p.sortName())
	}
	var got []string
	for _, it := range p.rows[p.pinned:] {
		got = append(got, it.ord.Price)
	}
	want := "0.0345 2500.25 60000 61000.5"
	if strings.Join(got, " ") != want {
		t.Errorf("prices sorted = %v, want %s", got, want)
	}
	m = press(t, m, "S")
	p = m.panes[paneOrders]
	if first := p.rows[p.pinned].ord.Price; first != "61000.5" {
		t.Errorf("reversed: first price %s, want 61000.5", first)
	}
}

// TestSymbolsWidth: the fast count agrees with ansi on every symbol it
// counts as one cell.
func TestSymbolsWidth(t *testing.T) {
	for _, s := range []string{"✓", "▶ BTC", "› x", "▁▂▃▄▅▆▇█", "◀61000", "↑liq", "⚠ may be stale", "a…", "• ·", "━┃│╌", "é", "日本", "✕ closed", "—–"} {
		if got, want := textWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("textWidth(%q) = %d, ansi says %d", s, got, want)
		}
	}
}

func TestWriteFitCutsASCIIAsFit(t *testing.T) {
	for _, s := range []string{"fill BUY 0.5 ETHBTC @ 0.0345", "abc", "x", "connected to the user stream"} {
		for w := 1; w <= len(s)+2; w++ {
			var b strings.Builder
			writeFit(&b, s, w)
			if got, want := b.String(), fit(s, w); got != want {
				t.Errorf("writeFit(%q, %d) = %q, fit gives %q", s, w, got, want)
			}
		}
	}
}

// TestRoundedToZeroIsNeutral: an unrealized PnL of ±0.004 USDT reads
// "0.00" (signed() writes no sign on a zero) but was painted red or
// green by the exact value's sign, looking like a loss or a gain. What
// reads as zero at the shown precision is neutral: the uPnL (and its %,
// which takes the uPnL's colour), the header's equity change and the
// Market pane's 24 h change alike. The dump keeps the exact value.
func TestRoundedToZeroIsNeutral(t *testing.T) {
	d := func(s string) *decimal.Decimal { v := decimal.RequireFromString(s); return &v }
	for _, tc := range []struct {
		pnl, pct string
		text     string
		sign     int
	}{
		{"-0.004", "-0.001", "0.00", 0},
		{"0.004", "0.001", "0.00", 0},
		{"-0.005", "-0.01", "-0.01", -1},
		{"0.006", "0.01", "+0.01", 1},
	} {
		c := positionCells(&value.PositionValue{Unrealized: d(tc.pnl), UnrealizedPct: d(tc.pct), PnLAsset: "USDT"})
		if c.pnl != tc.text || c.sign != tc.sign {
			t.Errorf("uPnL %s: %q sign %d, want %q sign %d", tc.pnl, c.pnl, c.sign, tc.text, tc.sign)
		}
	}
	// Equity 1000 → 1000.00004: +0.000004%, "0.00%".
	e := equityTexts(&value.Valuation{Asset: "USDT", Equity: *d("1000.00004")}, d("1000"))
	if e.change != "0.00%" || e.sign != 0 {
		t.Errorf("equity change %q sign %d, want \"0.00%%\" sign 0", e.change, e.sign)
	}
	rows, _ := marketRows(&market.Snapshot{Quotes: map[string]market.Quote{"BTCUSDT": {Open24h: "60000", Last: "59999.99"}}}, nil)
	if len(rows) != 1 || rows[0].change != "0.00%" || rows[0].sign != 0 {
		t.Errorf("market rows %+v, want a 24 h change \"0.00%%\" of sign 0", rows)
	}
}

// TestSignedDurRounds: the status line's clock offset is the measured
// one to the unit shown: 29.999 s reads +30s (it read +29s, a second off
// the service's 30 s skew); under 10 s it is in whole milliseconds.
func TestSignedDurRounds(t *testing.T) {
	for d, want := range map[time.Duration]string{
		29999242381 * time.Nanosecond:         "+30s",
		-29999242381 * time.Nanosecond:        "-30s",
		3*time.Second + 600*time.Microsecond:  "+3001ms",
		89*time.Second + 700*time.Millisecond: "+1m30s",
		400 * time.Microsecond:                "±0ms",
		10*time.Second - 300*time.Microsecond: "+10s",
	} {
		if got := signedDur(d); got != want {
			t.Errorf("signedDur(%v) = %q, want %q", d, got, want)
		}
	}
}
