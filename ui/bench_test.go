package ui

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/state"
)

// benchModel is the dashboard at 200×60 on n open orders, 500 balances,
// 200 positions and closed closed orders in the history, valued against
// a market of 300 spot symbols and the 200 perpetuals (benchMarket).
func benchModel(b *testing.B, open, closed int) Model {
	return benchModelWith(b, open, closed, WithMarket(marketHub(benchMarket()), "USDT"))
}

// benchMarket quotes the symbols of bigSnapshot: S000USDT..S299USDT with
// 60 one-minute bars each, every balance's asset against USDT, and the
// perpetuals P000-PERP..P199-PERP with mark and index.
func benchMarket() *market.Snapshot {
	ms := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{}, Instruments: map[string]market.Instrument{},
		Candles: map[string]market.Bars{}, Health: market.Health{Up: true}}
	for i := range 300 {
		sym := fmt.Sprintf("S%03dUSDT", i)
		ms.Quotes[sym] = market.Quote{Symbol: sym, Last: fmt.Sprintf("%d.%02d", 100+i*3, i%100), Bid: fmt.Sprintf("%d.%02d", 100+i*3, i%100), Ask: fmt.Sprintf("%d.%02d", 101+i*3, i%100),
			Open24h: fmt.Sprintf("%d", 99+i*3), Volume24h: fmt.Sprintf("%d.5", 1000+i)}
		var bars []market.Candle
		for k := range 60 {
			p := fmt.Sprintf("%d.%d", 100+i*3+(k*7)%11, k%10)
			bars = append(bars, market.Candle{OpenTime: int64(k) * 60000, Open: p, High: p, Low: p, Close: p, Volume: "1"})
		}
		ms.Candles[market.CandleKey(sym, "1m")] = market.NewBars(bars)
	}
	for i := range 500 {
		sym := fmt.Sprintf("A%04dUSDT", i)
		ms.Quotes[sym] = market.Quote{Symbol: sym, Last: fmt.Sprintf("%d.%03d", 1+i%50, i%1000)}
	}
	for i := range 200 {
		sym := fmt.Sprintf("P%03d-PERP", i)
		ms.Quotes[sym] = market.Quote{Symbol: sym, Last: fmt.Sprintf("%d.5", 1010+i), Mark: fmt.Sprintf("%d.5", 1010+i), Index: fmt.Sprintf("%d.25", 1009+i)}
		ms.Instruments[sym] = market.Instrument{Symbol: sym, Base: "P", Quote: "USDT", Contract: true, Multiplier: "1", MarginAsset: "USDT"}
	}
	return ms
}

func benchModelWith(b *testing.B, open, closed int, opts ...Option) Model {
	s := bigSnapshot(open, 500, 200)
	rows := s.Orders.Slice(0, s.Orders.Len())
	for i := range closed {
		rows = append(rows, &state.Order{Market: "spot", Symbol: "OLDUSDT", OrderID: fmt.Sprint(900000 + i),
			Side: "SELL", Type: "LIMIT", Price: "1.5", Quantity: "2", ExecutedQty: "2", AvgPrice: ptr("1.5"), Status: "FILLED"})
	}
	s.Orders = state.NewOrderRows(rows...)
	m := sized(New(newTestBackend(s), &testTrader{}, append([]Option{WithNow(fixedNow)}, opts...)...), 200, 60)
	if got := len(m.panes[paneOrders].rows); got != open+2 && got != open {
		b.Fatalf("orders pane has %d rows, want %d", got, open)
	}
	return m
}

// BenchmarkView is one frame: 10,000 open orders, 500 balances and 200
// positions at 200×60, with the market columns and the Market pane. Its
// cost must not grow with the history size; "no-market" is the same
// account without market data (the figure before market context). These
// draw the same model again (a frame where nothing changed: the clock
// and the cursor stand still); "changed=3" is the live case, a frame
// after a new state (3 of the orders on screen changed, a new market
// view, so every pane showing market cells has new inputs), its Update
// side (rows and memo) done outside the timer.
func BenchmarkView(b *testing.B) {
	again := func(b *testing.B, m Model) {
		b.ReportAllocs()
		b.ResetTimer()
		n, cpu0 := 0, testkit.CPUTime()
		for b.Loop() {
			_ = m.View()
			n++
		}
		reportCPU(b, testkit.CPUTime()-cpu0, n)
	}
	b.Run("no-market", func(b *testing.B) { again(b, benchModelWith(b, 10000, 0)) })
	for _, closed := range []int{0, 100000} {
		b.Run(fmt.Sprintf("history=%d", closed), func(b *testing.B) { again(b, benchModel(b, 10000, closed)) })
	}
	b.Run("changed=3", benchChangedFrames)
}

