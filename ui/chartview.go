package ui

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"bhtop/market"
	"bhtop/value"
)

// chartState is the open candle chart (key c): its symbol and interval,
// and its body drawn for the current market view, state, styles and size.
// The body is drawn in Update (render, when one of those changed), so
// View only hands it out.
type chartState struct {
	symbol string
	iv     int    // index into market.Intervals
	body   string // rows lines, each ended by a newline
	rows   int
	key    chartKey  // what body was drawn from
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
	return keysOnly(c, msg, chartState.onKey)
}

func (c chartState) onKey(k tea.KeyPressMsg) chartState {
	switch {
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
	return c
}

// View is the chart's body: the title line with the quote, the candles
// with the account's prices marked, and the interval bar, as drawn by the
// last render.
func (c chartState) View() string { return c.body }

// reaskCandles is how long the chart waits for asked-for bars before it
// asks again (the loader drops requests while it is busy or the request
// weight is scarce).
const reaskCandles = 3 * time.Second

// openChart opens the chart of the selected row's symbol.
func (m Model) openChart() Model {
	sym := m.selectedSymbol()
	if sym == "" {
		return m.warned("select a row with a symbol to chart it")
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
		if sym, ok := value.RouteSymbol(m.mk.snap, it.bal.Asset, in); ok {
			return sym // the first symbol of its valuation's route
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
		m.showHelp, m.helpTop = true, 0
	case chartOrder:
		return m.openForm()
	default:
		if m.t == nil && slices.Contains(m.keys.New.Keys(), msg.String()) {
			m.setMsg(msgInfo, readOnlyNotice)
		}
	}
	return m, cmd
}

// loadCandles is the command telling the candle loader what the open
// chart shows: always when the chart opened or changed interval (now:
// the loader keeps a charted symbol's bars even after it leaves the
// account's symbols), else, while the market holds no bars at its
// interval, at most every reaskCandles. The loader never blocks, and the
// bars come with a later market snapshot. Nil when there is nothing to
// ask.
func (m *Model) loadCandles(now bool) tea.Cmd {
	l := m.market.candles
	if m.chart == nil || l == nil {
		return nil
	}
	sym, iv := m.chart.symbol, market.Intervals[m.chart.iv]
	if !now && m.mk.snap.Candles[market.CandleKey(sym, iv)].Len() > 0 {
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
	m.chart = m.chart.render(m.modeCtx())
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
