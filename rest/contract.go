package rest

import (
	"context"
	"strings"
)

// The contract order endpoints (API-FACTS.md extensions).
var (
	routeContractOrder  = route{"POST", "/openapi/contract/v1/order", secTrade, 1, true}
	routeContractCancel = route{"DELETE", "/openapi/contract/v1/order/cancel", secTrade, 1, true}
)

// ContractOrderRequest is a new contract order (POST
// /openapi/contract/v1/order). Decimals are exact literals. An empty
// ClientOrderID (required by the service) is filled in before sending.
type ContractOrderRequest struct {
	Symbol        string
	Side          string // BUY_OPEN, SELL_OPEN, BUY_CLOSE, SELL_CLOSE
	OrderType     string // LIMIT (default)
	Quantity      string
	Price         string
	PriceType     string // INPUT (default), OPPONENT, QUEUE, OVER, MARKET
	Leverage      string // not for *_CLOSE
	TimeInForce   string // GTC (default), FOK, IOC, LIMIT_MAKER
	ClientOrderID string
}

// ContractCancelRequest cancels one contract order by OrderID or
// ClientOrderID.
type ContractCancelRequest struct {
	OrderID       string
	ClientOrderID string
	OrderType     string // LIMIT (default) or STOP
}

// PlaceContractOrder sends one contract order; outcomes as for PlaceOrder.
func (t *Trader) PlaceContractOrder(ctx context.Context, req ContractOrderRequest) OrderResult {
	if req.ClientOrderID == "" {
		req.ClientOrderID = NewClientOrderID()
	}
	if req.OrderType == "" {
		req.OrderType = "LIMIT"
	}
	p := &params{}
	p.add("symbol", req.Symbol).add("side", strings.ToUpper(req.Side)).add("orderType", strings.ToUpper(req.OrderType))
	p.add("quantity", req.Quantity).add("price", req.Price).add("priceType", strings.ToUpper(req.PriceType))
	p.add("leverage", req.Leverage).add("timeInForce", strings.ToUpper(req.TimeInForce))
	p.add("clientOrderId", req.ClientOrderID)
	res := OrderResult{ClientOrderID: req.ClientOrderID, Symbol: req.Symbol}
	return t.c.orderCall(ctx, routeContractOrder, p, res)
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
