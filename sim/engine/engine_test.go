package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/shopspring/decimal"
)

func newMarket() (*Engine, *Market) {
	e := New()
	return e, e.Add("X", decimal.RequireFromString("0.01"), decimal.RequireFromString("0.001"), 10_000)
}

// Price-time priority: a taker takes the best price first and, at one
// price, the oldest order first; it trades at the resting prices and
// leaves what it could not fill.
func TestMatchPriceTime(t *testing.T) {
	e, m := newMarket()
	a := e.NewOrder(Sell, 101, 5, "a")
	b := e.NewOrder(Sell, 100, 3, "b")
	c := e.NewOrder(Sell, 100, 4, "c")
	for _, o := range []*Order{a, b, c} {
		m.Rest(o)
	}
	taker := e.NewOrder(Buy, 101, 10, "t")
	trades := m.Match(taker, 7)
	want := []struct {
		maker      *Order
		price, qty int64
	}{{b, 100, 3}, {c, 100, 4}, {a, 101, 3}}
	if len(trades) != len(want) {
		t.Fatalf("%d trades, want %d", len(trades), len(want))
	}
	for i, w := range want {
		tr := trades[i]
		if tr.Maker != w.maker || tr.Price != w.price || tr.Qty != w.qty || tr.Taker != taker || tr.BuyerMaker || tr.Time != 7 {
			t.Errorf("trade %d = %+v, want maker %v %d@%d", i, tr, w.maker.Ref, w.qty, w.price)
		}
	}
	if taker.Qty != 0 || a.Qty != 2 || !a.Resting() || b.Resting() || c.Resting() {
		t.Errorf("after: taker %d, a %d resting %v, b %v, c %v", taker.Qty, a.Qty, a.Resting(), b.Resting(), c.Resting())
	}
	if p, q, ok := m.Book().Best(Sell); !ok || p != 101 || q != 2 {
		t.Errorf("best ask = %d %d %v, want 101 2", p, q, ok)
	}
	if m.Last() != 101 || m.TradeCount() != 3 {
		t.Errorf("last %d, trades %d", m.Last(), m.TradeCount())
	}
	got := m.Trades(nil, 2)
	if len(got) != 2 || got[0].Price != 101 || got[1].Qty != 4 || got[0].Maker != nil {
		t.Errorf("tape newest = %+v", got)
	}
}

func TestCancelAndDepth(t *testing.T) {
	e, m := newMarket()
	var orders []*Order
	for i := range 6 {
		o := e.NewOrder(Buy, int64(90+i%3), 1, nil)
		m.Rest(o)
		orders = append(orders, o)
	}
	m.Cancel(orders[2]) // one of price 92
	d := m.Book().Depth(Buy, 10, nil)
	if len(d) != 3 || d[0] != (Level{92, 1}) || d[1] != (Level{91, 2}) || d[2] != (Level{90, 2}) {
		t.Errorf("depth = %v", d)
	}
	m.Cancel(orders[5])
	if d = m.Book().Depth(Buy, 10, nil); d[0].Price != 91 {
		t.Errorf("after emptying 92: %v", d)
	}
	if m.Book().Crosses(Sell, 92) || !m.Book().Crosses(Sell, 91) || m.Book().Available(Sell, 90) != 4 {
		t.Errorf("crosses/available wrong")
	}
}

// Klines of any interval hold the trades of the minute bars they cover.
func TestKlines(t *testing.T) {
	_, m := newMarket()
	t0 := int64(1_700_000_000_000) - 1_700_000_000_000%86_400_000
	for i := range 120 {
		m.Print(int64(100+i%7), 2, i%2 == 0, t0+int64(i)*30_000) // one hour
	}
	h := m.Klines("1h", 0, t0+3600_000, 10, false)
	if len(h) != 1 || h[0].Trades != 120 || h[0].Volume != 240 || h[0].H != 106 || h[0].L != 100 || h[0].O != 100 {
		t.Fatalf("1h = %+v", h)
	}
	if b := m.Klines("5m", 0, t0+3600_000, 100, false); len(b) != 12 || b[0].Trades != 10 {
		t.Errorf("5m = %d bars", len(b))
	}
	if b := m.Klines("1m", t0+600_000, t0+3600_000, 3, true); len(b) != 3 || b[0].Open != t0+600_000 {
		t.Errorf("1m from t0+10m = %+v", b)
	}
	if got := BarStart("1w", t0); (got-4*86_400_000)%(7*86_400_000) != 0 || got > t0 {
		t.Errorf("week start %d", got)
	}
	if got := BarStart("1M", 1_700_000_000_000); got != 1_698_796_800_000 { // 2023-11-01
		t.Errorf("month start %d", got)
	}
	qv := m.QuoteQty(h[0].QuoteVol)
	if !qv.Equal(decimal.RequireFromString("0.01").Mul(decimal.RequireFromString("0.001")).Mul(decimal.NewFromInt(sumPQ()))) {
		t.Errorf("quote volume %s", qv)
	}
}

func sumPQ() int64 {
	var s int64
	for i := range 120 {
		s += int64(100+i%7) * 2
	}
	return s
}

// The flow keeps a two-sided book around its fair price and is the same
// under the same seed.
func TestFlowDeterministic(t *testing.T) {
	run := func() (int64, uint64) {
		_, m := newMarket()
		f := NewFlow(m, rand.New(rand.NewPCG(1, 2)), 10, 3)
		const start = 26 * 3600_000
		f.Backfill(0, start, 30_000)
		for i := range 200 {
			f.Step(start+int64(i)*500, 1)
		}
		if d := m.Since(0); d.H > 11_000 || d.L < 9_000 {
			t.Fatalf("the walk strayed: high %d low %d around 10000", d.H, d.L)
		}
		bid, _, ok1 := m.Book().Best(Buy)
		ask, _, ok2 := m.Book().Best(Sell)
		if !ok1 || !ok2 || bid >= ask {
			t.Fatalf("book bid %d ask %d", bid, ask)
		}
		return m.Last(), m.TradeCount()
	}
	l1, n1 := run()
	l2, n2 := run()
	if l1 != l2 || n1 != n2 || n1 < 300 {
		t.Errorf("runs differ or too few trades: %d/%d, %d/%d", l1, l2, n1, n2)
	}
}

// BenchmarkMatch measures matching throughput: a taker that trades
// against one resting order and a new resting order to replace it, per
// op. go test -bench Match -run ^$ ./sim/engine/
func BenchmarkMatch(b *testing.B) {
	e, m := newMarket()
	rnd := rand.New(rand.NewPCG(1, 1))
	for i := range 1000 {
		m.Rest(e.NewOrder(Side(i%2), 10_000+int64(i%2)*10+int64(rnd.IntN(50))*(1-2*int64(i%2)+0), 5, nil))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		side := Side(i % 2)
		taker := &Order{Side: side, Price: MarketPrice(side), Qty: 5}
		trades := m.Match(taker, int64(i))
		for range trades {
			maker := &Order{Side: 1 - side, Price: trades[0].Price, Qty: 5}
			m.Rest(maker)
		}
	}
	b.ReportMetric(float64(m.TradeCount())/b.Elapsed().Seconds(), "trades/s")
}
