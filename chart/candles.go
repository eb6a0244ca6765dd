package chart

import (
	"strings"
	"unicode/utf8"

	"github.com/shopspring/decimal"
)

// Candle is one bar of a candle chart.
type Candle struct{ Open, High, Low, Close decimal.Decimal }

// Up reports whether the bar closed at or above its open.
func (c Candle) Up() bool { return !c.Close.LessThan(c.Open) }

// Marker is a horizontal line at Price across the chart, labelled on the
// price axis with Label (an open order's side and price, a position's
// entry or liquidation price). A price outside the chart's range is drawn
// on the nearest edge, its label prefixed with ↑ or ↓.
type Marker struct {
	Price decimal.Decimal
	Label string
	Style Style
}

// CandleStyles colour a candle chart: Up and Down the bars by direction
// (and the last price's label), Axis the price labels.
type CandleStyles struct{ Up, Down, Axis Style }

// maxFrac bounds the decimals of the axis labels.
const maxFrac = 8

// Candles draws the newest bars of cs that fit, newest on the right, one
// column per bar with a gap between bars: wicks │ from high to low, bodies
// ┃ from open to close, coloured by direction. The price axis on the right
// labels the top, the bottom, every fourth row, the last close and each
// marker. The result is exactly height lines of exactly width cells,
// joined by "\n"; no bars draws the axis and markers only.
func Candles(cs []Candle, width, height int, markers []Marker, st CandleStyles) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	frac := fracDigits(cs, markers)
	axisW := axisWidth(cs, markers, frac)
	axisW = min(axisW, width/3)
	plotW := width - axisW - 1
	if plotW < 1 {
		plotW, axisW = width, -1
	}
	if n := (plotW + 1) / 2; len(cs) > n {
		cs = cs[len(cs)-n:]
	}
	g := newGrid(plotW, height)
	sc := candleScale(cs, markers, height)
	row := func(p decimal.Decimal) int { return height - 1 - sc.level(p) }

	labels := make([]axisLabel, height)
	if len(cs) > 0 {
		last := cs[len(cs)-1]
		ls := st.Down
		if last.Up() {
			ls = st.Up
		}
		labels[row(last.Close)] = axisLabel{text: "◀" + last.Close.StringFixed(int32(frac)), style: ls, set: true}
	}
	for _, mk := range markers {
		r, text := row(mk.Price), mk.Label
		switch {
		case len(cs) > 0 && mk.Price.GreaterThan(sc.hi):
			r, text = 0, "↑"+text
		case len(cs) > 0 && mk.Price.LessThan(sc.lo):
			r, text = height-1, "↓"+text
		}
		g.line(r, '╌', styleMarker+len(g.styles))
		g.styles = append(g.styles, mk.Style)
		placeLabel(labels, r, axisLabel{text: text, style: mk.Style, set: true})
	}
	for i, c := range cs {
		x := plotW - 1 - 2*(len(cs)-1-i)
		s := styleDown
		if c.Up() {
			s = styleUp
		}
		g.column(x, row(c.High), row(c.Low), '│', s)
		top, bottom := c.Open, c.Close
		if c.Up() {
			top, bottom = c.Close, c.Open
		}
		g.column(x, row(top), row(bottom), '┃', s)
	}
	if len(cs) > 0 {
		for r := 0; r < height; r += 4 {
			if !labels[r].set && (r == 0 || !labels[r-1].set) {
				labels[r] = axisLabel{text: " " + sc.at(height-1-r).StringFixed(int32(frac)), style: st.Axis, set: true}
			}
		}
		if r := height - 1; r > 0 && !labels[r].set && !labels[r-1].set {
			labels[r] = axisLabel{text: " " + sc.lo.StringFixed(int32(frac)), style: st.Axis, set: true}
		}
	}
	return g.render(st, labels, axisW)
}

// candleScale spans the bars' lows and highs (the markers' prices when
// there are no bars) over height rows.
func candleScale(cs []Candle, markers []Marker, height int) scale {
	var lo, hi decimal.Decimal
	switch {
	case len(cs) > 0:
		lo, hi = cs[0].Low, cs[0].High
		for _, c := range cs[1:] {
			lo, hi = decimal.Min(lo, c.Low), decimal.Max(hi, c.High)
		}
	case len(markers) > 0:
		lo, hi = markers[0].Price, markers[0].Price
		for _, m := range markers[1:] {
			lo, hi = decimal.Min(lo, m.Price), decimal.Max(hi, m.Price)
		}
	}
	return newScale(lo, hi, height-1)
}

