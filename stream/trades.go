package stream

import (
	"context"
	"errors"
	"fmt"

	"bhtop/rest"
	"bhtop/state"
)

// tradesOnResync is how many of the newest executions of each market are
// fetched (GET myTrades, spot and contract) at start and after each
// resync: the fills the stream may have missed.
const tradesOnResync = rest.MaxTradesPage

// unknownOrdersOnResync is how many orders, at most, are queried (GET
// /openapi/v1/order or /openapi/contract/v1/getOrder, one at a time
// through the rest governor) after each resync because executions of
// theirs arrived from myTrades while the store knows no such order: an
// order placed and filled while the stream was down. Those of the newest
// executions go first; the rest follow at later resyncs.
const unknownOrdersOnResync = 20

// fetchTrades folds the newest executions of both markets into the
// store's fills (events and records of one trade are one fill there).
// myTrades is an extension: an error is a note, never a failed resync.
// The two markets are asked one after the other, never together (see
// takeSnapshots: a request under way when another is answered 429 gets
// the client banned).
//
// After an outage (afterOutage: the session was live before), the orders
// of fetched executions that the store does not know are queried
// (queryUnknown): placed and filled while the stream was down, they would
// exist only as fills. At the first connect they are history from before
// bhtop started: not queried, so a start costs no requests for them.
func (p *snapshotter) fetchTrades(ctx context.Context, afterOutage bool) {
	var all []state.TradeSnap
	for _, contract := range []bool{false, true} {
		recs, err := p.rest.RecentTrades(ctx, contract, tradesOnResync, 0)
		if len(recs) > 0 {
			snaps := tradeSnaps(recs)
			p.apply(func(w *writer) { w.store.ApplyTrades(snaps) })
			all = append(all, snaps...)
		}
		if err != nil && ctx.Err() == nil {
			p.rep.note(NoteInfo, fmt.Sprintf("trade history unavailable, fills from events only: %v", err))
		}
	}
	if len(all) == 0 || !afterOutage {
		return
	}
	var unknown []state.OrderKey
	p.apply(func(w *writer) { unknown = w.store.UnknownOrders(all, unknownOrdersOnResync, p.noSuchOrder) })
	p.queryUnknown(ctx, unknown)
}

// noSuchOrder reports whether the service answered -2013 for k's order
// (an order of fills it no longer knows): not asked again, so such
// orders cannot take every query of a resync.
func (p *snapshotter) noSuchOrder(k state.OrderKey) bool {
	p.gmu.Lock()
	defer p.gmu.Unlock()
	return p.gone[k]
}

// markNoSuchOrder records a -2013 for k (the set is bounded: cleared when
// it reaches maxGone).
func (p *snapshotter) markNoSuchOrder(k state.OrderKey) {
	p.gmu.Lock()
	defer p.gmu.Unlock()
	if p.gone == nil || len(p.gone) >= maxGone {
		p.gone = map[state.OrderKey]bool{}
	}
	p.gone[k] = true
}

// maxGone bounds the orders remembered as unknown to the service.
const maxGone = 10000

// queryUnknown fetches the orders of executions the store has no order
// for, one after the other, and folds each in as the service has it (a
// closed order with its status, executedQty and Z). An order the service
// does not know (-2013) is skipped (and not asked again); any other failure ends the round
// (the next resync asks again): a rate limit must not be met by more
// requests.
func (p *snapshotter) queryUnknown(ctx context.Context, keys []state.OrderKey) {
	got := 0
	for _, k := range keys {
		if ctx.Err() != nil {
			return
		}
		query := p.rest.QueryOrder
		if k.Market == state.MarketContract {
			query = p.rest.ContractQueryOrder
		}
		rec, err := query(ctx, rest.OrderQuery{OrderID: k.OrderID})
		if errors.Is(err, rest.ErrNoSuchOrder) {
			p.markNoSuchOrder(k)
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				p.rep.noteError(fmt.Sprintf("query order %s of fills missed while away: %v", k.OrderID, err))
			}
			break
		}
		os := orderSnap(k.Market, rec)
		p.apply(func(w *writer) { w.store.ApplyOrderRecord(os) })
		got++
	}
	if got > 0 {
		p.rep.note(NoteResync, fmt.Sprintf("%d orders known only from their fills (filled while away) fetched from REST", got))
	}
}

func tradeSnaps(recs []rest.TradeRecord) []state.TradeSnap {
	out := make([]state.TradeSnap, len(recs))
	for i, r := range recs {
		m := state.MarketSpot
		if r.Contract {
			m = state.MarketContract
		}
		out[i] = state.TradeSnap{Market: m, Symbol: r.Symbol, TradeID: r.TradeID, OrderID: r.OrderID, Side: r.Side,
			Price: r.Price, Qty: r.Qty, Commission: r.Commission, CommissionAsset: r.CommissionAsset,
			Maker: r.Maker, MakerKnown: r.MakerKnown, Time: r.Time, RealizedPnl: r.RealizedPnl}
	}
	return out
}
