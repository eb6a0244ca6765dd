package ui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/shopspring/decimal"

	"bhtop/chart"
	"bhtop/market"
)

// chartState is the open candle chart (key c): its symbol and interval,
// and the lines drawn for the current market view, state and size. The
// lines are drawn in Update (renderChart), so View only copies them.
type chartState struct {
	symbol string
	iv     int // index into market.Intervals
	lines  []string
	key    chartKey
	asked  time.Time // when the loader was last asked for these bars
	keys   chartKeys
	want   chartWant // what the last key asked of the root
}

// chartKeys are the keys the chart answers; the rest do nothing there.
type chartKeys struct {
	Close, Chart, Prev, Next, Help, New, Quit key.Binding
}

// chartWant is what a key on the chart asks of the root.
type chartWant int

const (
	chartStay    chartWant = iota
	chartClose             // esc or c: back to the panes
	chartStepped           // the interval changed: draw and load its bars
	chartHelp              // ?: the help screen over the chart
	chartOrder             // n: the order form, preselecting the symbol
	chartQuit
)

// Update handles the chart's keys: the intervals step here; closing,
// help, the order form and quitting are asked of the root.
func (c chartState) Update(msg tea.Msg) (chartState, tea.Cmd) {
	c.want = chartStay
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(k, c.keys.Quit):
		c.want = chartQuit
	case key.Matches(k, c.keys.Close, c.keys.Chart):
		c.want = chartClose
	case key.Matches(k, c.keys.Prev):
		c.iv, c.want = (c.iv-1+len(market.Intervals))%len(market.Intervals), chartStepped
	case key.Matches(k, c.keys.Next):
		c.iv, c.want = (c.iv+1)%len(market.Intervals), chartStepped
	case key.Matches(k, c.keys.Help):
		c.want = chartHelp
	case key.Matches(k, c.keys.New):
		c.want = chartOrder
	}
	return c, nil
}

// reaskCandles is how long the chart waits for asked-for bars before it
// asks again (the loader drops requests while it is busy or the request
// weight is scarce).
const reaskCandles = 3 * time.Second

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

// openChart opens the chart of the selected row's symbol.
func (m Model) openChart() Model {
	sym := m.selectedSymbol()
	if sym == "" {
		m.setMsg(msgWarn, "select a row with a symbol to chart it")
		return m
	}
	iv := 0
	if m.chart != nil {
		iv = m.chart.iv // keep the interval chosen last
	}
	k := &m.keys
	m.chart = &chartState{symbol: sym, iv: iv, keys: chartKeys{
		Close: k.Esc, Chart: k.Chart, Prev: k.IntervalPrev, Next: k.IntervalNext, Help: k.Help, New: k.New, Quit: k.Quit,
	}}
	m.renderChart()
	return m
}

// selectedSymbol is the symbol of the focused pane's selected row: an
// order's, a position's, a market row's, or a balance's asset paired
// with the valuation asset.
func (m *Model) selectedSymbol() string {
	it, ok := m.panes[m.focus].selected()
	if !ok {
		return ""
	}
	switch {
	case it.ord != nil:
		return it.ord.Symbol
	case it.pend != nil:
		return it.pend.Symbol
	case it.pos != nil:
		return it.pos.Symbol
	case it.mrow != nil:
		return it.mrow.symbol
	case it.fill != nil:
		return it.fill.Symbol
	case it.bal != nil:
		in := m.market.valueIn
		if in == "" || it.bal.Asset == in {
			return ""
		}
		if _, ok := m.mk.snap.Quotes[it.bal.Asset+in]; ok || m.mk.snap.Version == 0 {
			return it.bal.Asset + in
		}
		if _, ok := m.mk.snap.Quotes[in+it.bal.Asset]; ok {
			return in + it.bal.Asset
		}
		return it.bal.Asset + in
	}
	return ""
}

// onChartKey hands the key to the chart and does what it asks: close,
// draw a new interval and ask for its bars, open the help or the order
// form over it, or quit.
func (m Model) onChartKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	c, cmd := m.chart.Update(msg)
	switch c.want {
	case chartQuit:
		return m.quit()
	case chartClose:
		m.chart = nil
		m.drawShortHelp()
	case chartStepped:
		m.chart = &c
		m.renderChart()
		return m, m.loadCandles(true)
	case chartHelp:
		m.showHelp = true
	case chartOrder:
		return m.openForm()
	}
	return m, cmd
}

// loadCandles is the command asking the candle loader for the open
// chart's bars, when the market holds none at its interval: at once when
// the chart opened or changed interval (now), else at most every
// reaskCandles. The loader never blocks, and the bars come with a later
// market snapshot. Nil when there is nothing to ask.
func (m *Model) loadCandles(now bool) tea.Cmd {
	l := m.market.candles
	if m.chart == nil || l == nil {
		return nil
	}
	sym, iv := m.chart.symbol, market.Intervals[m.chart.iv]
	if len(m.mk.snap.Candles[market.CandleKey(sym, iv)]) > 0 {
		return nil
	}
	t := m.nowFn()
	if !now && t.Sub(m.chart.asked) < reaskCandles {
		return nil
	}
	c := *m.chart
	c.asked = t
	m.chart = &c
	return func() tea.Msg {
		l.LoadCandles(sym, iv)
		return nil
	}
}

