package stream

import (
	"context"
	"fmt"

	"bhtop/rest"
)

// PlaceContractOrder sends one new contract order with the same pending
// life as PlaceOrder: PENDING before it is sent, NOT_PLACED when
// rejected, UNKNOWN after a 5XX or timeout and then queried by client
// order id (GET /openapi/contract/v1/getOrder) until the service answers.
// It is never retried.
func (s *Session) PlaceContractOrder(ctx context.Context, req rest.ContractOrderRequest) rest.OrderResult {
	if s.trader == nil {
		return rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: req.Symbol, Msg: errReadOnly.Error()}
	}
	if req.ClientOrderID == "" {
		req.ClientOrderID = rest.NewClientOrderID()
	}
	cid := req.ClientOrderID
	s.pend(cid, req.Symbol, req.Side)
	price := req.Price
	if req.PriceType != "" && req.PriceType != "INPUT" {
		price = req.PriceType
	}
	what := fmt.Sprintf("%s %s %s %s @ %s", req.Side, req.Quantity, req.Symbol, req.OrderType, price)
	return s.track(cid, what, true, func() rest.OrderResult { return s.trader.PlaceContractOrder(ctx, req) })
}
