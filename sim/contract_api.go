package sim

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// contractParams reads a contract order's side, type, price type, time in
// force, amounts, leverage and client order id
// (POST /openapi/contract/v1/order).
func (s *Server) contractParams(c *call, o *order) (e *apiError) {
	sym := o.sym
	o.typ, o.priceType, o.tif = "LIMIT", "INPUT", "GTC"
	side, e := c.p.required("side")
	if e != nil {
		return e
	}
	switch side {
	case "BUY_OPEN", "SELL_OPEN", "BUY_CLOSE", "SELL_CLOSE":
		o.side, _, _ = strings.Cut(side, "_")
		o.close = strings.HasSuffix(side, "_CLOSE")
	default:
		return badParam(codeInvalidSide, "Invalid side.")
	}
	t, e := c.p.oneOf("orderType", "LIMIT", codeInvalidOrderType, "Invalid orderType.", "LIMIT", "STOP")
	if e != nil {
		return e
	}
	if t == "STOP" {
		o.stop, o.typ = true, "STOP"
		if o.trigger, e = c.p.requiredDecimal("triggerPrice"); e != nil {
			return e
		}
		if e := checkFilters(sym, sym.minQty, o.trigger, true); e != nil {
			return e
		}
	}
	if o.priceType, e = c.p.oneOf("priceType", "INPUT", codeInvalidOrderType, "Invalid priceType.", "INPUT", "OPPONENT", "QUEUE", "OVER", "MARKET"); e != nil {
		return e
	}
	if o.tif, e = c.p.oneOf("timeInForce", "GTC", codeInvalidTIF, "Invalid timeInForce.", "GTC", "FOK", "IOC", "LIMIT_MAKER"); e != nil {
		return e
	}
	price, ok, e := o.amounts(c)
	if e != nil {
		return e
	}
	if o.priceType == "INPUT" && !ok {
		return errMandatory("price")
	}
	if o.priceType != "INPUT" && !o.stop {
		if price, e = s.typedPrice(c.p, sym, o.side, o.priceType); e != nil {
			return e
		}
	}
	if o.stop && o.priceType != "INPUT" {
		price = o.trigger
	}
	o.price = price
	if !o.close {
		lev, ok, e := c.p.decimal("leverage")
		if e != nil {
			return e
		}
		if !ok || lev.LessThan(decimal.NewFromInt(1)) || lev.GreaterThan(decimal.NewFromInt(100)) {
			return errMandatory("leverage")
		}
		o.leverage = lev
	}
	if e := checkFilters(sym, o.qty, price, o.priceType == "INPUT"); e != nil {
		return e
	}
	cid, e := c.p.required("clientOrderId")
	if e != nil {
		return e
	}
	return o.setClientID(cid)
}

func (s *Server) handleContractOrder(c *call) (any, *apiError) {
	o, e := s.placeNew(c, true)
	if e != nil {
		return nil, e
	}
	return o.record(), nil
}

func (s *Server) handleContractCancel(c *call) (any, *apiError) {
	o, e := s.cancelFound(c, true)
	if e != nil {
		return nil, e
	}
	return o.record(), nil
}

func (s *Server) handleContractQuery(c *call) (any, *apiError) {
	o, e := s.findOrder(c, "orderId", "clientOrderId", true)
	if e != nil {
		return nil, e
	}
	return o.record(), nil
}

func (s *Server) handleContractOpenOrders(c *call) (any, *apiError) {
	return s.listOrders(c, s.openOrders(c.key.account), true, 20)
}

func (s *Server) handleContractHistory(c *call) (any, *apiError) {
	return s.listOrders(c, s.closedOrders(c.key.account), true, 20)
}

func (s *Server) handlePositions(c *call) (any, *apiError) {
	a := c.key.account
	name, hasSym := c.p.str("symbol")
	keys := make([]string, 0, len(a.positions))
	for k, p := range a.positions {
		if p.total.IsPositive() && (!hasSym || p.sym.name == name) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]positionRecord, len(keys))
	for i, k := range keys {
		out[i] = a.positions[k].record()
	}
	return out, nil
}

// positionRecord is a record of GET /openapi/contract/v1/positions.
type positionRecord struct {
	Symbol        string `json:"symbol"`
	Side          string `json:"side"`
	AvgPrice      string `json:"avgPrice"`
	Position      string `json:"position"`
	Available     string `json:"available"`
	Leverage      string `json:"leverage"`
	LastPrice     string `json:"lastPrice"`
	PositionValue string `json:"positionValue"`
	Flp           string `json:"flp"`
	Margin        string `json:"margin"`
	MarginRate    string `json:"marginRate"`
	UnrealizedPnL string `json:"unrealizedPnL"`
	ProfitRate    string `json:"profitRate"`
	RealizedPnL   string `json:"realizedPnL"`
}

// record values the position at its contract's last price (the mark).
func (p *position) record() positionRecord {
	last := p.sym.last()
	value := notional(p.sym, p.total, last)
	var upnl decimal.Decimal
	if p.sym.inverse {
		upnl = notional(p.sym, p.total, p.avg).Sub(value)
	} else {
		upnl = last.Sub(p.avg).Mul(p.total)
	}
	if p.side == "SHORT" {
		upnl = upnl.Neg()
	}
	rate, profit := decimal.Zero, decimal.Zero
	if value.IsPositive() {
		rate = p.margin.DivRound(value, 8)
	}
	if p.margin.IsPositive() {
		profit = upnl.DivRound(p.margin, 8)
	}
	return positionRecord{
		Symbol: p.sym.name, Side: p.side, AvgPrice: p.avg.String(), Position: p.total.String(),
		Available: p.available.String(), Leverage: p.leverage.String(), LastPrice: last.String(),
		PositionValue: value.String(), Flp: p.liquidation().String(), Margin: p.margin.String(),
		MarginRate: rate.String(), UnrealizedPnL: upnl.String(), ProfitRate: profit.String(),
		RealizedPnL: p.realized.String(),
	}
}