// renderChart draws the open chart again when something it shows
// changed.
func (m *Model) renderChart() {
	if m.chart == nil || m.lay.tiny || m.lay.w == 0 {
		return
	}
	k := chartKey{mk: m.mk.seq, state: m.snap.Version, w: m.lay.w, h: m.lay.body.h, iv: m.chart.iv, styleID: m.styleID()}
	if m.chart.lines != nil && m.chart.key == k {
		return
	}
	c := *m.chart
	c.key = k
	c.lines = m.chartLines(&c)
	m.chart = &c
}

// styleID tells the theme, background and NO_COLOR apart.
func (m *Model) styleID() int {
	id := m.theme * 4
	if m.isDark {
		id++
	}
	if m.noColor {
		id += 2
	}
	return id
}

// chartLines draws the chart's body: a title line with the quote, the
// candles with the account's prices marked, and the interval bar.
func (m *Model) chartLines(c *chartState) []string {
	w, h := m.lay.w, m.lay.body.h
	iv := market.Intervals[c.iv]
	bars, note := candlesFor(m.mk.snap, c.symbol, c.iv)
	lines := make([]string, 0, h)
	lines = append(lines, m.chartTitle(c.symbol, iv, bars, note))
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
		msg := "  no " + iv + " candles for " + c.symbol + " yet"
		if m.mk.snap.Version == 0 {
			msg = "  no market data"
			if r := m.mk.snap.Health.Reason; r != "" {
				msg += " (" + r + ")"
			}
		}
		lines = append(lines, m.pt.muted.wrap(fit(msg, w)))
		for len(lines) < h-1 {
			lines = append(lines, strings.Repeat(" ", w))
		}
	} else {
		st := chart.CandleStyles{Up: chartStyle(m.pt.good), Down: chartStyle(m.pt.bad), Axis: chartStyle(m.pt.muted)}
		body := chart.Candles(cs, w-1, ch, m.chartMarkers(c.symbol), st)
		for _, l := range strings.Split(body, "\n") {
			lines = append(lines, " "+l)
		}
	}
	lines = append(lines, m.intervalBar(c.iv))
	return fitLines(lines, w, h)
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

// chartTitle is the chart's first line: symbol, interval, the live quote
// and the newest bar.
func (m *Model) chartTitle(sym, iv string, bars []market.Candle, note string) string {
	q := m.mk.snap.Quotes[sym]
	parts := []string{m.pt.titleFocused.wrap("▶ " + sym + " " + iv)}
	if q.Last != "" {
		last := "last " + q.Last
		if ch := m.change24h(sym); ch != "" {
			last += " (" + ch + " 24h)"
		}
		parts = append(parts, last)
	}
	if q.Bid != "" || q.Ask != "" {
		parts = append(parts, "bid "+orDash(q.Bid)+" ask "+orDash(q.Ask))
	}
	if len(bars) > 0 {
		b := bars[len(bars)-1]
		parts = append(parts, m.pt.muted.wrap("O "+b.Open+" H "+b.High+" L "+b.Low+" C "+b.Close))
	}
	if note != "" {
		parts = append(parts, m.pt.muted.wrap(note))
	}
	return " " + strings.Join(parts, "  ")
}