// fracDigits is the number of decimals the labels need: the most any
// price given has, at most maxFrac.
func fracDigits(cs []Candle, markers []Marker) int {
	f := 0
	see := func(d decimal.Decimal) { f = max(f, int(-d.Exponent())) }
	for _, c := range cs {
		see(c.Open)
		see(c.High)
		see(c.Low)
		see(c.Close)
	}
	for _, m := range markers {
		see(m.Price)
	}
	return min(f, maxFrac)
}

// axisWidth is the widest label: a price with frac decimals and a leading
// mark, or a marker's label with its arrow.
func axisWidth(cs []Candle, markers []Marker, frac int) int {
	w := 0
	for _, c := range cs {
		w = max(w, 1+len(c.High.StringFixed(int32(frac))), 1+len(c.Low.StringFixed(int32(frac))))
	}
	for _, m := range markers {
		w = max(w, 1+utf8.RuneCountInString(m.Label))
	}
	return w
}

type axisLabel struct {
	text  string
	style Style
	set   bool
}

// placeLabel puts l on row r, or on the nearest free row next to it.
func placeLabel(labels []axisLabel, r int, l axisLabel) {
	for _, d := range []int{0, 1, -1, 2, -2} {
		if i := r + d; i >= 0 && i < len(labels) && !labels[i].set {
			labels[i] = l
			return
		}
	}
}

// Cell styles of the grid: none, up, down, then one per marker.
const (
	styleNone = iota
	styleUp
	styleDown
	styleMarker
)

// grid is the plot area, one rune and one style index per cell.
type grid struct {
	w, h   int
	cells  []rune
	style  []int
	styles []Style // marker styles, indexed from styleMarker
}

func newGrid(w, h int) *grid {
	g := &grid{w: w, h: h, cells: make([]rune, w*h), style: make([]int, w*h)}
	for i := range g.cells {
		g.cells[i] = ' '
	}
	return g
}

func (g *grid) set(x, y int, r rune, s int) {
	if x < 0 || x >= g.w || y < 0 || y >= g.h {
		return
	}
	g.cells[y*g.w+x], g.style[y*g.w+x] = r, s
}

// line draws r across row y.
func (g *grid) line(y int, r rune, s int) {
	for x := range g.w {
		g.set(x, y, r, s)
	}
}

// column draws r in column x from row top down to row bottom.
func (g *grid) column(x, top, bottom int, r rune, s int) {
	for y := top; y <= bottom; y++ {
		g.set(x, y, r, s)
	}
}

// render joins the rows, each cell run in its style, and the axis labels
// (axisW < 0: no axis).
func (g *grid) render(st CandleStyles, labels []axisLabel, axisW int) string {
	pick := func(i int) Style {
		switch {
		case i == styleUp:
			return st.Up
		case i == styleDown:
			return st.Down
		case i >= styleMarker:
			return g.styles[i-styleMarker]
		}
		return Style{}
	}
	var b strings.Builder
	b.Grow((g.w + axisW + 2) * g.h * 2)
	var run strings.Builder
	for y := range g.h {
		if y > 0 {
			b.WriteByte('\n')
		}
		cur := -1
		for x := range g.w {
			i := y*g.w + x
			if g.style[i] != cur && run.Len() > 0 {
				b.WriteString(pick(cur).wrap(run.String()))
				run.Reset()
			}
			cur = g.style[i]
			run.WriteRune(g.cells[i])
		}
		b.WriteString(pick(cur).wrap(run.String()))
		run.Reset()
		if axisW < 0 {
			continue
		}
		b.WriteByte(' ')
		l := labels[y]
		b.WriteString(l.style.wrap(fitLabel(l.text, axisW)))
	}
	return b.String()
}

// fitLabel is an axis label in exactly w cells. One too wide gives up the
// word before its price ("↑SELL 0.049392" → "↑0.049392"), and what is
// still too wide is cut with "…": a price shorter by a digit would read
// as another price.
func fitLabel(s string, w int) string {
	if utf8.RuneCountInString(s) <= w {
		return fitRunes(s, w)
	}
	mark, rest := "", s
	if r, size := utf8.DecodeRuneInString(s); r == '↑' || r == '↓' {
		mark, rest = s[:size], s[size:]
	}
	if _, num, ok := strings.Cut(rest, " "); ok && num != "" {
		s = mark + num
		if utf8.RuneCountInString(s) <= w {
			return fitRunes(s, w)
		}
	}
	if w <= 0 {
		return ""
	}
	return fitRunes(string([]rune(s)[:w-1])+"…", w)
}

// fitRunes pads or cuts s to exactly w single-cell runes.
func fitRunes(s string, w int) string {
	n := utf8.RuneCountInString(s)
	if n > w {
		r := []rune(s)
		return string(r[:w])
	}
	return s + strings.Repeat(" ", w-n)
}
