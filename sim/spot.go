package sim

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/shopspring/decimal"

	"bhtop/api"
)

// parseOrder validates a new order of one market (contract): the symbol,
// then the market's own parameters against the symbol's filters, in the
// order the service reports problems.
func (s *Server) parseOrder(c *call, contract bool) (*order, *apiError) {
	sym, e := s.symbol(c.p, contract)
	if e != nil {
		return nil, e
	}
	o := &order{acct: c.key.account, sym: sym}
	parse := (*Server).spotParams
	if contract {
		parse = (*Server).contractParams
	}
	if e := parse(s, c, o); e != nil {
		return nil, e
	}
	return o, nil
}

// placeNew validates a new order of one market and places it.
func (s *Server) placeNew(c *call, contract bool) (*order, *apiError) {
	o, e := s.parseOrder(c, contract)
	if e != nil {
		return nil, e
	}
	place := s.placeSpot
	if contract {
		place = s.placeContract
	}
	if e := place(o, c.now.UnixMilli()); e != nil {
		return nil, e
	}
	return o, nil
}

// spotParams reads a spot order's side, type, time in force, amounts and
// client order id.
func (s *Server) spotParams(c *call, o *order) (e *apiError) {
	sym := o.sym
	if o.side, e = c.p.required("side"); e != nil {
		return e
	}
	if o.side != "BUY" && o.side != "SELL" {
		return badParam(codeInvalidSide, "Invalid side.")
	}
	if o.typ, e = c.p.required("type"); e != nil {
		return e
	}
	if !slices.Contains([]string{"LIMIT", "MARKET", "LIMIT_MAKER"}, o.typ) {
		return badParam(codeInvalidOrderType, "Invalid orderType.")
	}
	if o.tif, e = c.p.oneOf("timeInForce", "GTC", codeInvalidTIF, "Invalid timeInForce.", "GTC", "IOC", "FOK"); e != nil {
		return e
	}
	price, ok, e := o.amounts(c)
	if e != nil {
		return e
	}
	if o.typ == "MARKET" {
		price = bandPrice(sym, o.side)
	} else if !ok {
		return errMandatory("price")
	}
	o.price = price
	if e := checkFilters(sym, o.qty, price, o.typ != "MARKET"); e != nil {
		return e
	}
	if cid, ok := c.p.str("newClientOrderId"); ok {
		if len(cid) > 64 {
			return badParam(codeIllegalChars, "Illegal characters found in parameter 'newClientOrderId'.")
		}
		return o.setClientID(cid)
	}
	return nil
}

// amounts reads the order's quantity (required) and the price sent (ok:
// it was).
func (o *order) amounts(c *call) (price decimal.Decimal, ok bool, e *apiError) {
	if o.qty, e = c.p.requiredDecimal("quantity"); e != nil {
		return price, false, e
	}
	return c.p.decimal("price")
}

// setClientID gives the order its client order id, which no open order
// of the account may have.
func (o *order) setClientID(cid string) *apiError {
	if old := o.acct.byClient[cid]; old != nil && old.isOpen() {
		return badParam(codeOrderDuplicated, "Duplicate order sent.")
	}
	o.clientID = cid
	return nil
}

// checkFilters applies PRICE_FILTER (when checkPrice), LOT_SIZE and
// MIN_NOTIONAL: too many decimals is -1111, any other failure -1013.
func checkFilters(sym *symbol, qty, price decimal.Decimal, checkPrice bool) *apiError {
	if !qty.Equal(qty.Truncate(-sym.step.Exponent())) {
		return badParam(codeBadPrecision, "Precision is over the maximum defined for this asset.")
	}
	if qty.LessThan(sym.minQty) || qty.GreaterThan(sym.maxQty) || !qty.Mod(sym.step).IsZero() {
		return badParam(codeFilterFailure, "Filter failure: LOT_SIZE")
	}
	if checkPrice {
		if !price.Equal(price.Truncate(-sym.tick.Exponent())) {
			return badParam(codeBadPrecision, "Precision is over the maximum defined for this asset.")
		}
		if price.LessThan(sym.minPrice) || price.GreaterThan(sym.maxPrice) || !price.Mod(sym.tick).IsZero() {
			return badParam(codeFilterFailure, "Filter failure: PRICE_FILTER")
		}
	}
	if !sym.contract && qty.Mul(price).LessThan(sym.minNotional) {
		return badParam(codeFilterFailure, "Filter failure: MIN_NOTIONAL")
	}
	return nil
}

