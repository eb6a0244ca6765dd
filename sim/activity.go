package sim

import (
	"time"

	"github.com/shopspring/decimal"
)

// Background activity: seeded trading on the demo account (resting spot
// orders placed, partly and fully filled, canceled; contract positions
// opened and closed) at about Options.Activity events per second (fewer
// on a machine too busy for that rate: see activityCatchUp). The
// work is done in batches, one per tick under one lock, with balance
// changes coalesced into one account event per tick, so rates of tens of
// thousands of events per second stay cheap.

const (
	activityTick    = 50 * time.Millisecond
	activityMaxOpen = 200 // resting activity orders at most
	// activityCatchUp is the most time one step makes up for: on a
	// machine too busy for the rate asked, steps come late and the
	// activity runs slower, rather than each late step doing up to a
	// second's events under the lock.
	activityCatchUp = 2 * activityTick
)

type activityState struct {
	budget   float64
	open     []*order // the activity's own resting orders (some may have closed)
	batching bool     // flushAccounts waits for the end of the batch
}

func (s *Server) runActivity() {
	defer s.wg.Done()
	t := time.NewTicker(activityTick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-t.C:
			dt := activityDue(now.Sub(last))
			last = now
			s.locked(func() { s.activityStep(s.opts.Activity * dt.Seconds()) })
		}
	}
}

// activityDue is the time of activity a step does when its tick came
// elapsed after the last one.
func activityDue(elapsed time.Duration) time.Duration { return min(elapsed, activityCatchUp) }

// activityStep does about n events' worth of activity and returns the
// number of events published.
func (x *exchange) activityStep(n float64) int {
	st := &x.act
	st.budget += n
	start := x.published
	now := x.nowMs()
	st.batching = true
	for st.budget >= 1 {
		before := x.published
		x.activityAction(now)
		k := float64(x.published - before)
		if k < 1 {
			k = 1
		}
		st.budget -= k
	}
	st.batching = false
	x.flushAccounts(now)
	return int(x.published - start)
}

func (x *exchange) activityAction(now int64) {
	r := x.rnd.IntN(100)
	switch {
	case r < 6:
		x.activityContract(now)
	case r < 45 && x.openActivity() < activityMaxOpen:
		x.activityPlace(now)
	default:
		o := x.pickActivity()
		switch {
		case o == nil:
			x.activityPlace(now)
		case r < 65:
			x.cancel(o, now)
		default:
			rem := o.qty.Sub(o.executed)
			q := rem
			if x.rnd.IntN(3) != 0 {
				if half := rem.Div(decimal.NewFromInt(2)).Div(o.sym.step).Floor().Mul(o.sym.step); half.IsPositive() {
					q = half
				}
			}
			x.activityFill(o, q, now)
		}
	}
}

// pickActivity returns a random open activity order (nil if none),
// dropping closed ones from the list as it meets them.
func (x *exchange) pickActivity() *order {
	st := &x.act
	for len(st.open) > 0 {
		i := x.rnd.IntN(len(st.open))
		o := st.open[i]
		if o.isOpen() {
			return o
		}
		last := len(st.open) - 1
		st.open[i] = st.open[last]
		st.open[last] = nil
		st.open = st.open[:last]
	}
	return nil
}

// activityPlace places a small resting spot order a few ticks away from
// the market, on the other side if the first lacks balance.
func (x *exchange) activityPlace(now int64) {
	var spot []*symbol
	for _, sym := range x.symbolList {
		if !sym.contract {
			spot = append(spot, sym)
		}
	}
	sym := spot[x.rnd.IntN(len(spot))]
	qty := minQty(sym).Mul(decimal.NewFromInt(int64(1 + x.rnd.IntN(5))))
	away := sym.tick.Mul(decimal.NewFromInt(int64(1 + x.rnd.IntN(10*sym.swing))))
	sides := []string{"BUY", "SELL"}
	if x.rnd.IntN(2) == 0 {
		sides[0], sides[1] = sides[1], sides[0]
	}
	for _, side := range sides {
		price := sym.last().Sub(away)
		if side == "SELL" {
			price = sym.last().Add(away)
		}
		if !price.IsPositive() {
			continue
		}
		o := &order{acct: x.demo, sym: sym, side: side, typ: "LIMIT", tif: "GTC", price: price, qty: qty, activity: true}
		if x.placeSpot(o, now) == nil {
			x.act.open = append(x.act.open, o)
			return
		}
	}
}

// openActivity is the number of activity orders not known to be closed
// (an upper bound of the open ones).
func (x *exchange) openActivity() int { return len(x.act.open) }

// minQty is the smallest quantity of sym that passes LOT_SIZE and
// MIN_NOTIONAL at its current price.
func minQty(sym *symbol) decimal.Decimal {
	q := sym.minQty
	if last := sym.last(); last.IsPositive() && sym.minNotional.IsPositive() {
		need := sym.minNotional.Div(last).Div(sym.step).Ceil().Mul(sym.step)
		if need.GreaterThan(q) {
			q = need
		}
	}
	return q
}

// activityContract opens or closes a small contract position at market.
func (x *exchange) activityContract(now int64) {
	var ctr []*symbol
	for _, sym := range x.symbolList {
		if sym.contract {
			ctr = append(ctr, sym)
		}
	}
	sym := ctr[x.rnd.IntN(len(ctr))]
	side := "LONG"
	if x.rnd.IntN(2) == 0 {
		side = "SHORT"
	}
	p := x.demo.positions[posKey(sym.name, side)]
	o := &order{acct: x.demo, sym: sym, typ: "LIMIT", priceType: "MARKET", tif: "IOC", activity: true}
	if p != nil && p.available.IsPositive() && (x.rnd.IntN(2) == 0 || p.total.GreaterThan(sym.minQty.Mul(decimal.NewFromInt(50)))) {
		o.close = true
		o.side = "SELL"
		if side == "SHORT" {
			o.side = "BUY"
		}
		o.qty = p.available
		if half := p.available.Div(decimal.NewFromInt(2)).Div(sym.step).Floor().Mul(sym.step); half.IsPositive() && x.rnd.IntN(2) == 0 {
			o.qty = half
		}
	} else {
		o.side = "BUY"
		if side == "SHORT" {
			o.side = "SELL"
		}
		o.qty = sym.minQty.Mul(decimal.NewFromInt(int64(1 + x.rnd.IntN(10))))
		o.leverage = decimal.NewFromInt(int64(5 + 5*x.rnd.IntN(4)))
	}
	o.price = bandPrice(sym, o.side)
	_ = x.placeContract(o, now)
}

// activityFill fills q of a resting activity order out of turn, as a
// trade on the tape at the order's price.
func (x *exchange) activityFill(o *order, q decimal.Decimal, now int64) {
	var id uint64
	m := o.sym.mkt
	if o.eo != nil {
		id = m.Take(o.eo, m.Lots(q), now).ID
	} else {
		id = m.Print(m.Ticks(o.price), m.Lots(q), o.side == "BUY", now).ID
	}
	x.fill(o, q, o.price, true, now, id, 0)
}
