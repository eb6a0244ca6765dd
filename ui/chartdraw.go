package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"bhtop/chart"
	"bhtop/market"
)

// The chart's drawing: a title line with the quote, the candles with the
// account's prices marked, and the interval bar, redrawn in Update only
// when something they show changed.

// chartKey is what the drawn lines depend on.
type chartKey struct {
	mk      uint64
	state   uint64
	w, h    int
	iv      int
	styleID int
}

// maxMarkers bounds the order and position prices marked on a chart.
const maxMarkers = 24

// render draws the chart for cx when something it shows changed since
// the last drawing: the market view, the account, the size, the interval
// or the styles. It returns c itself when nothing did, else a copy (the
// chart is shared by the copies of the model).
func (c *chartState) render(cx modeCtx) *chartState {
	k := chartKey{mk: cx.mk.seq, state: cx.snap.Version, w: cx.w, h: cx.bodyH, iv: c.iv, styleID: cx.style}
	if c.rows > 0 && c.key == k {
		return c
	}
	n := *c
	n.key = k
	lines := n.lines(cx)
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	n.body, n.rows = b.String(), len(lines)
	return &n
}

// lines draws the chart's body as cx.bodyH lines of cx.w cells.
func (c *chartState) lines(cx modeCtx) []string {
	w, h := cx.w, cx.bodyH
	iv := market.Intervals[c.iv]
	bars, note := candlesFor(cx.mk.snap, c.symbol, c.iv)
	lines := make([]string, 0, h)
	lines = append(lines, c.title(cx, iv, bars, note))
	ch := h - 2
	if ch < 1 {
		return fitLines(lines, w, h)
	}
	cs := make([]chart.Candle, 0, len(bars))
	for _, b := range bars {
		o, ok1 := dec(b.Open)
		hi, ok2 := dec(b.High)
		lo, ok3 := dec(b.Low)
		cl, ok4 := dec(b.Close)
		if ok1 && ok2 && ok3 && ok4 {
			cs = append(cs, chart.Candle{Open: o, High: hi, Low: lo, Close: cl})
		}
	}
	if len(cs) == 0 {
		msg := "  " + c.noBars(cx.mk.snap, iv)
		lines = append(lines, cx.pt.muted.wrap(fit(msg, w)))
		for len(lines) < h-1 {
			lines = append(lines, strings.Repeat(" ", w))
		}
	} else {
		st := chart.CandleStyles{Up: chartStyle(cx.pt.good), Down: chartStyle(cx.pt.bad), Axis: chartStyle(cx.pt.muted)}
		body := chart.Candles(cs, w-1, ch, c.markers(cx), st)
		for _, l := range strings.Split(body, "\n") {
			lines = append(lines, " "+l)
		}
	}
	lines = append(lines, intervalBar(cx.pt, c.iv, w))
	return fitLines(lines, w, h)
}

// noBars says why the chart has no bars at iv: no market data, the
// loader's reason while it waits (market.Snapshot.BarsWait: loading,
// request weight, a failed load retried), loading once asked, or none.
func (c *chartState) noBars(ms *market.Snapshot, iv string) string {
	what := iv + " candles for " + c.symbol
	why := ms.BarsWait[market.CandleKey(c.symbol, iv)]
	switch {
	case ms.Version == 0:
		msg := "no market data"
		if r := ms.Health.Reason; r != "" {
			msg += " (" + r + ")"
		}
		return msg
	case why == market.BarsLoading || why == "" && !c.asked.IsZero():
		return "loading " + what + "…"
	case why == market.BarsNone || why == "":
		return "no " + what + " yet"
	}
	return what + ": " + why
}

