package ui

import (
	"strings"
	"time"

	"bhtop/state"
	"bhtop/upstream"
)

// paneID names the four panes, in focus order (keys 1–4).
type paneID int

const (
	paneBalances paneID = iota
	paneOrders
	panePositions
	paneEvents
	numPanes
)

// paneTitles are the panes' names as shown (stable text: tests and the
// end-to-end check look for them).
var paneTitles = [numPanes]string{"Balances", "Open Orders", "Positions", "Events"}

const historyTitle = "Order History"

func textCmp(f func(it *item) string) func(a, b *item) int {
	return func(a, b *item) int { return strings.Compare(f(a), f(b)) }
}

func decCmp(f func(it *item) string) func(a, b *item) int {
	return func(a, b *item) int { return compareDec(f(a), f(b)) }
}

func plain(f func(it *item) string) func(it *item, _ time.Time) string {
	return func(it *item, _ time.Time) string { return f(it) }
}

func balanceColumns() []column {
	asset := func(it *item) string { return it.bal.Asset }
	free := func(it *item) string { return it.bal.Free }
	locked := func(it *item) string { return it.bal.Locked }
	total := func(it *item) string { return it.total }
	return []column{
		{title: "Asset", max: 12, text: plain(asset), cmp: textCmp(asset)},
		{title: "Free", align: alignDec, money: true, text: plain(free), cmp: decCmp(free)},
		{title: "Locked", align: alignDec, money: true, prio: 1, text: plain(locked), cmp: decCmp(locked)},
		{title: "Total", align: alignDec, money: true, text: plain(total), cmp: decCmp(total)},
	}
}

// orderField reads one field of an order row; pending rows have only
// some of them.
func orderField(f func(o *state.Order) string, pf func(p *state.Pending) string) func(it *item) string {
	return func(it *item) string {
		if it.ord != nil {
			return f(it.ord)
		}
		if it.pend != nil && pf != nil {
			return pf(it.pend)
		}
		return ""
	}
}

