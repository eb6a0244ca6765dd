package value

import (
	"fmt"
	"testing"

	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/state"
)

// benchAccount is 1,000 assets (each priced against USDT, every tenth
// bridged through BTC) and 500 contract positions, half inverse.
func benchAccount() (*state.Snapshot, *market.Snapshot) {
	m := &market.Snapshot{Version: 1, Quotes: map[string]market.Quote{"BTCUSDT": {Last: "60000.5"}},
		Instruments: map[string]market.Instrument{"BTCUSDT": {Symbol: "BTCUSDT", Base: "BTC", Quote: "USDT"}}}
	s := &state.Snapshot{}
	for i := range 1000 {
		a := fmt.Sprintf("A%03d", i)
		sym, quote := a+"USDT", "USDT"
		if i%10 == 0 {
			sym, quote = a+"BTC", "BTC"
		}
		m.Quotes[sym] = market.Quote{Last: fmt.Sprintf("%d.%04d", i+1, i)}
		m.Instruments[sym] = market.Instrument{Symbol: sym, Base: a, Quote: quote}
		s.Balances = append(s.Balances, state.Balance{Asset: a, Free: fmt.Sprintf("%d.12345678", i), Locked: "0.5"})
	}
	for i := range 500 {
		sym := fmt.Sprintf("C%03d-PERP", i)
		inv := i%2 == 1
		margin := "USDT"
		if inv {
			margin = "BTC"
		}
		m.Quotes[sym] = market.Quote{Last: fmt.Sprintf("%d.5", 1000+i)}
		m.Instruments[sym] = market.Instrument{Symbol: sym, Base: "BTC", Quote: "USDT", Contract: true,
			Inverse: inv, Multiplier: "0.01", MarginAsset: margin}
		s.Positions = append(s.Positions, state.Position{Symbol: sym, Side: "LONG", AvgPrice: "1000",
			Total: fmt.Sprint(i + 1), Margin: "10", LiquidationPrice: "900"})
	}
	return s, m
}

// BenchmarkOf is the equity of 1,000 assets and 500 positions (goal
// <= 100 µs per valuation).
func BenchmarkOf(b *testing.B) {
	s, m := benchAccount()
	b.ReportAllocs()
	n, cpu0 := 0, testkit.CPUTime()
	for b.Loop() {
		if v := Of(s, m, "USDT"); v == nil || len(v.Unpriced) != 0 {
			b.Fatalf("valuation %v", v)
		}
		n++
	}
	// CPU time per valuation: what other processes on a shared machine
	// do not inflate (GC workers included).
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/op")
	}
}

// BenchmarkEquity is the equity alone (Equity: what the header, the
// metrics and the equity alerts use) of the same account (goal <= 100 µs).
func BenchmarkEquity(b *testing.B) {
	s, m := benchAccount()
	b.ReportAllocs()
	n, cpu0 := 0, testkit.CPUTime()
	for b.Loop() {
		if _, unpriced, ok := Equity(s, m, "USDT"); !ok || len(unpriced) != 0 {
			b.Fatal("no equity")
		}
		n++
	}
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/op")
	}
}