// fitLines makes lines exactly h lines of w cells.
func fitLines(lines []string, w, h int) []string {
	for i := range lines {
		lines[i] = fitStyled(lines[i], w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return lines[:h]
}

func chartStyle(p paint) chart.Style { return chart.Style{Open: p.open, Close: p.close} }

// title is the chart's first line: symbol, interval, the live quote and
// the newest bar. On a narrow screen whole parts give way, never cut: the
// newest bar first, then the bid and ask, then the last price; the
// symbol and the note (why there are no bars) always show.
func (c *chartState) title(cx modeCtx, iv string, bars []market.Candle, note string) string {
	sym := c.symbol
	q := cx.mk.snap.Quotes[sym]
	type part struct {
		s    string
		prio int // the highest gives way first
	}
	parts := []part{{cx.pt.titleFocused.wrap("▶ " + sym + " " + iv), 0}}
	if q.Last != "" {
		last := "last " + q.Last
		if ch := change24h(cx.mk, sym); ch != "" {
			last += " (" + ch + " 24h)"
		}
		parts = append(parts, part{last, 1})
	}
	if q.Bid != "" || q.Ask != "" {
		parts = append(parts, part{"bid " + orDash(q.Bid) + " ask " + orDash(q.Ask), 2})
	}
	if len(bars) > 0 {
		b := bars[len(bars)-1]
		parts = append(parts, part{cx.pt.muted.wrap("O " + b.Open + " H " + b.High + " L " + b.Low + " C " + b.Close), 3})
	}
	if note != "" {
		parts = append(parts, part{cx.pt.muted.wrap(note), 0})
	}
	if cx.quotesStale() {
		// The bars and quote are the last received.
		parts = append(parts, part{cx.pt.warn.wrap("⚠ no market data: may be stale"), 0})
	}
	join := func(upTo int) string {
		var shown []string
		for _, p := range parts {
			if p.prio <= upTo {
				shown = append(shown, p.s)
			}
		}
		return " " + strings.Join(shown, "  ")
	}
	for upTo := 3; upTo > 0; upTo-- {
		if s := join(upTo); ansi.StringWidth(s) <= cx.w {
			return s
		}
	}
	return join(0)
}

// change24h is the Market pane's 24 h change of sym ("" when unknown).
func change24h(mk *mktView, sym string) string {
	for i := range mk.rows {
		if mk.rows[i].symbol == sym {
			return mk.rows[i].change
		}
	}
	return ""
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// intervalBar lists the intervals, the chosen one marked, and the keys
// (only the arrows when the whole hint does not fit w). When even that
// is too wide, only the intervals around the chosen one are listed, "‹"
// and "›" saying there are more.
func intervalBar(pt *paints, cur, w int) string {
	ivs := market.Intervals
	item := func(i int) string {
		if i == cur {
			return pt.tabActive.wrap("[" + ivs[i] + "]")
		}
		return pt.muted.wrap(" " + ivs[i] + " ")
	}
	draw := func(from, to int, hint string) string {
		var b strings.Builder
		b.WriteString(" ")
		if from > 0 {
			b.WriteString(pt.muted.wrap("‹"))
		}
		for i := from; i < to; i++ {
			b.WriteString(item(i))
		}
		if to < len(ivs) {
			b.WriteString(pt.muted.wrap("›"))
		}
		b.WriteString(pt.muted.wrap(hint))
		return b.String()
	}
	if s := draw(0, len(ivs), "   ←/→ interval · esc close"); ansi.StringWidth(s) <= w {
		return s
	}
	from, to := 0, len(ivs)
	for {
		s := draw(from, to, "  ←/→")
		if ansi.StringWidth(s) <= w || to-from == 1 {
			return s
		}
		if cur-from > to-1-cur { // drop the end farther from the chosen one
			from++
		} else {
			to--
		}
	}
}

// markers are the account's prices on the chart's symbol: its open
// orders (side and price, coloured by side) and its positions' entry and
// liquidation prices. Orders at one price and side share one marker.
func (c *chartState) markers(cx modeCtx) []chart.Marker {
	sym := c.symbol
	var out []chart.Marker
	seen := map[string]bool{}
	add := func(price, label string, p paint) {
		d, ok := dec(price)
		if !ok || !d.IsPositive() || len(out) >= maxMarkers || seen[label] {
			return
		}
		seen[label] = true
		out = append(out, chart.Marker{Price: d, Label: label, Style: chartStyle(p)})
	}
	s := cx.snap
	for _, o := range s.Orders.All() {
		if o.Symbol != sym || !o.Open() {
			continue
		}
		p := cx.pt.buy
		side := "BUY"
		if strings.HasPrefix(o.Side, "SELL") {
			p, side = cx.pt.sell, "SELL"
		}
		add(o.Price, side+" "+o.Price, p)
	}
	for i := range s.Positions {
		ps := &s.Positions[i]
		if ps.Symbol != sym || isZeroAmount(ps.Total) {
			continue
		}
		add(ps.AvgPrice, "entry "+ps.AvgPrice, cx.pt.accent)
		add(ps.LiquidationPrice, "liq "+ps.LiquidationPrice, cx.pt.warn)
	}
	return out
}