// benchChangedFrames is BenchmarkView/changed=3: per frame, 3 of the
// orders on screen are replaced by new rows (one more filled unit each,
// so the widths stay) and the market view is new, as after a state
// change; View is timed alone.
func benchChangedFrames(b *testing.B) {
	m := benchModel(b, 10000, 0)
	p := &m.panes[paneOrders]
	h := m.lay.bodyRows(paneOrders)
	from, to := p.window(h)
	p.rows = slices.Clone(p.rows) // shared rows are read-only
	b.ReportAllocs()
	b.ResetTimer()
	i, cpu := 0, time.Duration(0)
	for b.Loop() {
		b.StopTimer()
		for k := range 3 {
			ri := from + (i*7+k*11)%(to-from)
			o := *p.rows[ri].ord
			if o.ExecutedQty == "0" {
				o.ExecutedQty = "1"
			} else {
				o.ExecutedQty = "0"
			}
			p.rows[ri].ord = &o
		}
		p.gen++
		mk := *m.mk
		mk.seq++
		m.mk = &mk
		for id := range m.panes {
			m.panes[id].prepare(m.lay.panes[id].w, m.lay.bodyRows(paneID(id)), m.mk)
		}
		i++
		b.StartTimer()
		c0 := testkit.CPUTime()
		_ = m.View()
		cpu += testkit.CPUTime() - c0
	}
	reportCPU(b, cpu, i)
}

// reportCPU reports the process's CPU time per frame (GC workers
// included): what other processes on a shared machine do not inflate.
func reportCPU(b *testing.B, cpu time.Duration, n int) {
	if n > 0 && cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/1e3/float64(n), "cpu-µs/op")
	}
}

// BenchmarkNewSnapshot is the work of one coalesced state change: rows
// rebuilt for the new version (filter, sort by price, measure).
func BenchmarkNewSnapshot(b *testing.B) {
	m := benchModel(b, 10000, 0)
	m.panes[paneOrders].sortIdx = 4 // price
	base := *m.snap
	v := base.Version
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v++
		s := base
		s.Version = v
		m.snap = &s
		m.rebuild()
	}
}

// BenchmarkNewSnapshotChanged is BenchmarkNewSnapshot when 3 of the
// 10,000 orders changed their price: the sorted rows are patched where
// they changed (building the next snapshot's rows is outside the timer).
func BenchmarkNewSnapshotChanged(b *testing.B) {
	m := benchModel(b, 10000, 0)
	m.panes[paneOrders].sortIdx = 4 // price
	base := *m.snap
	rows := base.Orders.Slice(0, base.Orders.Len())
	prices := []string{"0.5", "2.25", "130", "7"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		for k := range 3 {
			ri := (i*7919 + k*104729) % len(rows)
			o := *rows[ri]
			o.Price = prices[(i+k)%len(prices)]
			rows[ri] = &o
		}
		s := base
		s.Version = m.snap.Version + 1
		s.Orders = state.NewOrderRows(rows...)
		m.snap = &s
		b.StartTimer()
		m.rebuild()
	}
}

// BenchmarkNewMarket is the work of one coalesced market change: the
// account valued again (package value) and the rows that show market
// data rebuilt (10,000 orders measured, 500 balances, 200 positions, the
// Market pane's 1,000 rows with their sparklines).
func BenchmarkNewMarket(b *testing.B) {
	ms := benchMarket()
	hub := marketHub(ms)
	m := benchModelWith(b, 10000, 0, WithMarket(hub, "USDT"))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		next := *ms
		next.Version = m.mk.snap.Version + 1
		hub.Publish(&next)
		m.revalue()
		m.rebuild()
	}
}

// BenchmarkViewModes is one frame with a mode over the panes or in their
// place (the bench account of BenchmarkView): the chart of the selected
// order's symbol, the order form, the help, the review of cancelling the
// 10,000 open orders.
func BenchmarkViewModes(b *testing.B) {
	for _, c := range []struct{ name, keys string }{{"chart", "2 c"}, {"form", "n"}, {"help", "?"}, {"cancel-all", "2 X"}} {
		b.Run(c.name, func(b *testing.B) {
			m := press(b, benchModel(b, 10000, 0), c.keys)
			if m.mode() == modePanes {
				b.Fatalf("%q opened no mode", c.keys)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}
