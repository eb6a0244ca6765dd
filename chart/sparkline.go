// Package chart draws price series as text: sparklines and candle charts.
//
// Every function is pure: series, a size in cells and styles in, a string
// of exactly that size out. Prices are decimals all the way to the screen
// row they land on; nothing goes through float64.
package chart

import (
	"sort"
	"strings"

	"github.com/shopspring/decimal"
)

// Style is a style reduced to the escape sequences around a run of cells,
// so a chart is coloured by concatenation rather than a Render per cell.
// The zero Style draws plain text.
type Style struct{ Open, Close string }

func (s Style) wrap(t string) string {
	if s.Open == "" {
		return t
	}
	return s.Open + t + s.Close
}

// blocks are the eight heights of a sparkline cell, lowest first.
var blocks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws the newest width values of series as one line of block
// heights, scaled from the lowest to the highest value shown, newest on
// the right; fewer values than width leave spaces on the left. A flat
// series draws the middle height. The result is exactly width cells,
// wrapped in st.
func Sparkline(series []decimal.Decimal, width int, st Style) string {
	if width <= 0 {
		return ""
	}
	if len(series) > width {
		series = series[len(series)-width:]
	}
	var b strings.Builder
	b.Grow(width * 3)
	for range width - len(series) {
		b.WriteByte(' ')
	}
	if len(series) > 0 {
		lo, hi := bounds(series)
		sc := newScale(lo, hi, len(blocks)-1)
		for _, v := range series {
			lvl := len(blocks) / 2
			if sc.ok {
				lvl = sc.level(v)
			}
			b.WriteRune(blocks[lvl])
		}
	}
	return st.wrap(b.String())
}

func bounds(series []decimal.Decimal) (lo, hi decimal.Decimal) {
	lo, hi = series[0], series[0]
	for _, v := range series[1:] {
		if v.LessThan(lo) {
			lo = v
		}
		if v.GreaterThan(hi) {
			hi = v
		}
	}
	return lo, hi
}

// scale maps a price in [lo, hi] to a step 0..steps, rounding to the
// nearest step (halves up). ok is false when the range is empty (lo = hi).
// It holds the prices halfway between steps, so placing a price costs a
// few comparisons and no arithmetic.
type scale struct {
	lo, hi decimal.Decimal
	span   decimal.Decimal // hi − lo
	steps  decimal.Decimal
	n      int
	ok     bool
	mids   []decimal.Decimal // mids[k]: halfway between step k and k+1
}

func newScale(lo, hi decimal.Decimal, steps int) scale {
	s := scale{lo: lo, hi: hi, n: steps, steps: decimal.NewFromInt(int64(steps))}
	if steps > 0 && hi.GreaterThan(lo) {
		s.span = hi.Sub(lo)
		s.ok = true
		two := decimal.NewFromInt(2)
		den := s.steps.Mul(two)
		s.mids = make([]decimal.Decimal, steps)
		for k := range steps {
			// lo + span × (2k + 1) / (2 × steps): the multiplication
			// comes first, so a half is exactly a half.
			s.mids[k] = lo.Add(s.span.Mul(decimal.NewFromInt(int64(2*k + 1))).Div(den))
		}
	}
	return s
}

// level is v's step counted up from lo, clamped to 0..steps.
func (s scale) level(v decimal.Decimal) int {
	if !s.ok {
		return s.n / 2
	}
	// The first midpoint above v is v's step.
	return sort.Search(len(s.mids), func(k int) bool { return s.mids[k].GreaterThan(v) })
}

// at is the price of step k counted up from lo.
func (s scale) at(k int) decimal.Decimal {
	if !s.ok {
		return s.lo
	}
	return s.lo.Add(s.span.Mul(decimal.NewFromInt(int64(k))).Div(s.steps))
}
