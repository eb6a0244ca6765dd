package sim

import (
	"slices"
	"strings"

	"github.com/shopspring/decimal"
)

// parseContractOrder validates POST /openapi/contract/v1/order.
func (s *Server) parseContractOrder(c *call) (*order, *apiError) {
	o, e := s.newOrder(c, true)
	if e != nil {
		return nil, e
	}
	sym := o.sym
	o.typ, o.priceType, o.tif = "LIMIT", "INPUT", "GTC"
	side, e := c.p.required("side")
	if e != nil {
		return nil, e
	}
	switch side {
	case "BUY_OPEN", "SELL_OPEN", "BUY_CLOSE", "SELL_CLOSE":
		o.side, _, _ = strings.Cut(side, "_")
		o.close = strings.HasSuffix(side, "_CLOSE")
	default:
		return nil, badParam(codeInvalidSide, "Invalid side.")
	}
	t, e := c.p.oneOf("orderType", "LIMIT", codeInvalidOrderType, "Invalid orderType.", "LIMIT", "STOP")
	if e != nil {
		return nil, e
	}
	if t == "STOP" {
		o.stop, o.typ = true, "STOP"
		if o.trigger, e = c.p.requiredDecimal("triggerPrice"); e != nil {
			return nil, e
		}
		if e := checkFilters(sym, sym.minQty, o.trigger, true); e != nil {
			return nil, e
		}
	}
	if o.priceType, e = c.p.oneOf("priceType", "INPUT", codeInvalidOrderType, "Invalid priceType.", "INPUT", "OPPONENT", "QUEUE", "OVER", "MARKET"); e != nil {
		return nil, e
	}
	if o.tif, e = c.p.oneOf("timeInForce", "GTC", codeInvalidTIF, "Invalid timeInForce.", "GTC", "FOK", "IOC", "LIMIT_MAKER"); e != nil {
		return nil, e
	}
	if o.qty, e = c.p.requiredDecimal("quantity"); e != nil {
		return nil, e
	}
	price, ok, e := c.p.decimal("price")
	if e != nil {
		return nil, e
	}
	if o.priceType == "INPUT" && !ok {
		return nil, errMandatory("price")
	}
	if o.priceType != "INPUT" && !o.stop {
		if price, e = s.typedPrice(c.p, sym, o.side, o.priceType); e != nil {
			return nil, e
		}
	}
	if o.stop && o.priceType != "INPUT" {
		price = o.trigger
	}
	o.price = price
	if !o.close {
		lev, ok, e := c.p.decimal("leverage")
		if e != nil {
			return nil, e
		}
		if !ok || lev.LessThan(decimal.NewFromInt(1)) || lev.GreaterThan(decimal.NewFromInt(100)) {
			return nil, errMandatory("leverage")
		}
		o.leverage = lev
	}
	if e := checkFilters(sym, o.qty, price, o.priceType == "INPUT"); e != nil {
		return nil, e
	}
	cid, e := c.p.required("clientOrderId")
	if e != nil {
		return nil, e
	}
	if old := o.acct.byClient[cid]; old != nil && old.isOpen() {
		return nil, badParam(codeOrderDuplicated, "Duplicate order sent.")
	}
	o.clientID = cid
	return o, nil
}

func (s *Server) handleContractOrder(c *call) (any, *apiError) {
	o, e := s.parseContractOrder(c)
	if e != nil {
		return nil, e
	}
	if e := s.placeContract(o, c.now.UnixMilli()); e != nil {
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
	out := make([]positionRecord, 0, len(keys))
	for _, k := range keys {
		p := a.positions[k]
		last := p.sym.last() // the mark: the contract's last price
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
		out = append(out, positionRecord{
			Symbol: p.sym.name, Side: p.side, AvgPrice: p.avg.String(), Position: p.total.String(),
			Available: p.available.String(), Leverage: p.leverage.String(), LastPrice: last.String(),
			PositionValue: value.String(), Flp: p.liquidation().String(), Margin: p.margin.String(),
			MarginRate: rate.String(), UnrealizedPnL: upnl.String(), ProfitRate: profit.String(),
			RealizedPnL: p.realized.String(),
		})
	}
	return out, nil
}
