package rest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"bhtop/api"
)

// Trader sends order-changing requests. It is the only way to place or
// cancel an order, so wiring that never builds one (read-only mode) cannot
// send any. Each call sends exactly one request and never retries it: a
// retry after an unknown outcome could place a second order.
type Trader struct{ c *Client }

// NewTrader returns a Trader sending through c.
func NewTrader(c *Client) *Trader { return &Trader{c: c} }

// Client is the client the trader sends through.
func (t *Trader) Client() *Client { return t.c }

// NewClientOrderID returns a fresh client order id: "bh" and 20 random
// lowercase hex digits.
func NewClientOrderID() string {
	var b [10]byte
	_, _ = rand.Read(b[:])
	return "bh" + hex.EncodeToString(b[:])
}

func (r OrderRequest) params() *params {
	p := &params{}
	p.add("symbol", r.Symbol).add("side", strings.ToUpper(r.Side)).add("type", strings.ToUpper(r.Type))
	p.add("timeInForce", strings.ToUpper(r.TimeInForce)).add("quantity", r.Quantity).add("price", r.Price)
	p.add("newClientOrderId", r.NewClientOrderID)
	return p
}

// PlaceOrder sends one POST /openapi/v1/order. An empty NewClientOrderID
// is filled in first, and the result always carries the client order id.
// Outcomes: a 2XX reply is accepted (with the orderId); a 4XX reply, or a
// failure before any byte was sent, is rejected (with code and msg); a
// 5XX, a timeout or any failure after the request may have been sent is
// unknown: settle it later with QueryOrder by OrigClientOrderID.
func (t *Trader) PlaceOrder(ctx context.Context, req OrderRequest) OrderResult {
	if req.NewClientOrderID == "" {
		req.NewClientOrderID = NewClientOrderID()
	}
	res := OrderResult{ClientOrderID: req.NewClientOrderID, Symbol: req.Symbol}
	return t.c.orderCall(ctx, routeNewOrder, req.params(), res)
}

// TestOrder validates req like a new order without placing it (POST
// /openapi/v1/order/test, an extension).
func (t *Trader) TestOrder(ctx context.Context, req OrderRequest) error {
	return t.c.call(ctx, routeTestOrder, req.params(), nil)
}

// CancelOrder sends one DELETE /openapi/v1/order naming the order by
// OrderID or ClientOrderID. Outcomes as for PlaceOrder.
func (t *Trader) CancelOrder(ctx context.Context, req CancelRequest) OrderResult {
	p := &params{}
	p.add("symbol", req.Symbol).add("orderId", req.OrderID).add("clientOrderId", req.ClientOrderID)
	res := OrderResult{OrderID: req.OrderID, ClientOrderID: req.ClientOrderID, Symbol: req.Symbol}
	return t.c.orderCall(ctx, routeCancelOrder, p, res)
}

// orderCall sends one order-changing request and classifies its outcome.
func (c *Client) orderCall(ctx context.Context, r route, p *params, res OrderResult) OrderResult {
	rep, err := c.send(ctx, r, p)
	if err != nil {
		res.Msg = r.method + " " + r.path + ": " + err.Error()
		if NotSent(err) {
			res.Outcome = OutcomeRejected
			res.Msg = "not sent: " + err.Error() // httpStatus stays 0: this request got no reply
			return res
		}
		res.Outcome = OutcomeUnknown
		return res
	}
	res.HTTPStatus = rep.status
	switch {
	case rep.status >= 200 && rep.status <= 299:
		var w struct {
			Symbol        string     `json:"symbol"`
			OrderID       flexString `json:"orderId"`
			ClientOrderID flexString `json:"clientOrderId"`
			Status        string     `json:"status"`
			Message       string     `json:"message"` // batchCancel's answer
		}
		if err := decode(rep.body, &w); err != nil {
			res.Outcome = OutcomeUnknown
			res.Msg = "unreadable reply to " + r.method + " " + r.path + ": " + summary(rep.body)
			return res
		}
		res.Outcome = OutcomeAccepted
		if w.OrderID != "" {
			res.OrderID = string(w.OrderID)
		}
		if w.ClientOrderID != "" {
			res.ClientOrderID = string(w.ClientOrderID)
		}
		if w.Symbol != "" {
			res.Symbol = w.Symbol
		}
		res.Status = w.Status
		if res.Status == "" {
			res.Status = w.Message
		}
		if res.Status == "" && r == routeNewOrder {
			res.Status = api.StatusNew
		}
	case rep.status >= 400 && rep.status <= 499:
		ae := apiError(rep)
		res.Outcome, res.Code, res.Msg = OutcomeRejected, ae.Code, msgOf(ae)
		if ae.Code == api.CodeInvalidTimestamp {
			c.staleOffset() // the next timestamped request re-measures it
		}
	default: // 5XX (or anything else): it may have taken effect
		ae := apiError(rep)
		res.Outcome, res.Code, res.Msg = OutcomeUnknown, ae.Code, msgOf(ae)
	}
	return res
}

// msgOf is the service's message with a hint a person can act on.
func msgOf(ae *APIError) string {
	if h := ae.Hint(); h != "" {
		return ae.Msg + " (" + h + ")"
	}
	return ae.Msg
}
