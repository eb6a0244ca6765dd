package stream

import (
	"context"
	"errors"
	"fmt"

	"bhtop/rest"
	"bhtop/state"
)

// Order placement and cancels; the pending entry and the reconciliation
// of orders whose outcome is unknown are the reconciler's (reconcile.go).

// OrderSender places and cancels orders. A read-write Session is one (its
// methods match ui.Trader); see Trader.
type OrderSender interface {
	PlaceOrder(ctx context.Context, req rest.OrderRequest) rest.OrderResult
	CancelOrder(ctx context.Context, req rest.CancelRequest) rest.OrderResult
}

// Trader returns the session as an OrderSender when it was built with a
// rest.Trader, and nil in read-only mode, so wiring code can hand the
// dashboard a nil trader and no order can be sent.
func (s *Session) Trader() OrderSender {
	if s.trader == nil {
		return nil
	}
	return s
}

var errReadOnly = errors.New("read-only session: orders are disabled")

// PlaceOrder sends one new order. It is listed as PENDING before it is
// sent; an accepted order stays pending until the stream's report (or a
// query) settles it, a rejected one leaves with a note giving the
// service's message, and an unknown outcome (5XX, timeout) becomes UNKNOWN
// and is queried by client order id until the service answers.
func (s *Session) PlaceOrder(ctx context.Context, req rest.OrderRequest) rest.OrderResult {
	what := fmt.Sprintf("%s %s %s %s @ %s", req.Side, req.Quantity, req.Symbol, req.Type, req.Price)
	terms := state.Pending{Symbol: req.Symbol, Side: req.Side, Type: req.Type, TimeInForce: req.TimeInForce,
		Quantity: req.Quantity, Price: req.Price}
	return s.place(&req.NewClientOrderID, terms, what, false,
		func() rest.OrderResult { return s.trader.PlaceOrder(ctx, req) })
}

// place gives a new order of either market (contract) its pending life:
// refused on a read-only session, a client order id made when *cid (the
// request's) is empty, PENDING (with terms: symbol, side, type, quantity,
// price) before send sends the request, then tracked until settled. what
// describes the order in notes.
func (s *Session) place(cid *string, terms state.Pending, what string, contract bool, send func() rest.OrderResult) rest.OrderResult {
	if s.trader == nil {
		return readOnlyResult(terms.Symbol)
	}
	if *cid == "" {
		*cid = rest.NewClientOrderID()
	}
	terms.ClientOrderID = *cid
	return s.track(s.pend(terms), what, contract, send)
}

// readOnlyResult is the answer to an order request on a read-only session.
func readOnlyResult(symbol string) rest.OrderResult {
	return rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: symbol, Msg: errReadOnly.Error()}
}

// CancelOrder sends one cancel and notes its outcome; the stream's report
// updates the order itself.
func (s *Session) CancelOrder(ctx context.Context, req rest.CancelRequest) rest.OrderResult {
	if s.trader == nil {
		return readOnlyResult(req.Symbol)
	}
	id := req.OrderID
	if id == "" {
		id = req.ClientOrderID
	}
	var res rest.OrderResult
	if req.Contract {
		res = s.trader.CancelContractOrder(ctx, rest.ContractCancelRequest{
			OrderID: req.OrderID, ClientOrderID: req.ClientOrderID, OrderType: req.OrderType,
		})
		res.Symbol = req.Symbol
	} else {
		res = s.trader.CancelOrder(ctx, req)
	}
	switch res.Outcome {
	case rest.OutcomeAccepted:
		s.note(NoteOrder, "cancel accepted: order "+id)
	case rest.OutcomeRejected:
		s.noteError(fmt.Sprintf("cancel of order %s rejected: %s", id, res.Msg))
	default:
		s.note(NoteOrder, fmt.Sprintf("cancel of order %s: outcome unknown (%s); the stream will tell", id, res.Msg))
	}
	return res
}
