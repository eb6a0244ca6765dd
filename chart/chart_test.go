package chart

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func decs(ss ...string) []decimal.Decimal {
	out := make([]decimal.Decimal, len(ss))
	for i, s := range ss {
		out[i] = decimal.RequireFromString(s)
	}
	return out
}

func TestSparkline(t *testing.T) {
	tests := []struct {
		name   string
		series []string
		width  int
		want   string
	}{
		{"rising", []string{"1", "2", "3", "4", "5", "6", "7", "8"}, 8, "▁▂▃▄▅▆▇█"},
		{"falling", []string{"8", "7", "6", "5", "4", "3", "2", "1"}, 8, "█▇▆▅▄▃▂▁"},
		{"short series pads left", []string{"10", "20"}, 5, "   ▁█"},
		{"newest kept", []string{"100", "1", "2", "3"}, 3, "▁▅█"},
		{"flat", []string{"0.5", "0.50", "0.500"}, 3, "▅▅▅"},
		{"empty", nil, 4, "    "},
		{"tiny steps exact", []string{"0.00000001", "0.00000002", "0.00000003"}, 3, "▁▅█"},
		{"zero width", []string{"1"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sparkline(decs(tt.series...), tt.width, Style{})
			if got != tt.want {
				t.Errorf("Sparkline(%v, %d) = %q, want %q", tt.series, tt.width, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n != tt.width {
				t.Errorf("Sparkline(%v, %d) is %d cells", tt.series, tt.width, n)
			}
		})
	}
}

func TestSparklineStyle(t *testing.T) {
	got := Sparkline(decs("1", "2"), 2, Style{Open: "<", Close: ">"})
	if got != "<▁█>" {
		t.Errorf("styled Sparkline = %q, want %q", got, "<▁█>")
	}
}

// testCandles is a short walk with up and down bars, a doji and long
// wicks.
func testCandles() []Candle {
	rows := [][4]string{
		{"100.0", "101.5", "99.5", "101.0"},
		{"101.0", "102.0", "100.5", "100.8"},
		{"100.8", "100.9", "98.2", "98.5"},
		{"98.5", "99.9", "98.0", "99.7"},
		{"99.7", "103.0", "99.6", "102.6"},
		{"102.6", "102.9", "101.9", "102.6"},
		{"102.6", "104.2", "102.0", "103.9"},
		{"103.9", "104.0", "100.1", "100.4"},
		{"100.4", "101.2", "99.8", "101.1"},
		{"101.1", "101.8", "100.9", "101.75"},
	}
	out := make([]Candle, len(rows))
	for i, r := range rows {
		d := decs(r[:]...)
		out[i] = Candle{Open: d[0], High: d[1], Low: d[2], Close: d[3]}
	}
	return out
}

// markup matches the test styles' brackets ("[G" ... "]").
var markup = regexp.MustCompile(`\[[A-Z]|\]`)

var goldenStyles = CandleStyles{Up: Style{"[G", "]"}, Down: Style{"[R", "]"}, Axis: Style{"[A", "]"}}

func TestCandlesGolden(t *testing.T) {
	mk := []Marker{
		{Price: decimal.RequireFromString("99"), Label: "BUY 99.00", Style: Style{"[B", "]"}},
		{Price: decimal.RequireFromString("110"), Label: "SELL 110.00", Style: Style{"[S", "]"}},
	}
	tests := []struct {
		name    string
		cs      []Candle
		markers []Marker
		w, h    int
		st      CandleStyles
	}{
		{"plain-40x12", testCandles(), nil, 40, 12, CandleStyles{}},
		{"styled-40x12", testCandles(), nil, 40, 12, goldenStyles},
		{"markers-80x24", testCandles(), mk, 80, 24, CandleStyles{}},
		{"markers-styled-80x24", testCandles(), mk, 80, 24, goldenStyles},
		{"narrow-16x6", testCandles(), mk, 16, 6, CandleStyles{}},
		{"markers-only-30x5", nil, mk, 30, 5, CandleStyles{}},
		{"flat-20x4", []Candle{{Open: decimal.NewFromInt(5), High: decimal.NewFromInt(5), Low: decimal.NewFromInt(5), Close: decimal.NewFromInt(5)}}, nil, 20, 4, CandleStyles{}},
		{"one-row-20x1", testCandles(), nil, 20, 1, CandleStyles{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Candles(tt.cs, tt.w, tt.h, tt.markers, tt.st)
			checkSize(t, markup.ReplaceAllString(got, ""), tt.w, tt.h)
			golden(t, got)
		})
	}
}

func TestCandlesEmpty(t *testing.T) {
	if got := Candles(testCandles(), 0, 5, nil, CandleStyles{}); got != "" {
		t.Errorf("Candles at width 0 = %q, want empty", got)
	}
	checkSize(t, Candles(nil, 10, 3, nil, CandleStyles{}), 10, 3)
}

// checkSize asserts the chart is exactly w×h single-cell runes.
func checkSize(t *testing.T, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("chart has %d lines, want %d:\n%s", len(lines), h, s)
	}
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n != w {
			t.Fatalf("line %d is %d cells, want %d: %q", i, n, w, l)
		}
	}
}