type newOrderReply struct {
	orderRecord
	TransactTime int64 `json:"transactTime"`
}

func (s *Server) handleNewOrder(c *call) (any, *apiError) {
	o, e := s.placeNew(c, false)
	if e != nil {
		return nil, e
	}
	return newOrderReply{o.record(), o.created}, nil
}

func (s *Server) handleTestOrder(c *call) (any, *apiError) {
	if _, e := s.parseOrder(c, false); e != nil {
		return nil, e
	}
	return struct{}{}, nil
}

// findOrder looks an order up by id (idParam) or client order id
// (clientParam) in the call's account; contract selects the market.
func (s *Server) findOrder(c *call, idParam, clientParam string, contract bool) (*order, *apiError) {
	a := c.key.account
	var o *order
	if v, ok := c.p.str(idParam); ok {
		id, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, badParam(codeIllegalChars, "Illegal characters found in parameter '%s'.", idParam)
		}
		o = a.orders[id]
	} else if v, ok := c.p.str(clientParam); ok {
		o = a.byClient[v]
	} else {
		return nil, errMandatory(idParam)
	}
	if o == nil || o.sym.contract != contract {
		return nil, errNoSuchOrder()
	}
	if name, ok := c.p.str("symbol"); ok && name != o.sym.name {
		return nil, errNoSuchOrder()
	}
	return o, nil
}

// handleQueryOrder answers GET /openapi/v1/order. It also finds contract
// orders (extension: a client reconciling an order of either market by id
// gets its final state rather than -2013).
func (s *Server) handleQueryOrder(c *call) (any, *apiError) {
	o, e := s.findOrder(c, "orderId", "origClientOrderId", false)
	if e != nil && e.code == codeNoSuchOrder {
		o, e = s.findOrder(c, "orderId", "origClientOrderId", true)
	}
	if e != nil {
		return nil, e
	}
	return o.record(), nil
}

// cancelFound finds the call's order of one market (contract) by orderId
// or clientOrderId and cancels it.
func (s *Server) cancelFound(c *call, contract bool) (*order, *apiError) {
	o, e := s.findOrder(c, "orderId", "clientOrderId", contract)
	if e != nil {
		return nil, e
	}
	if e := s.cancelChecked(o, c.now.UnixMilli()); e != nil {
		return nil, e
	}
	return o, nil
}

func (s *Server) handleCancelOrder(c *call) (any, *apiError) {
	o, e := s.cancelFound(c, false)
	if e != nil {
		return nil, e
	}
	return map[string]any{
		"symbol": o.sym.name, "clientOrderId": o.clientID,
		"orderId": json.Number(strconv.FormatUint(o.id, 10)), "status": api.StatusCanceled,
	}, nil
}

// listOrders pages orders as the service does: optional symbol, orderId
// (only orders below it) and limit (default def, at most 1000); the
// newest rows that qualify, oldest first.
func (s *Server) listOrders(c *call, orders []*order, contract bool, def int64) (any, *apiError) {
	name, hasSym := c.p.str("symbol")
	if hasSym {
		if sym := s.symbols[name]; sym == nil || sym.contract != contract {
			return nil, badParam(codeBadSymbol, "Invalid symbol.")
		}
	}
	n, e := c.p.ints(intParam{"orderId", 0}, intParam{"limit", def})
	if e != nil {
		return nil, e
	}
	below, limit := n[0], n[1]
	if limit <= 0 || limit > 1000 {
		limit = 1000
	}
	rows := make([]*order, 0, len(orders))
	for _, o := range orders {
		if o.sym.contract != contract || (hasSym && o.sym.name != name) || (below > 0 && o.id >= uint64(below)) {
			continue
		}
		rows = append(rows, o)
	}
	slices.SortFunc(rows, func(a, b *order) int { return cmp.Compare(a.id, b.id) })
	if int64(len(rows)) > limit {
		rows = rows[int64(len(rows))-limit:]
	}
	out := make([]orderRecord, len(rows))
	for i, o := range rows {
		out[i] = o.record()
	}
	return out, nil
}

func (s *Server) handleOpenOrders(c *call) (any, *apiError) {
	return s.listOrders(c, s.openOrders(c.key.account), false, 500)
}

func (s *Server) handleHistoryOrders(c *call) (any, *apiError) {
	return s.listOrders(c, s.closedOrders(c.key.account), false, 500)
}
