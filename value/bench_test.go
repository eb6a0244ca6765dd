package value

import (
	"fmt"
	"strings"
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
func BenchmarkOf(b *testing.B) { benchOf(b, "USDT", 0) }

// BenchmarkEquity is the equity alone (Equity: what the header, the
// metrics and the equity alerts use) of the same account (goal <= 100 µs).
func BenchmarkEquity(b *testing.B) { benchEquity(b, "USDT", 0) }

// BenchmarkBridgedOf is BenchmarkOf valued in A007, an asset paired with
// USDT only: no asset but A007 itself has a symbol against it or a route
// through BTC, so every one is routed through the bridges: its partner
// USDT, then USDT to A007; the 100 paired with BTC only stay unpriced
// (two bridges away).
func BenchmarkBridgedOf(b *testing.B) { benchOf(b, "A007", 100) }

// BenchmarkBridgedEquity is BenchmarkBridgedOf's equity alone (Equity).
func BenchmarkBridgedEquity(b *testing.B) { benchEquity(b, "A007", 100) }

// benchOf values benchAccount in `in` with Of, which must leave exactly
// unpriced assets unpriced.
func benchOf(b *testing.B, in string, unpriced int) {
	s, m := benchAccount()
	benchCPU(b, func() {
		if v := Of(s, m, in); v == nil || len(v.Unpriced) != unpriced {
			b.Fatalf("valuation %v", v)
		}
	})
}

// benchEquity is benchOf for Equity alone.
func benchEquity(b *testing.B, in string, unpriced int) {
	s, m := benchAccount()
	benchCPU(b, func() {
		if _, u, ok := Equity(s, m, in); !ok || len(u) != unpriced {
			b.Fatalf("equity in %s: ok %v, %d unpriced", in, ok, len(u))
		}
	})
}

// benchCPU runs op in b's loop and reports its CPU time per call: what
// other processes on a shared machine do not inflate (GC workers
// included).
func benchCPU(b *testing.B, op func()) {
	b.ReportAllocs()
	n, cpu0 := 0, testkit.CPUTime()
	for b.Loop() {
		op()
		n++
	}
	if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/op")
	}
}

// marketRing is n market snapshots following m as the market store
// publishes them (each saying which quotes moved since the one before):
// each publication moves the last price of moved of the balances'
// symbols and moved/2 of the positions' (moved 1000: every quote). A
// reader walking round the ring finds, once per round, a snapshot older
// than the one before (the store's move log does not help: it compares
// every quote it reads), which the figures include.
func marketRing(m *market.Snapshot, n, moved int) []*market.Snapshot {
	st := storeFeed(m)
	ring := make([]*market.Snapshot, n)
	for k := range ring {
		var syms []string
		for j := range moved {
			i := (k*moved + j) % 1000
			sym := fmt.Sprintf("A%03dUSDT", i)
			if i%10 == 0 {
				sym = fmt.Sprintf("A%03dBTC", i)
			}
			syms = append(syms, sym)
		}
		for j := range moved / 2 {
			syms = append(syms, fmt.Sprintf("C%03d-PERP", (k*moved/2+j)%500))
		}
		tick(st, int64(10+k), func(sym string) string {
			if strings.HasPrefix(sym, "C") {
				return fmt.Sprintf("%d.5", 1000+k%7)
			}
			return fmt.Sprintf("%d.%04d", 1+k%3, k)
		}, syms...)
		ring[k] = st.Publish()
	}
	return ring
}

// BenchmarkValuerEquity is the equity of the benchmark account by one
// Valuer, as a reader asks for it after each market update: fresh is the
// market store's next snapshot with 1% of the quotes moved (what the
// dashboard and the alert engine pay per market update: the state rarely
// changes between two), moved the next snapshot with every quote moved,
// same the same pair asked again; cold is Equity (nothing remembered, as
// for snapshots not made by the store) on fresh's snapshots.
func BenchmarkValuerEquity(b *testing.B) {
	benchValuer(b, func(v *Valuer, s *state.Snapshot, m *market.Snapshot) bool {
		_, unpriced, ok := v.Equity(s, m, "USDT")
		return ok && len(unpriced) == 0
	}, func(s *state.Snapshot, m *market.Snapshot) bool {
		_, unpriced, ok := Equity(s, m, "USDT")
		return ok && len(unpriced) == 0
	})
}

// BenchmarkValuerOf is BenchmarkValuerEquity for the whole valuation (Of:
// what the dashboard's panes show).
func BenchmarkValuerOf(b *testing.B) {
	benchValuer(b, func(v *Valuer, s *state.Snapshot, m *market.Snapshot) bool {
		val := v.Of(s, m, "USDT")
		return val != nil && len(val.Unpriced) == 0
	}, func(s *state.Snapshot, m *market.Snapshot) bool {
		val := Of(s, m, "USDT")
		return val != nil && len(val.Unpriced) == 0
	})
}

// benchValuer runs the cases of BenchmarkValuerEquity on warm (by a
// Valuer) and cold.
func benchValuer(b *testing.B, warm func(*Valuer, *state.Snapshot, *market.Snapshot) bool, cold func(*state.Snapshot, *market.Snapshot) bool) {
	s, m := benchAccount()
	for _, c := range []struct {
		name  string
		moved int
		ring  int
	}{{"cold", 10, 64}, {"fresh", 10, 64}, {"moved", 1000, 16}, {"same", 0, 1}} {
		b.Run(c.name, func(b *testing.B) {
			ring := []*market.Snapshot{m}
			if c.moved > 0 {
				ring = marketRing(m, c.ring, c.moved)
			}
			var v Valuer
			warm(&v, s, ring[len(ring)-1])
			n := 0
			benchCPU(b, func() {
				ok := false
				if c.name == "cold" {
					ok = cold(s, ring[n%len(ring)])
				} else {
					ok = warm(&v, s, ring[n%len(ring)])
				}
				if !ok {
					b.Fatal("no valuation")
				}
				n++
			})
		})
	}
}
