package engine

import (
	"math"
	"math/rand/v2"
)

// Flow is the simulated other traders of one market: a market maker that
// quotes levels around a fair price taking a seeded random walk around the
// start price, and takers that trade against the book. Its orders share
// the book with everyone else's, so its quotes fill resting orders they
// cross and its takers take them in price-time order.
type Flow struct {
	m      *Market
	rnd    *rand.Rand
	start  int64 // ticks
	fair   int64
	swing  int64 // largest walk per step, ticks
	gap    int64 // distance between quoted levels, ticks
	unit   int64 // lots of the smallest quote
	levels int
	quotes []*Order
	budget float64
	out    []Trade
}

// FlowLevels is how many levels the maker quotes on each side.
const FlowLevels = 25

// NewFlow returns the flow of m around its last price: swing is the
// largest walk per step (ticks), unit the smallest quote (lots).
func NewFlow(m *Market, rnd *rand.Rand, swing, unit int64) *Flow {
	return &Flow{m: m, rnd: rnd, start: m.last, fair: m.last, swing: max(swing, 1),
		gap: max(swing/5, 1), unit: max(unit, 1), levels: FlowLevels}
}

// Fair is the maker's current fair price in ticks.
func (f *Flow) Fair() int64 { return f.fair }

// Backfill prints history before the start: one trade every every ms
// from `from` up to now, a walk that ends at the start price, so charts
// and 24 h tickers have something to show from the first second.
func (f *Flow) Backfill(from, now, every int64) {
	n := int((now - from) / every)
	prices := make([]int64, n)
	p := f.start
	for i := n - 1; i >= 0; i-- {
		prices[i] = p
		p = max(p+f.walkStep(p), 100) // the walk is symmetric: back in time it is the same walk
	}
	f.m.bars.reserve(int((now-from)/60_000) + 2)
	for i, p := range prices {
		f.m.Print(p, f.unit*int64(1+f.rnd.IntN(5)), f.rnd.IntN(2) == 0, from+int64(i)*every)
	}
	f.m.last = f.start
}

// walkStep is one random step from p, pulled gently back to the start.
func (f *Flow) walkStep(p int64) int64 {
	return f.rnd.Int64N(2*f.swing+1) - f.swing + (f.start-p)/200
}

// Step is one step of the market at now: the fair price walks, the maker
// quotes again (its quotes may fill resting orders they cross), and takers
// trade rate×dt times on average. It returns every trade of the step
// (valid until the next call).
func (f *Flow) Step(now int64, takers float64) []Trade {
	f.out = f.out[:0]
	f.fair = max(f.fair+f.walkStep(f.fair), 100)
	f.requote(now)
	f.budget += takers
	for f.budget >= 1 {
		f.budget--
		side := Side(f.rnd.IntN(2))
		o := f.m.eng.NewOrder(side, MarketPrice(side), f.unit*int64(1+f.rnd.IntN(4)), nil)
		f.out = append(f.out, f.m.Match(o, now)...)
	}
	return f.out
}

// MoveTo moves the market to price at once (tests and demos): the maker
// pulls its quotes, takers sweep every resting order the move crosses (at
// most capLots in all; 0 is no cap), a trade prints at price, and the
// maker quotes around it. It returns the trades (valid until the next
// call).
func (f *Flow) MoveTo(price, capLots, now int64) []Trade {
	f.out = f.out[:0]
	f.pull()
	f.fair = price
	if capLots <= 0 {
		capLots = math.MaxInt64 / 2
	}
	for _, side := range []Side{Sell, Buy} {
		o := f.m.eng.NewOrder(side, price, capLots, nil)
		f.out = append(f.out, f.m.Match(o, now)...)
		capLots = o.Qty
	}
	f.m.Print(price, f.unit, false, now)
	f.requote(now)
	return f.out
}

// Quote replaces the maker's quotes by one bid and one ask of qty lots
// (tests use it to know the prices a marketable order will get).
func (f *Flow) Quote(bid, ask, qty int64, now int64) []Trade {
	f.out = f.out[:0]
	f.pull()
	f.place(Buy, bid, qty, now)
	f.place(Sell, ask, qty, now)
	return f.out
}

func (f *Flow) pull() {
	for _, o := range f.quotes {
		f.m.Cancel(o)
	}
	clear(f.quotes)
	f.quotes = f.quotes[:0]
}

// requote replaces the maker's quotes by levels around the fair price.
func (f *Flow) requote(now int64) {
	f.pull()
	half := max(f.gap/2, 1)
	for k := range int64(f.levels) {
		if f.rnd.IntN(8) == 0 && k > 0 {
			continue // a gap in the book now and then
		}
		qty := f.unit * int64(1+f.rnd.IntN(10)) * (1 + k/5)
		if bid := f.fair - half - k*f.gap; bid > 0 {
			f.place(Buy, bid, qty, now)
		}
		f.place(Sell, f.fair+half+k*f.gap, f.unit*int64(1+f.rnd.IntN(10))*(1+k/5), now)
	}
}

// place matches a maker order (it may cross resting orders) and rests
// what is left.
func (f *Flow) place(side Side, price, qty, now int64) {
	o := f.m.eng.NewOrder(side, price, qty, nil)
	f.out = append(f.out, f.m.Match(o, now)...)
	if o.Qty > 0 {
		f.m.Rest(o)
		f.quotes = append(f.quotes, o)
	}
}
