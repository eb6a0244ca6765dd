package sim

import (
	"bhtop/event"

	"github.com/shopspring/decimal"
)

// position is one contract position (symbol, LONG or SHORT). Margin is
// held as locked balance of the symbol's margin asset.
type position struct {
	sym       *symbol
	side      string // LONG or SHORT
	avg       decimal.Decimal
	total     decimal.Decimal
	available decimal.Decimal // total minus quantity reserved by open close orders
	margin    decimal.Decimal
	realized  decimal.Decimal
	leverage  decimal.Decimal
}

// Maintenance margin rate used for the liquidation price.
var maintenanceRate = decimal.RequireFromString("0.005")

func posKey(symbol, side string) string { return symbol + "/" + side }

// positionSide is the position an order opens or closes.
func positionSide(o *order) string {
	if (o.side == "BUY") != o.close {
		return "LONG"
	}
	return "SHORT"
}

// contractSide is the REST side of a contract order: BUY_OPEN etc.
func contractSide(o *order) string {
	if o.close {
		return o.side + "_CLOSE"
	}
	return o.side + "_OPEN"
}

// notional is the value of qty at price in the margin asset: qty×price
// for linear contracts, qty/price for inverse ones (one quote unit each).
func notional(sym *symbol, qty, price decimal.Decimal) decimal.Decimal {
	if sym.inverse {
		return qty.DivRound(price, 8)
	}
	return qty.Mul(price)
}

func (a *account) position(sym *symbol, side string) *position {
	k := posKey(sym.name, side)
	p := a.positions[k]
	if p == nil {
		p = &position{sym: sym, side: side}
		a.positions[k] = p
	}
	return p
}

// settleContract applies a contract fill to the margin balance and the
// position: an open adds margin and quantity, a close releases margin pro
// rata and realizes PnL. The fee is charged on the notional.
func (x *exchange) settleContract(o *order, qty, price, rate decimal.Decimal, now int64) {
	a, sym := o.acct, o.sym
	p := a.position(sym, positionSide(o))
	b := a.bal(sym.marginAsset)
	n := notional(sym, qty, price)
	fee := n.Mul(rate).Truncate(8)
	o.lastFee, o.feeAsset = fee, sym.marginAsset
	o.lastPnl = decimal.Zero
	if !o.close {
		release := o.locked
		if rem := o.qty.Sub(o.executed); qty.LessThan(rem) {
			release = o.locked.Mul(qty).DivRound(rem, 8)
		}
		o.locked = o.locked.Sub(release)
		m := n.DivRound(o.leverage, 8)
		b.locked = b.locked.Sub(release).Add(m)
		b.free = b.free.Add(release).Sub(m).Sub(fee)
		if p.total.IsZero() {
			p.avg = price
		} else if sym.inverse {
			// harmonic mean: total contracts over their total value
			p.avg = p.total.Add(qty).DivRound(notional(sym, p.total, p.avg).Add(n), 8).Round(-sym.tick.Exponent() + 2)
		} else {
			p.avg = p.avg.Mul(p.total).Add(price.Mul(qty)).DivRound(p.total.Add(qty), 8)
		}
		p.total = p.total.Add(qty)
		p.available = p.available.Add(qty)
		p.margin = p.margin.Add(m)
		p.leverage = o.leverage
		return
	}
	var pnl decimal.Decimal
	if sym.inverse {
		pnl = notional(sym, qty, p.avg).Sub(n)
	} else {
		pnl = price.Sub(p.avg).Mul(qty)
	}
	if p.side == "SHORT" {
		pnl = pnl.Neg()
	}
	rel := p.margin
	if qty.LessThan(p.total) {
		rel = p.margin.Mul(qty).DivRound(p.total, 8)
	}
	p.margin = p.margin.Sub(rel)
	p.total = p.total.Sub(qty)
	if p.total.IsZero() {
		p.avg = decimal.Zero
	}
	b.locked = b.locked.Sub(rel)
	b.free = b.free.Add(rel).Add(pnl).Sub(fee)
	p.realized = p.realized.Add(pnl)
	o.lastPnl = pnl
}

// liquidation is an estimate: where the loss eats the margin less the
// maintenance margin.
func (p *position) liquidation() decimal.Decimal {
	if p.total.IsZero() || p.leverage.IsZero() {
		return decimal.Zero
	}
	f := decimal.NewFromInt(1).Div(p.leverage).Sub(maintenanceRate)
	one := decimal.NewFromInt(1)
	if p.side == "LONG" {
		f = one.Sub(f)
	} else {
		f = one.Add(f)
	}
	if f.IsNegative() {
		return decimal.Zero
	}
	return p.avg.Mul(f).Round(-p.sym.tick.Exponent())
}

func (p *position) info(a *account) event.PositionInfo {
	return event.PositionInfo{
		AccountID: a.contractID, Symbol: p.sym.name, Side: p.side,
		AvgPrice: p.avg.String(), Total: p.total.String(), Available: p.available.String(),
		LiquidationPrice: p.liquidation().String(), Margin: p.margin.String(), RealizedPnl: p.realized.String(),
	}
}

func (x *exchange) publishPosition(a *account, sym *symbol, side string, _ int64) {
	p := a.position(sym, side)
	info := p.info(a)
	x.emit(a.id, event.AppendPosition(nil, &info, x.encodeOpts()))
}