// change24h is the Market pane's 24 h change of sym ("" when unknown).
func (m *Model) change24h(sym string) string {
	for i := range m.mk.rows {
		if m.mk.rows[i].symbol == sym {
			return m.mk.rows[i].change
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

// intervalBar lists the intervals, the chosen one marked, and the keys.
func (m *Model) intervalBar(cur int) string {
	var b strings.Builder
	b.WriteString(" ")
	for i, iv := range market.Intervals {
		if i == cur {
			b.WriteString(m.pt.tabActive.wrap("[" + iv + "]"))
		} else {
			b.WriteString(m.pt.muted.wrap(" " + iv + " "))
		}
	}
	b.WriteString(m.pt.muted.wrap("   ←/→ interval · esc close"))
	return b.String()
}

// chartMarkers are the account's prices on sym: its open orders (side
// and price, coloured by side) and its positions' entry and liquidation
// prices. Orders at one price and side share one marker.
func (m *Model) chartMarkers(sym string) []chart.Marker {
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
	s := m.snap
	for _, o := range s.Orders.All() {
		if o.Symbol != sym || !o.Open() {
			continue
		}
		p := m.pt.buy
		side := "BUY"
		if strings.HasPrefix(o.Side, "SELL") {
			p, side = m.pt.sell, "SELL"
		}
		add(o.Price, side+" "+o.Price, p)
	}
	for i := range s.Positions {
		ps := &s.Positions[i]
		if ps.Symbol != sym || isZeroAmount(ps.Total) {
			continue
		}
		add(ps.AvgPrice, "entry "+ps.AvgPrice, m.pt.accent)
		add(ps.LiquidationPrice, "liq "+ps.LiquidationPrice, m.pt.warn)
	}
	return out
}

// intervalDur is each interval's length; 1M has none (months differ).
var intervalDur = map[string]time.Duration{
	"1m": time.Minute, "5m": 5 * time.Minute, "15m": 15 * time.Minute, "30m": 30 * time.Minute,
	"1h": time.Hour, "2h": 2 * time.Hour, "4h": 4 * time.Hour, "6h": 6 * time.Hour,
	"12h": 12 * time.Hour, "1d": 24 * time.Hour, "1w": 7 * 24 * time.Hour,
}

// weekStart shifts week buckets to Mondays (1970-01-01 was a Thursday).
const weekStart = 4 * 24 * time.Hour

// candlesFor returns sym's bars at interval iv: the market's own, else
// bars merged from the longest shorter interval the market holds that
// divides iv (note says so).
func candlesFor(ms *market.Snapshot, sym string, iv int) (bars []market.Candle, note string) {
	name := market.Intervals[iv]
	if cs := ms.Candles[market.CandleKey(sym, name)]; len(cs) > 0 {
		return liveTail(cs, ms.Candles[market.CandleKey(sym, "1m")], name), ""
	}
	want, ok := intervalDur[name]
	if !ok {
		return nil, ""
	}
	for i := iv - 1; i >= 0; i-- {
		from := market.Intervals[i]
		d := intervalDur[from]
		cs := ms.Candles[market.CandleKey(sym, from)]
		if len(cs) == 0 || want%d != 0 {
			continue
		}
		return mergeCandles(cs, want), "(from " + from + " bars)"
	}
	return nil, ""
}

// mergeCandles merges bars into bars of length d: first open, highest
// high, lowest low, last close, summed volume.
func mergeCandles(cs []market.Candle, d time.Duration) []market.Candle {
	ms := d.Milliseconds()
	off := int64(0)
	if d == intervalDur["1w"] {
		off = weekStart.Milliseconds()
	}
	var out []market.Candle
	var hi, lo, vol decimal.Decimal
	for _, c := range cs {
		start := (c.OpenTime-off)/ms*ms + off
		h, _ := dec(c.High)
		l, _ := dec(c.Low)
		v, _ := dec(c.Volume)
		if n := len(out); n == 0 || out[n-1].OpenTime != start {
			out = append(out, market.Candle{OpenTime: start, Open: c.Open, Close: c.Close})
			hi, lo, vol = h, l, v
		} else {
			hi, lo, vol = decimal.Max(hi, h), decimal.Min(lo, l), vol.Add(v)
			out[n-1].Close = c.Close
		}
		last := &out[len(out)-1]
		last.High, last.Low, last.Volume = hi.String(), lo.String(), vol.String()
	}
	return out
}

// liveTail brings bars (the market's own at interval name) up to date
// with the newer 1m bars: the newest bar takes the highs, lows and close
// of the 1m bars in its span, and 1m bars past its end make new bars (so
// the live bar moves with the 1m stream even before, or without, a push
// of its own interval). bars is never changed: a copy is returned when
// anything differs. 1M bars (months differ in length) stay as they are.
func liveTail(bars, ones []market.Candle, name string) []market.Candle {
	d, ok := intervalDur[name]
	if !ok || name == "1m" || len(bars) == 0 {
		return bars
	}
	last := bars[len(bars)-1]
	i := len(ones)
	for i > 0 && ones[i-1].OpenTime >= last.OpenTime {
		i--
	}
	if i == len(ones) {
		return bars
	}
	merged := mergeCandles(ones[i:], d)
	end := last.OpenTime + d.Milliseconds()
	if merged[0].OpenTime == last.OpenTime {
		hi, ok1 := dec(last.High)
		lo, ok2 := dec(last.Low)
		mh, ok3 := dec(merged[0].High)
		ml, ok4 := dec(merged[0].Low)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return bars
		}
		f := last
		f.High, f.Low, f.Close = decimal.Max(hi, mh).String(), decimal.Min(lo, ml).String(), merged[0].Close
		if len(merged) == 1 && f == last {
			return bars
		}
		last, merged = f, merged[1:]
	}
	for _, b := range merged {
		if b.OpenTime < end { // buckets that do not line up: leave the bars alone
			return bars
		}
	}
	out := make([]market.Candle, 0, len(bars)+len(merged))
	out = append(append(append(out, bars[:len(bars)-1]...), last), merged...)
	return out
}
