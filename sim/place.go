package sim

import (
	"strconv"

	"github.com/shopspring/decimal"

	"bhtop/api"
)

// Placing, cancelling and listing orders on the exchange: what the order
// endpoints do once the front end has parsed and checked a request.

// placeSpot locks the funds of a validated order, registers it, publishes
// NEW, and executes it against the book (see execute). A LIMIT_MAKER that
// would take is registered and REJECTED, and the request answers -2010.
func (x *exchange) placeSpot(o *order, now int64) *apiError {
	a, sym := o.acct, o.sym
	o.lockAsset, o.locked = sym.base, o.qty
	if o.side == "BUY" {
		o.lockAsset, o.locked = sym.quote, o.qty.Mul(o.price)
	}
	if b := a.balances[o.lockAsset]; b == nil || b.free.LessThan(o.locked) {
		return errInsufficient()
	}
	b := a.bal(o.lockAsset)
	b.free = b.free.Sub(o.locked)
	b.locked = b.locked.Add(o.locked)
	x.register(o, now)
	if o.typ == "LIMIT_MAKER" && o.wouldTake() {
		x.reject(o, now)
		x.flushAccounts(now)
		return badParam(codeNewOrderRejected, "Order would immediately match and take.")
	}
	x.execute(o, now)
	x.flushAccounts(now)
	return nil
}

// register gives o its ids and creation time, and publishes NEW.
func (x *exchange) register(o *order, now int64) {
	if o.sym.contract {
		x.nextCtrID++
		o.id = x.nextCtrID
	} else {
		x.nextSpotID++
		o.id = x.nextSpotID
	}
	if o.clientID == "" {
		x.nextClient++
		o.clientID = strconv.FormatUint(x.nextClient, 10)
	}
	o.status = api.StatusNew
	o.created = o.acct.execTime(now)
	x.addOrder(o)
	x.publishExec(o, now)
}

// cancelChecked cancels o unless it is closed already.
func (x *exchange) cancelChecked(o *order, now int64) *apiError {
	switch o.status {
	case api.StatusFilled:
		return badParam(codeOrderFilled, "Order has been filled.")
	case api.StatusCanceled:
		return badParam(codeOrderCanceled, "Order has been canceled.")
	}
	x.cancel(o, now)
	x.flushAccounts(now)
	return nil
}

func (x *exchange) openOrders(a *account) []*order {
	var l []*order
	for _, sym := range x.symbolList {
		for _, o := range sym.open {
			if o.acct == a && o.isOpen() {
				l = append(l, o)
			}
		}
	}
	return l
}

func (x *exchange) closedOrders(a *account) []*order {
	l := make([]*order, 0, len(a.closed))
	for _, id := range a.closed {
		if o := a.orders[id]; o != nil {
			l = append(l, o)
		}
	}
	return l
}

// placeContract reserves margin (open) or position (close), registers the
// order, and executes it against the book (a STOP order waits for its
// trigger). A LIMIT_MAKER that would take is REJECTED (-2010).
func (x *exchange) placeContract(o *order, now int64) *apiError {
	a, sym := o.acct, o.sym
	side := positionSide(o)
	if o.close {
		p := a.positions[posKey(sym.name, side)]
		if p == nil || p.available.LessThan(o.qty) {
			return badParam(codeNewOrderRejected, "Position is not enough to close.")
		}
		o.leverage = p.leverage
		p.available = p.available.Sub(o.qty)
	} else {
		price := o.price
		if o.stop {
			price = decimal.Max(o.price, o.trigger)
		}
		n := notional(sym, o.qty, price)
		need := n.DivRound(o.leverage, 8).Add(n.Mul(takerRate).Truncate(8))
		if b := a.balances[sym.marginAsset]; b == nil || b.free.LessThan(need) {
			return errInsufficient()
		}
		b := a.bal(sym.marginAsset)
		b.free = b.free.Sub(need)
		b.locked = b.locked.Add(need)
		o.lockAsset, o.locked = sym.marginAsset, need
	}
	x.register(o, now)
	if o.close {
		x.publishPosition(a, sym, side, now)
	}
	switch {
	case o.tif == "LIMIT_MAKER" && !o.stop && o.wouldTake():
		x.reject(o, now)
		x.flushAccounts(now)
		return badParam(codeNewOrderRejected, "Order would immediately match and take.")
	case o.stop:
		sym.stops = append(sym.stops, o)
	default:
		x.execute(o, now)
		x.triggerStops(sym, now) // its trades may have moved the last price
	}
	x.flushAccounts(now)
	return nil
}

// recordTrade keeps the last fill of o for the account's myTrades.
func (x *exchange) recordTrade(o *order, now int64) {
	a := o.acct
	if len(a.trades) >= maxAccountTrades+maxAccountTrades/10 {
		a.trades = append(a.trades[:0], a.trades[len(a.trades)-maxAccountTrades:]...)
	}
	a.trades = append(a.trades, accountTrade{
		id: o.lastTrade, orderID: o.id, matchID: o.lastMatch, o: o,
		price: o.lastPrice, qty: o.lastQty, fee: o.lastFee, feeAsset: o.feeAsset,
		pnl: o.lastPnl, time: now, maker: o.lastMaker,
	})
}
