package sim

import (
	"encoding/json"
	"strconv"

	"bhtop/api"
	"bhtop/event"
	"bhtop/sim/engine"

	"github.com/shopspring/decimal"
)

// Commission rates: taker and maker (unless Options.MakerRate says),
// charged in the asset received (spot) or the margin asset (contracts).
var (
	takerRate = decimal.RequireFromString("0.001")
	makerRate = decimal.RequireFromString("0.0008")
)

// order is a spot or contract order. Decimals are exact.
type order struct {
	acct      *account
	sym       *symbol
	id        uint64
	clientID  string
	side      string // BUY or SELL (a contract order's direction)
	close     bool   // contract *_CLOSE order
	typ       string // LIMIT, MARKET, LIMIT_MAKER
	priceType string // contract: INPUT, MARKET, ...
	tif       string
	price     decimal.Decimal // limit price (market price at placement for MARKET)
	qty       decimal.Decimal
	leverage  decimal.Decimal // contract only
	executed  decimal.Decimal
	cumQuote  decimal.Decimal
	fees      decimal.Decimal
	lastQty   decimal.Decimal
	lastPrice decimal.Decimal
	lastFee   decimal.Decimal
	feeAsset  string
	lockAsset string
	locked    decimal.Decimal // still locked for this order
	status    string
	created   int64
	updated   int64
	lastMaker bool
	activity  bool            // placed by the background activity
	eo        *engine.Order   // the order on the book while it rests
	trigger   decimal.Decimal // STOP orders: the last price that triggers them
	stop      bool            // a STOP order (triggered or not)
	lastTrade uint64          // trade id of the last fill
	lastMatch uint64          // the other order of the last fill
	lastPnl   decimal.Decimal // contract: realized PnL of the last fill
}

func (o *order) isOpen() bool {
	return o.status == api.StatusNew || o.status == api.StatusPartiallyFilled
}

// publishExec publishes the order's current state as an executionReport or
// contractExecutionReport and stamps its update time.
func (x *exchange) publishExec(o *order, now int64) {
	e := o.acct.execTime(now)
	o.updated = e
	r := event.ExecutionReport{
		Contract: o.sym.contract, EventTime: e, Symbol: o.sym.name, ClientOrderID: o.clientID,
		Side: o.side, Type: o.typ, TimeInForce: o.tif, Quantity: o.qty.String(), Price: o.price.String(),
		Status: o.status, OrderID: strconv.FormatUint(o.id, 10),
		LastQty: o.lastQty.String(), CumQty: o.executed.String(), LastPrice: o.lastPrice.String(),
		Commission: o.lastFee.String(), CommissionAsset: o.feeAsset,
		Working: o.isOpen(), Maker: false, Created: o.created, CumQuote: o.cumQuote.String(),
	}
	r.Maker = o.lastMaker && o.lastQty.IsPositive()
	if o.lastQty.IsPositive() && !x.opts.Faults.NoTradeIDs {
		r.TradeID = strconv.FormatUint(o.lastTrade, 10)
	}
	if o.sym.contract {
		r.Close = o.close
		r.Leverage = o.leverage.String()
		if r.CommissionAsset == "" {
			r.CommissionAsset = o.sym.marginAsset
		}
	}
	x.emit(o.acct.id, event.AppendExecution(nil, &r, x.encodeOpts()))
}

// addOrder registers a new order with its account and symbol.
func (x *exchange) addOrder(o *order) {
	a := o.acct
	a.orders[o.id] = o
	a.byClient[o.clientID] = o
	sym := o.sym
	if len(sym.open) >= 64 && len(sym.open) >= 2*sym.compacted {
		sym.compact()
	}
	sym.open = append(sym.open, o)
}

// compact drops closed orders from the symbol's resting list.
func (sym *symbol) compact() {
	kept := sym.open[:0]
	for _, o := range sym.open {
		if o.isOpen() {
			kept = append(kept, o)
		}
	}
	clear(sym.open[len(kept):])
	sym.open = kept
	sym.compacted = len(kept)
}

// closed records that o left the open state, pruning the oldest closed
// orders beyond maxClosedOrders.
func (x *exchange) closed(o *order) {
	a := o.acct
	a.closed = append(a.closed, o.id)
	if len(a.closed) > maxClosedOrders+maxClosedOrders/10 {
		drop := len(a.closed) - maxClosedOrders
		for _, id := range a.closed[:drop] {
			if old := a.orders[id]; old != nil {
				delete(a.orders, id)
				if a.byClient[old.clientID] == old {
					delete(a.byClient, old.clientID)
				}
			}
		}
		a.closed = append(a.closed[:0], a.closed[drop:]...)
	}
}

// fill executes qty of o at price (trade id tradeID), settles balances
// (and the position of a contract order), records the account's trade and
// publishes the order event.
func (x *exchange) fill(o *order, qty, price decimal.Decimal, maker bool, now int64, tradeID, matchID uint64) {
	rate := takerRate
	if maker {
		rate = x.makerRate
	}
	if o.sym.contract {
		x.settleContract(o, qty, price, rate, now)
	} else {
		x.settleSpot(o, qty, price, rate)
	}
	o.executed = o.executed.Add(qty)
	o.cumQuote = o.cumQuote.Add(qty.Mul(price))
	o.lastQty, o.lastPrice, o.lastMaker, o.lastTrade, o.lastMatch = qty, price, maker, tradeID, matchID
	o.fees = o.fees.Add(o.lastFee)
	x.recordTrade(o, now)
	if o.executed.GreaterThanOrEqual(o.qty) {
		o.status = api.StatusFilled
		o.eo = nil // the book let go of it as it filled
		x.releaseLock(o)
		x.closed(o)
	} else {
		o.status = api.StatusPartiallyFilled
	}
	x.publishExec(o, now)
	if o.sym.contract {
		x.publishPosition(o.acct, o.sym, positionSide(o), now)
	}
}

