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

// reconciler follows the orders this process sends until the service has
// told what became of them (DESIGN.md): each is listed PENDING before it
// is sent; a rejected one becomes NOT_PLACED; an unknown outcome (5XX,
// timeout) becomes UNKNOWN and is queried by client order id about 2 s
// later, then with backoff until the service answers; an accepted one is
// queried once if its report is late. It reports through the session's
// reporter and changes the store through apply (the session's writer).
type reconciler struct {
	rest      *rest.Client
	cfg       *Config
	rep       *reporter
	hub       *state.Hub
	apply     func(fn func(w *writer)) bool
	goTracked func(f func())  // runs f on a goroutine the session waits for
	ctx       context.Context // the session's: canceled by Close
}

// pend lists p (its id and terms) as PENDING: an order about to be sent.
// It returns the entry for track.
func (r *reconciler) pend(p state.Pending) state.Pending {
	p.Status, p.Since = state.PendingSent, r.cfg.Now().UnixMilli()
	r.apply(func(w *writer) { w.store.AddPending(p) })
	return p
}

// track sends new order p (listed as pending by the caller) once and
// follows its outcome: accepted waits for the stream's report, rejected
// stays listed as NOT_PLACED with the service's code and message (even
// when its clientOrderId is a known order's, as with -1141
// ORDER_DUPLICATED), unknown is queried by client order id (in its market)
// until the service answers.
func (r *reconciler) track(p state.Pending, what string, contract bool, send func() rest.OrderResult) rest.OrderResult {
	cid := p.ClientOrderID
	r.rep.note(NoteOrder, "sent: "+what+" ("+cid+")")
	res := send()
	switch res.Outcome {
	case rest.OutcomeAccepted:
		r.rep.note(NoteOrder, fmt.Sprintf("accepted: %s, order %s", what, res.OrderID))
		r.schedule(cid, contract, r.cfg.QueryDelay*3, false)
	case rest.OutcomeRejected:
		// The service says it never existed: NOT_PLACED, with its message.
		msg := sanitize(res.Msg, serviceTextMax)
		if res.Code != 0 {
			msg = fmt.Sprintf("%d %s", res.Code, msg)
		}
		r.apply(func(w *writer) { w.store.RefusePending(p, msg) })
		r.rep.noteError(fmt.Sprintf("rejected: %s: %s", what, msg))
	default:
		reason := sanitize(res.Msg, serviceTextMax)
		if res.HTTPStatus != 0 {
			reason = fmt.Sprintf("HTTP %d", res.HTTPStatus)
		}
		r.apply(func(w *writer) { w.store.SetPendingStatus(cid, state.PendingUnknown, reason) })
		r.rep.note(NoteOrder, fmt.Sprintf("outcome unknown (%s): %s; will ask the service", reason, what))
		r.schedule(cid, contract, r.cfg.QueryDelay, true)
	}
	return res
}

// schedule starts a goroutine that settles pending order cid by queries:
// the first after delay, then with backoff while the service cannot
// answer. insist: keep asking until answered (UNKNOWN); otherwise one
// query, only if it is still pending by then (an accepted order whose
// report is late). contract: cid is a contract order's.
func (r *reconciler) schedule(cid string, contract bool, delay time.Duration, insist bool) {
	r.goTracked(func() {
		for attempt := 0; ; attempt++ {
			if !clock.Sleep(r.cfg.Clock, r.ctx.Done(), delay) {
				return
			}
			if !r.stillPending(cid) {
				return
			}
			done := r.settle(cid, contract)
			if done || !insist {
				return
			}
			delay = backoff(attempt+1, r.cfg.QueryDelay, r.cfg.BackoffCap, jitter)
		}
	})
}

// settle queries cid once (in its market); true when the service
// answered either way.
func (r *reconciler) settle(cid string, contract bool) bool {
	ctx, cancel := context.WithTimeout(r.ctx, 10*time.Second)
	defer cancel()
	query, market := r.rest.QueryOrder, state.MarketSpot
	if contract {
		query, market = r.rest.ContractQueryOrder, state.MarketContract
	}
	rec, err := query(ctx, rest.OrderQuery{OrigClientOrderID: cid})
	switch {
	case err == nil:
		os := orderSnap(market, rec)
		r.apply(func(w *writer) { w.store.ApplyOrderRecord(os) })
		r.rep.note(NoteOrder, fmt.Sprintf("settled %s: order %s is %s", cid, rec.OrderID, rec.Status))
		return true
	case errors.Is(err, rest.ErrNoSuchOrder):
		r.apply(func(w *writer) {
			w.store.SetPendingStatus(cid, state.PendingNotPlaced, "the service has no such order")
		})
		r.rep.note(NoteOrder, fmt.Sprintf("settled %s: never placed", cid))
		return true
	default:
		if r.ctx.Err() == nil {
			r.rep.noteError(fmt.Sprintf("query order %s: %v (will retry)", cid, err))
		}
		return false
	}
}

// stillPending reports whether cid is listed as PENDING or UNKNOWN.
func (r *reconciler) stillPending(cid string) bool {
	for _, p := range r.hub.Latest().Pending {
		if p.ClientOrderID == cid {
			return p.Status == state.PendingSent || p.Status == state.PendingUnknown
		}
	}
	// Not published yet? Ask the writer.
	found := false
	r.apply(func(w *writer) {
		for _, p := range w.store.Snapshot().Pending {
			if p.ClientOrderID == cid {
				found = p.Status == state.PendingSent || p.Status == state.PendingUnknown
			}
		}
	})
	return found
}
