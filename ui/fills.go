package ui

import (
	"strings"
	"time"

	"bhtop/state"
)

// The Fills pane (key 6): one row per execution of the account, oldest
// first (it follows the newest), with the fee totals per asset in its
// title.

func fillColumns() []column {
	f := fieldOf(func(it *item) *state.Fill { return it.fill })
	market := f(func(x *state.Fill) string { return x.Market })
	symbol := f(func(x *state.Fill) string { return x.Symbol })
	side := f(func(x *state.Fill) string { return x.Side })
	price := f(func(x *state.Fill) string { return x.Price })
	qty := f(func(x *state.Fill) string { return x.Qty })
	fee := f(func(x *state.Fill) string { return x.Commission })
	asset := f(func(x *state.Fill) string { return x.CommissionAsset })
	maker := f(func(x *state.Fill) string {
		if x.Maker {
			return "maker"
		}
		return "taker"
	})
	pnl := f(func(x *state.Fill) string { return x.RealizedPnl })
	// A fill's time is on the service's clock; shown on ours (less the
	// measured offset) and in our clock's zone, as the events are, so a
	// fill and the event line that reported it agree when the clocks are
	// skewed. The offset is taken to the second the column shows: its
	// measurement's few milliseconds of noise must not move the seconds.
	when := func(it *item, c *cellCtx) string {
		if it.fill.Time == 0 {
			return ""
		}
		return time.UnixMilli(it.fill.Time).Add(-c.offset.Round(time.Second)).In(c.now.Location()).Format("15:04:05")
	}
	whenKey := func(it *item, c *cellCtx) int64 { return it.fill.Time - c.offset.Round(time.Second).Milliseconds() }
	sidePaint := func(it *item, p *paints) paint {
		switch {
		case strings.HasPrefix(it.fill.Side, "BUY"):
			return p.buy
		case strings.HasPrefix(it.fill.Side, "SELL"):
			return p.sell
		}
		return paint{}
	}
	pnlPaint := func(it *item, p *paints) paint {
		switch {
		case strings.HasPrefix(it.fill.RealizedPnl, "-"):
			return p.bad
		case it.fill.RealizedPnl != "" && !isZeroAmount(it.fill.RealizedPnl):
			return p.good
		}
		return paint{}
	}
	return []column{
		{title: "Time", prio: 1, fixed: 8, text: when, clock: whenKey, cmp: func(a, b *item) int { return int(sign64(a.fill.Time - b.fill.Time)) }},
		{title: "Mkt", prio: 5, max: 8, text: plain(market), cmp: textCmp(market)},
		{title: "Symbol", max: 14, minW: symbolMinW, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Side", max: 10, text: plain(side), cmp: textCmp(side), paint: sidePaint},
		{title: "Price", align: alignDec, text: plain(price), cmp: decCmp(price)},
		{title: "Qty", align: alignDec, money: true, text: plain(qty), cmp: decCmp(qty)},
		{title: "Fee", align: alignDec, money: true, prio: 1, withNext: true, text: plain(fee), cmp: decCmp(fee)},
		{title: "Asset", prio: 1, max: 8, text: plain(asset), cmp: textCmp(asset)},
		{title: "Maker", prio: 2, max: 5, text: plain(maker), cmp: textCmp(maker)},
		{title: "Real. PnL", align: alignDec, money: true, prio: 3, text: plain(pnl), cmp: decCmp(pnl), paint: pnlPaint},
	}
}

// fillItems lists the snapshot's fills (sorted by time, then trade id).
func fillItems(s *state.Snapshot) []item {
	out := make([]item, len(s.Fills))
	for i := range s.Fills {
		out[i] = item{fill: &s.Fills[i]}
	}
	return out
}