func (x *exchange) settleSpot(o *order, qty, price, rate decimal.Decimal) {
	a, sym := o.acct, o.sym
	quote := qty.Mul(price)
	if o.side == "BUY" {
		release := qty.Mul(o.price)
		if release.GreaterThan(o.locked) {
			release = o.locked
		}
		o.locked = o.locked.Sub(release)
		qb := a.bal(sym.quote)
		qb.locked = qb.locked.Sub(release)
		qb.free = qb.free.Add(release).Sub(quote)
		fee := qty.Mul(rate).Truncate(8)
		bb := a.bal(sym.base)
		bb.free = bb.free.Add(qty).Sub(fee)
		o.lastFee, o.feeAsset = fee, sym.base
		return
	}
	o.locked = o.locked.Sub(qty)
	bb := a.bal(sym.base)
	bb.locked = bb.locked.Sub(qty)
	fee := quote.Mul(rate).Truncate(8)
	qb := a.bal(sym.quote)
	qb.free = qb.free.Add(quote).Sub(fee)
	o.lastFee, o.feeAsset = fee, sym.quote
}

// releaseLock returns what is still locked for o to free.
func (x *exchange) releaseLock(o *order) {
	if o.lockAsset == "" || o.locked.IsZero() {
		return
	}
	b := o.acct.bal(o.lockAsset)
	b.locked = b.locked.Sub(o.locked)
	b.free = b.free.Add(o.locked)
	o.locked = decimal.Zero
}

// cancel cancels an open order: takes it off the book, releases its lock
// (or reserved position) and publishes CANCELED.
func (x *exchange) cancel(o *order, now int64) { x.finish(o, api.StatusCanceled, now) }

// reject closes an order that could not be carried out: REJECTED, with
// what it reserved released.
func (x *exchange) reject(o *order, now int64) { x.finish(o, api.StatusRejected, now) }

func (x *exchange) finish(o *order, status string, now int64) {
	o.status = status
	o.lastQty, o.lastPrice, o.lastFee = decimal.Zero, decimal.Zero, decimal.Zero
	if o.eo != nil {
		o.sym.mkt.Cancel(o.eo)
		o.eo = nil
	}
	x.dropStop(o)
	x.releaseLock(o)
	if o.sym.contract && o.close {
		if p := o.acct.positions[posKey(o.sym.name, positionSide(o))]; p != nil {
			p.available = p.available.Add(o.qty.Sub(o.executed))
			x.publishExec(o, now)
			x.publishPosition(o.acct, o.sym, positionSide(o), now)
			x.closed(o)
			return
		}
	}
	x.publishExec(o, now)
	x.closed(o)
}

// orderRecord is the REST order record of API-FACTS.md (spot), with the
// contract fields added for contract orders. Ids are JSON numbers.
type orderRecord struct {
	Symbol        string      `json:"symbol"`
	OrderID       json.Number `json:"orderId"`
	ClientOrderID string      `json:"clientOrderId"`
	Price         string      `json:"price"`
	OrigQty       string      `json:"origQty"`
	ExecutedQty   string      `json:"executedQty"`
	CumQuote      string      `json:"cummulativeQuoteQty,omitempty"`
	AvgPrice      string      `json:"avgPrice"`
	Status        string      `json:"status"`
	TimeInForce   string      `json:"timeInForce"`
	Type          string      `json:"type,omitempty"`
	OrderType     string      `json:"orderType,omitempty"`
	PriceType     string      `json:"priceType,omitempty"`
	Side          string      `json:"side"`
	Leverage      string      `json:"leverage,omitempty"`
	Fees          string      `json:"fees,omitempty"`
	StopPrice     string      `json:"stopPrice"`
	IcebergQty    string      `json:"icebergQty,omitempty"`
	Time          int64       `json:"time"`
	UpdateTime    int64       `json:"updateTime"`
	IsWorking     bool        `json:"isWorking"`
}

func (o *order) record() orderRecord {
	avg := "0"
	if o.executed.IsPositive() {
		avg = o.cumQuote.DivRound(o.executed, 12).String()
	}
	r := orderRecord{
		Symbol: o.sym.name, OrderID: json.Number(strconv.FormatUint(o.id, 10)), ClientOrderID: o.clientID,
		Price: o.price.String(), OrigQty: o.qty.String(), ExecutedQty: o.executed.String(),
		AvgPrice: avg, Status: o.status, TimeInForce: o.tif, Side: o.side, StopPrice: "0",
		Time: o.created, UpdateTime: o.updated, IsWorking: o.isOpen(),
	}
	if o.sym.contract {
		r.OrderType, r.PriceType, r.Leverage, r.Fees = o.typ, o.priceType, o.leverage.String(), o.fees.String()
		r.Side = contractSide(o)
		return r
	}
	r.Type, r.CumQuote, r.IcebergQty = o.typ, o.cumQuote.String(), "0"
	return r
}
