package stream

import (
	"context"
	"fmt"

	"bhtop/rest"
	"bhtop/state"
)

// tradesOnResync is how many of the newest executions of each market are
// fetched (GET myTrades, spot and contract) at start and after each
// resync: the fills the stream may have missed.
const tradesOnResync = rest.MaxTradesPage

// fetchTrades folds the newest executions of both markets into the
// store's fills (events and records of one trade are one fill there).
// myTrades is an extension: an error is a note, never a failed resync.
// The two markets are asked one after the other, never together (see
// takeSnapshots: a request under way when another is answered 429 gets
// the client banned).
func (p *snapshotter) fetchTrades(ctx context.Context) {
	for _, contract := range []bool{false, true} {
		recs, err := p.rest.RecentTrades(ctx, contract, tradesOnResync, 0)
		if len(recs) > 0 {
			snaps := tradeSnaps(recs)
			p.apply(func(w *writer) { w.store.ApplyTrades(snaps) })
		}
		if err != nil && ctx.Err() == nil {
			p.rep.note(NoteInfo, fmt.Sprintf("trade history unavailable, fills from events only: %v", err))
		}
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
