package stream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
	"bhtop/state"
)

// Order placement with a pending entry, and the reconciliation of orders
// whose outcome is unknown (DESIGN.md: query by origClientOrderId about
// 2 s later, then with backoff until the service answers).

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
	if s.trader == nil {
		return rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: req.Symbol, Msg: errReadOnly.Error()}
	}
	if req.NewClientOrderID == "" {
		req.NewClientOrderID = rest.NewClientOrderID()
	}
	cid := req.NewClientOrderID
	s.pend(cid, req.Symbol, req.Side)
	what := fmt.Sprintf("%s %s %s %s @ %s", req.Side, req.Quantity, req.Symbol, req.Type, req.Price)
	return s.track(cid, what, false, func() rest.OrderResult { return s.trader.PlaceOrder(ctx, req) })
}

// pend lists cid as PENDING: an order about to be sent.
func (s *Session) pend(cid, symbol, side string) {
	p := state.Pending{ClientOrderID: cid, Symbol: symbol, Side: side,
		Status: state.PendingSent, Since: s.cfg.Now().UnixMilli()}
	s.do(func(w *writer) { w.store.AddPending(p) })
}

// track sends a new order (listed as pending by the caller) once and
// follows its outcome: accepted waits for the stream's report, rejected
// leaves as NOT_PLACED, unknown is queried by client order id (in its
// market) until the service answers.
func (s *Session) track(cid, what string, contract bool, send func() rest.OrderResult) rest.OrderResult {
	s.note(NoteOrder, "sent: "+what+" ("+cid+")")
	res := send()
	switch res.Outcome {
	case rest.OutcomeAccepted:
		s.note(NoteOrder, fmt.Sprintf("accepted: %s, order %s", what, res.OrderID))
		s.schedule(cid, contract, s.cfg.QueryDelay*3, false)
	case rest.OutcomeRejected:
		// The service says it never existed: NOT_PLACED, with its message.
		msg := sanitize(res.Msg, serviceTextMax)
		s.do(func(w *writer) { w.store.SetPendingStatus(cid, state.PendingNotPlaced, msg) })
		s.noteError(fmt.Sprintf("rejected: %s: %s", what, msg))
	default:
		reason := sanitize(res.Msg, serviceTextMax)
		if res.HTTPStatus != 0 {
			reason = fmt.Sprintf("HTTP %d", res.HTTPStatus)
		}
		s.do(func(w *writer) { w.store.SetPendingStatus(cid, state.PendingUnknown, reason) })
		s.note(NoteOrder, fmt.Sprintf("outcome unknown (%s): %s; will ask the service", reason, what))
		s.schedule(cid, contract, s.cfg.QueryDelay, true)
	}
	return res
}

// CancelOrder sends one cancel and notes its outcome; the stream's report
// updates the order itself.
func (s *Session) CancelOrder(ctx context.Context, req rest.CancelRequest) rest.OrderResult {
	if s.trader == nil {
		return rest.OrderResult{Outcome: rest.OutcomeRejected, Symbol: req.Symbol, Msg: errReadOnly.Error()}
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

// schedule starts a goroutine that settles pending order cid by queries:
// the first after delay, then with backoff while the service cannot
// answer. insist: keep asking until answered (UNKNOWN); otherwise one
// query, only if it is still pending by then (an accepted order whose
// report is late). contract: cid is a contract order's.
func (s *Session) schedule(cid string, contract bool, delay time.Duration, insist bool) {
	s.goTracked(func() {
		for attempt := 0; ; attempt++ {
			if !clock.Sleep(s.cfg.Clock, s.ctx.Done(), delay) {
				return
			}
			if !s.stillPending(cid) {
				return
			}
			done := s.settle(cid, contract)
			if done || !insist {
				return
			}
			delay = backoff(attempt+1, s.cfg.QueryDelay, s.cfg.BackoffCap, jitter)
		}
	})
}

// settle queries cid once (in its market); true when the service
// answered either way.
func (s *Session) settle(cid string, contract bool) bool {
	ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
	defer cancel()
	query, market := s.rest.QueryOrder, state.MarketSpot
	if contract {
		query, market = s.rest.ContractQueryOrder, state.MarketContract
	}
	rec, err := query(ctx, rest.OrderQuery{OrigClientOrderID: cid})
	switch {
	case err == nil:
		os := orderSnap(market, rec)
		s.do(func(w *writer) { w.store.ApplyOrderRecord(os) })
		s.note(NoteOrder, fmt.Sprintf("settled %s: order %s is %s", cid, rec.OrderID, rec.Status))
		return true
	case errors.Is(err, rest.ErrNoSuchOrder):
		s.do(func(w *writer) {
			w.store.SetPendingStatus(cid, state.PendingNotPlaced, "the service has no such order")
		})
		s.note(NoteOrder, fmt.Sprintf("settled %s: never placed", cid))
		return true
	default:
		if s.ctx.Err() == nil {
			s.noteError(fmt.Sprintf("query order %s: %v (will retry)", cid, err))
		}
		return false
	}
}

// stillPending reports whether cid is listed as PENDING or UNKNOWN.
func (s *Session) stillPending(cid string) bool {
	for _, p := range s.hub.Latest().Pending {
		if p.ClientOrderID == cid {
			return p.Status == state.PendingSent || p.Status == state.PendingUnknown
		}
	}
	// Not published yet? Ask the writer.
	found := false
	s.do(func(w *writer) {
		for _, p := range w.store.Snapshot().Pending {
			if p.ClientOrderID == cid {
				found = p.Status == state.PendingSent || p.Status == state.PendingUnknown
			}
		}
	})
	return found
}
