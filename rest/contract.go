package rest

import (
	"context"
	"strings"

	"bhtop/api"
)

// The contract order endpoints (API-FACTS.md extensions).
var (
	routeContractOrder  = routeOf(api.ContractOrder)
	routeContractCancel = routeOf(api.ContractCancel)
	routeBatchCancel    = routeOf(api.ContractBatchCancel)
)

// Contract order sides, order types and price types (API-FACTS.md).
var (
	ContractSides      = []string{"BUY_OPEN", "SELL_OPEN", "BUY_CLOSE", "SELL_CLOSE"}
	ContractOrderTypes = []string{"LIMIT", "STOP"}
	ContractPriceTypes = []string{"INPUT", "OPPONENT", "QUEUE", "OVER", "MARKET"}
	ContractTIFs       = []string{"GTC", "FOK", "IOC", "LIMIT_MAKER"}
)

// ContractOrderRequest is a new contract order (POST
// /openapi/contract/v1/order). Decimals are exact literals. An empty
// ClientOrderID (required by the service) is filled in before sending.
type ContractOrderRequest struct {
	Symbol        string
	Side          string // BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE
	OrderType     string // LIMIT (default) or STOP
	Quantity      string
	Price         string // INPUT (and OVER) orders; ignored by the others
	PriceType     string // INPUT (default), OPPONENT, QUEUE, OVER, MARKET
	TriggerPrice  string // STOP orders: the price that triggers them
	OverPrice     string // OVER orders: added to the best opposite price (a buy; taken off for a sell)
	Leverage      string // not for *_CLOSE
	TimeInForce   string // GTC (default), FOK, IOC, LIMIT_MAKER
	ClientOrderID string
}

// IsClose reports whether the order closes a position (*_CLOSE).
func (r ContractOrderRequest) IsClose() bool {
	return strings.HasSuffix(strings.ToUpper(r.Side), "_CLOSE")
}

// ContractCancelRequest cancels one contract order by OrderID or
// ClientOrderID.
type ContractCancelRequest struct {
	OrderID       string
	ClientOrderID string
	OrderType     string // LIMIT (default) or STOP
}

func (r ContractOrderRequest) params() *params {
	p := &params{}
	p.add("symbol", r.Symbol).add("side", strings.ToUpper(r.Side)).add("orderType", strings.ToUpper(r.OrderType))
	p.add("quantity", r.Quantity).add("price", r.Price).add("priceType", strings.ToUpper(r.PriceType))
	p.add("triggerPrice", r.TriggerPrice).add("overPrice", r.OverPrice)
	if !r.IsClose() {
		p.add("leverage", r.Leverage)
	}
	p.add("timeInForce", strings.ToUpper(r.TimeInForce)).add("clientOrderId", r.ClientOrderID)
	return p
}

// PlaceContractOrder sends one contract order; outcomes as for PlaceOrder.
// Leverage is never sent on a closing order.
func (t *Trader) PlaceContractOrder(ctx context.Context, req ContractOrderRequest) OrderResult {
	if req.ClientOrderID == "" {
		req.ClientOrderID = NewClientOrderID()
	}
	if req.OrderType == "" {
		req.OrderType = "LIMIT"
	}
	res := OrderResult{ClientOrderID: req.ClientOrderID, Symbol: req.Symbol}
	res = t.c.orderCall(ctx, routeContractOrder, req.params(), res)
	if res.Outcome == OutcomeAccepted && res.Status == "" {
		res.Status = api.StatusNew
	}
	return res
}

// CancelContractOrder cancels one contract order; outcomes as for
// PlaceOrder.
func (t *Trader) CancelContractOrder(ctx context.Context, req ContractCancelRequest) OrderResult {
	if req.OrderType == "" {
		req.OrderType = "LIMIT"
	}
	p := &params{}
	p.add("orderId", req.OrderID).add("clientOrderId", req.ClientOrderID).add("orderType", strings.ToUpper(req.OrderType))
	res := OrderResult{OrderID: req.OrderID, ClientOrderID: req.ClientOrderID}
	return t.c.orderCall(ctx, routeContractCancel, p, res)
}

// BatchCancel cancels every open contract order of the given symbols in
// one DELETE /openapi/contract/v1/order/batchCancel (no symbol: all of
// them). Outcomes as for PlaceOrder; an accepted result's Status is the
// service's message ("success") and its Symbol the comma list sent.
func (t *Trader) BatchCancel(ctx context.Context, symbols ...string) OrderResult {
	list := strings.Join(symbols, ",")
	p := &params{}
	p.add("symbol", list)
	res := t.c.orderCall(ctx, routeBatchCancel, p, OrderResult{Symbol: list})
	return res
}

// Cancel cancels one order of either market: a spot order by DELETE
// /openapi/v1/order, or with req.Contract a contract order (its symbol is
// copied into the result). Outcomes as for PlaceOrder.
func (t *Trader) Cancel(ctx context.Context, req CancelRequest) OrderResult {
	if !req.Contract {
		return t.CancelOrder(ctx, req)
	}
	res := t.CancelContractOrder(ctx, ContractCancelRequest{OrderID: req.OrderID, ClientOrderID: req.ClientOrderID, OrderType: req.OrderType})
	if res.Symbol == "" {
		res.Symbol = req.Symbol
	}
	return res
}
