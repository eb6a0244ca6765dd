package stream

import (
	"context"
	"fmt"
	"strings"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// PlaceContractOrder sends one new contract order with the same pending
// life as PlaceOrder: PENDING before it is sent, NOT_PLACED when
// rejected, UNKNOWN after a 5XX or timeout and then queried by client
// order id (GET /openapi/contract/v1/getOrder) until the service answers.
// It is never retried.
func (s *Session) PlaceContractOrder(ctx context.Context, req rest.ContractOrderRequest) rest.OrderResult {
	price := req.Price
	if req.PriceType != "" && req.PriceType != "INPUT" {
		price = req.PriceType
	}
	what := fmt.Sprintf("%s %s %s %s @ %s", req.Side, req.Quantity, req.Symbol, req.OrderType, price)
	typ := req.OrderType
	if typ == "" {
		typ = "LIMIT"
	}
	terms := state.Pending{Symbol: req.Symbol, Side: req.Side, Type: typ, TimeInForce: strings.ToUpper(req.TimeInForce),
		Quantity: req.Quantity, Price: price}
	return s.place(&req.ClientOrderID, terms, what, true,
		func() rest.OrderResult { return s.trader.PlaceContractOrder(ctx, req) })
}

// Contracts lists the contract symbols and their filters from brokerInfo.
func (s *Session) Contracts(ctx context.Context) ([]rest.ContractSymbol, error) {
	info, err := s.rest.BrokerInfo(ctx)
	if err != nil {
		return nil, err // names the request; the caller says what it was for
	}
	return info.Contracts, nil
}

// CancelAll cancels every target once (actions.Canceller: contract
// orders by batchCancel per symbol, spot ones one by one through the rate
// governor), calling progress after each request, and returns the
// summary. A read-only session sends nothing and counts every target
// failed.
func (s *Session) CancelAll(ctx context.Context, targets []actions.Target, progress func(actions.Summary)) actions.Summary {
	if s.trader == nil {
		return actions.Summary{Total: len(targets), Failed: len(targets), Errors: []string{errReadOnly.Error()}}
	}
	return actions.Canceller{Trader: s.trader, Progress: progress}.CancelAll(ctx, targets)
}