func orderColumns() []column {
	market := orderField(func(o *state.Order) string { return o.Market }, func(*state.Pending) string { return "spot" })
	symbol := orderField(func(o *state.Order) string { return o.Symbol }, func(p *state.Pending) string { return p.Symbol })
	side := orderField(func(o *state.Order) string { return o.Side }, func(p *state.Pending) string { return p.Side })
	typ := orderField(func(o *state.Order) string { return o.Type }, nil)
	tif := orderField(func(o *state.Order) string { return o.TimeInForce }, nil)
	price := orderField(func(o *state.Order) string { return o.Price }, nil)
	qty := orderField(func(o *state.Order) string { return o.Quantity }, nil)
	filled := orderField(func(o *state.Order) string { return o.ExecutedQty }, nil)
	avg := orderField(func(o *state.Order) string {
		if o.AvgPrice == nil {
			return ""
		}
		return *o.AvgPrice
	}, nil)
	status := orderField(func(o *state.Order) string { return o.Status }, func(p *state.Pending) string {
		if p.Reason != "" {
			return p.Status + " " + p.Reason
		}
		return p.Status
	})
	working := orderField(func(o *state.Order) string {
		if o.Working {
			return "✓"
		}
		return ""
	}, nil)
	id := orderField(func(o *state.Order) string { return o.OrderID }, func(p *state.Pending) string { return p.ClientOrderID })
	created := func(it *item) int64 {
		if it.ord != nil {
			return it.ord.Created
		}
		if it.pend != nil {
			return it.pend.Since
		}
		return 0
	}
	age := func(it *item, now time.Time) string {
		ms := created(it)
		if ms == 0 || now.IsZero() {
			return ""
		}
		return compactAge(now.Sub(time.UnixMilli(ms)))
	}
	pct := func(it *item, _ time.Time) string {
		if it.ord == nil {
			return ""
		}
		if p := fillPct(it.ord.ExecutedQty, it.ord.Quantity); p != "" {
			return p + "%"
		}
		return ""
	}
	sidePaint := func(it *item, p *paints) paint {
		switch side(it) {
		case "BUY", "BUY_OPEN", "BUY_CLOSE":
			return p.buy
		case "SELL", "SELL_OPEN", "SELL_CLOSE":
			return p.sell
		}
		return paint{}
	}
	return []column{
		{title: "Mkt", prio: 5, max: 8, text: plain(market), cmp: textCmp(market)},
		{title: "Symbol", max: 14, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Side", max: 10, text: plain(side), cmp: textCmp(side), paint: sidePaint},
		{title: "Type", prio: 3, max: 11, text: plain(typ), cmp: textCmp(typ)},
		{title: "TIF", prio: 4, max: 4, text: plain(tif)},
		{title: "Price", align: alignDec, text: plain(price), cmp: decCmp(price)},
		{title: "Qty", align: alignDec, money: true, text: plain(qty), cmp: decCmp(qty)},
		{title: "Filled", align: alignDec, money: true, prio: 1, text: plain(filled), cmp: decCmp(filled)},
		{title: "Fill%", align: alignRight, prio: 2, fixed: 6, text: pct},
		{title: "Avg Price", align: alignDec, prio: 3, text: plain(avg), cmp: decCmp(avg)},
		{title: "Status", max: 24, text: plain(status), cmp: textCmp(status)},
		{title: "W", prio: 5, fixed: 1, text: plain(working)},
		{title: "Age", align: alignRight, prio: 1, fixed: 4, text: age, cmp: func(a, b *item) int {
			return int(sign64(created(b) - created(a))) // newest first reads as "youngest"
		}},
		{title: "Order ID", prio: 6, max: 24, text: plain(id), cmp: textCmp(id)},
	}
}

func sign64(x int64) int64 {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func positionColumns() []column {
	f := func(g func(p *state.Position) string) func(it *item) string {
		return func(it *item) string { return g(it.pos) }
	}
	symbol := f(func(p *state.Position) string { return p.Symbol })
	side := f(func(p *state.Position) string { return p.Side })
	avg := f(func(p *state.Position) string { return p.AvgPrice })
	total := f(func(p *state.Position) string { return p.Total })
	avail := f(func(p *state.Position) string { return p.Available })
	liq := f(func(p *state.Position) string { return p.LiquidationPrice })
	margin := f(func(p *state.Position) string { return p.Margin })
	pnl := f(func(p *state.Position) string { return p.RealizedPnl })
	pnlPaint := func(it *item, p *paints) paint {
		if strings.HasPrefix(it.pos.RealizedPnl, "-") {
			return p.bad
		}
		return paint{}
	}
	return []column{
		{title: "Symbol", max: 16, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Side", max: 6, text: plain(side), cmp: textCmp(side)},
		{title: "Avg Price", align: alignDec, text: plain(avg), cmp: decCmp(avg)},
		{title: "Total", align: alignDec, money: true, text: plain(total), cmp: decCmp(total)},
		{title: "Avail", align: alignDec, money: true, prio: 2, text: plain(avail), cmp: decCmp(avail)},
		{title: "Liq. Price", align: alignDec, prio: 1, text: plain(liq), cmp: decCmp(liq)},
		{title: "Margin", align: alignDec, money: true, prio: 3, text: plain(margin), cmp: decCmp(margin)},
		{title: "Real. PnL", align: alignDec, money: true, prio: 1, text: plain(pnl), cmp: decCmp(pnl), paint: pnlPaint},
	}
}

func positionPaint(it *item, p *paints) paint {
	switch it.pos.Side {
	case "LONG", "BUY":
		return p.buy
	case "SHORT", "SELL":
		return p.sell
	}
	return paint{}
}

func orderRowPaint(it *item, p *paints) paint {
	if it.pend == nil {
		return paint{}
	}
	if it.pend.Status == state.PendingSent {
		return p.pending
	}
	return p.unknown
}

func eventColumns() []column {
	kind := func(it *item) string { return string(it.note.Kind) }
	return []column{
		{title: "Time", fixed: 8, text: func(it *item, _ time.Time) string { return it.note.Time.Format("15:04:05") }},
		{title: "Kind", max: 9, text: plain(kind), cmp: textCmp(kind), paint: func(it *item, p *paints) paint {
			switch it.note.Kind {
			case upstream.NoteFill:
				return p.good
			case upstream.NoteError:
				return p.bad
			case upstream.NoteConnect, upstream.NoteResync:
				return p.warn
			case upstream.NoteOrder:
				return p.accent
			}
			return p.muted
		}},
		{title: "Event", flex: true, mask: true, text: func(it *item, _ time.Time) string { return it.note.Text }},
	}
}

func newPanes() [numPanes]pane {
	var ps [numPanes]pane
	ps[paneBalances] = newPane(paneBalances, balanceColumns())
	ps[paneOrders] = newPane(paneOrders, orderColumns())
	ps[paneOrders].rowPaint = orderRowPaint
	ps[panePositions] = newPane(panePositions, positionColumns())
	ps[panePositions].rowPaint = positionPaint
	ps[paneEvents] = newPane(paneEvents, eventColumns())
	ps[paneEvents].follow = true
	return ps
}
