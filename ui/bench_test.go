package ui

import (
	"fmt"
	"testing"

	"bhtop/state"
)

// benchModel is the dashboard at 200×60 on n open orders, 500 balances,
// 200 positions and closed closed orders in the history.
func benchModel(b *testing.B, open, closed int) Model {
	s := bigSnapshot(open, 500, 200)
	for i := range closed {
		s.Orders = append(s.Orders, &state.Order{Market: "spot", Symbol: "OLDUSDT", OrderID: fmt.Sprint(900000 + i),
			Side: "SELL", Type: "LIMIT", Price: "1.5", Quantity: "2", ExecutedQty: "2", AvgPrice: ptr("1.5"), Status: "FILLED"})
	}
	m := sized(New(newTestBackend(s), &testTrader{}, WithNow(fixedNow)), 200, 60)
	if got := len(m.panes[paneOrders].rows); got != open+2 && got != open {
		b.Fatalf("orders pane has %d rows, want %d", got, open)
	}
	return m
}

// BenchmarkView is one frame: 10,000 open orders, 500 balances and 200
// positions at 200×60. Its cost must not grow with the history size.
func BenchmarkView(b *testing.B) {
	for _, closed := range []int{0, 100000} {
		b.Run(fmt.Sprintf("history=%d", closed), func(b *testing.B) {
			m := benchModel(b, 10000, closed)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
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