func golden(t *testing.T, got string) {
	t.Helper()
	path := filepath.Join("testdata", t.Name()+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (go test ./chart/ -update writes it): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n--- got\n%s\n--- want\n%s", t.Name(), path, got, want)
	}
}

func BenchmarkSparkline(b *testing.B) {
	var series []decimal.Decimal
	for i := range 60 {
		series = append(series, decimal.New(int64(60000+(i*37)%500), -1))
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Sparkline(series, 16, Style{})
	}
}

func BenchmarkCandles(b *testing.B) {
	cs := testCandles()
	for len(cs) < 200 {
		cs = append(cs, testCandles()...)
	}
	mk := []Marker{{Price: decimal.RequireFromString("99"), Label: "BUY 99.00"}}
	b.ReportAllocs()
	for b.Loop() {
		_ = Candles(cs, 160, 40, mk, goldenStyles)
	}
}

// TestCandlesNeverCutAPrice (QA): at 40 columns the axis is a third of
// the width, too narrow for "↑SELL 0.049392", and the label was cut to
// "↑SELL 0.04939": a different price. A label too wide for the axis now
// gives up its word first, and what is still too wide is cut with "…",
// so that a price shown is always the price.
func TestCandlesNeverCutAPrice(t *testing.T) {
	mk := []Marker{
		{Price: decimal.RequireFromString("0.049392"), Label: "SELL 0.049392"},
		{Price: decimal.RequireFromString("0.04"), Label: "BUY 0.04"},
	}
	cs := []Candle{{Open: decimal.RequireFromString("0.049101"), High: decimal.RequireFromString("0.049214"),
		Low: decimal.RequireFromString("0.04901"), Close: decimal.RequireFromString("0.049214")}}
	got := Candles(cs, 38, 8, mk, CandleStyles{})
	checkSize(t, got, 38, 8)
	for _, want := range []string{"↑0.049392", "↓BUY 0.04", "◀0.049214"} {
		if !strings.Contains(got, want) {
			t.Errorf("chart lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "0.04939 ") || strings.Contains(got, "0.04939\n") {
		t.Errorf("chart shows a price cut short:\n%s", got)
	}
	// Narrower still: a label that does not fit is marked cut, never
	// shown as a shorter number.
	got = Candles(cs, 24, 8, mk, CandleStyles{})
	checkSize(t, got, 24, 8)
	whole := []string{"↑0.049392", "↓BUY 0.04", "↓0.04", "◀0.049214"}
	for _, l := range strings.Split(got, "\n") {
		i := strings.IndexAny(l, "↑↓◀")
		if i < 0 {
			continue
		}
		if lab := strings.TrimSpace(l[i:]); !slices.Contains(whole, lab) && !strings.HasSuffix(lab, "…") {
			t.Errorf("label %q cut without a mark:\n%s", lab, got)
		}
	}
}
