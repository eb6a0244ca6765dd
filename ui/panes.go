package ui

import (
	"strings"
	"time"

	"bhtop/state"
	"bhtop/upstream"
)

// paneID names the panes, in focus order (keys 1–6).
type paneID int

const (
	paneBalances paneID = iota
	paneOrders
	panePositions
	paneEvents
	paneMarket
	paneFills
	numPanes
)

// paneTitles are the panes' names as shown (stable text: tests and the
// end-to-end check look for them).
var paneTitles = [numPanes]string{"Balances", "Open Orders", "Positions", "Events", "Market", "Fills"}

const historyTitle = "Order History"

func textCmp(f func(it *item) string) func(a, b *item) int {
	return func(a, b *item) int { return strings.Compare(f(a), f(b)) }
}

func decCmp(f func(it *item) string) func(a, b *item) int {
	return func(a, b *item) int { return compareDec(f(a), f(b)) }
}

// mktDecCmp orders rows by a market column's decimal text (a signed
// "+1.25" or a percentage "+1.25%" too).
func mktDecCmp(f func(it *item, c *cellCtx) string) func(a, b *item, c *cellCtx) int {
	return func(a, b *item, c *cellCtx) int { return compareDec(numText(f(a, c)), numText(f(b, c))) }
}

// pctCmp orders rows by a signed percentage's text.
func pctCmp(f func(it *item) string) func(a, b *item) int {
	return func(a, b *item) int { return compareDec(numText(f(a)), numText(f(b))) }
}

// nearPaint colours a shown percentage whose size is below warnBelow
// (and, when badBelow > 0, below badBelow) in %: how close an order is to
// filling, a position to liquidation.
func nearPaint(badBelow, warnBelow string) func(s string, p *paints) paint {
	return func(s string, p *paints) paint {
		abs := strings.TrimPrefix(numText(s), "-")
		switch {
		case abs == "":
			return paint{}
		case badBelow != "" && compareDec(abs, badBelow) < 0:
			return p.bad
		case compareDec(abs, warnBelow) < 0:
			return p.warn
		}
		return paint{}
	}
}

// numText is a shown number without its plus sign and percent sign.
func numText(s string) string {
	s = strings.TrimSuffix(s, "%")
	return strings.TrimPrefix(s, "+")
}

// fieldOf adapts readers of one row type's fields into item readers, for
// the panes whose rows are all of one type (row picks it from the item).
func fieldOf[T any](row func(it *item) *T) func(g func(*T) string) func(it *item) string {
	return func(g func(*T) string) func(it *item) string {
		return func(it *item) string { return g(row(it)) }
	}
}

// bySign is the paint of a signed figure: good above zero, bad below.
func (p *paints) bySign(sign int) paint {
	switch {
	case sign > 0:
		return p.good
	case sign < 0:
		return p.bad
	}
	return paint{}
}

func plain(f func(it *item) string) func(it *item, _ *cellCtx) string {
	return func(it *item, _ *cellCtx) string { return f(it) }
}

func balanceColumns() []column {
	asset := func(it *item) string { return it.bal.Asset }
	free := func(it *item) string { return it.bal.Free }
	locked := func(it *item) string { return it.bal.Locked }
	total := func(it *item) string { return it.total }
	cells := func(f func(c assetCells) string) func(it *item, c *cellCtx) string {
		return func(it *item, c *cellCtx) string { return f(c.mk.assets[it.bal.Asset]) }
	}
	price := cells(func(c assetCells) string { return c.price })
	val := cells(func(c assetCells) string { return c.value })
	share := cells(func(c assetCells) string { return c.share })
	return []column{
		{title: "Asset", max: 12, text: plain(asset), cmp: textCmp(asset)},
		{title: "Free", align: alignDec, money: true, prio: 1, text: plain(free), cmp: decCmp(free)},
		{title: "Locked", align: alignDec, money: true, prio: 2, text: plain(locked), cmp: decCmp(locked)},
		{title: "Total", align: alignDec, money: true, text: plain(total), cmp: decCmp(total)},
		{mkt: true, title: "Price", align: alignDec, prio: 3, text: price, mcmp: mktDecCmp(price)},
		{mkt: true, title: "Value", align: alignDec, money: true, text: val, mcmp: mktDecCmp(val)},
		{mkt: true, title: "Share", align: alignRight, prio: 1, fixed: 6, text: share, mcmp: mktDecCmp(val)},
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

// pendingMarket is the market a pending order was sent to: a contract
// order has a contract side (BUY_OPEN … SELL_CLOSE), a spot one BUY or
// SELL.
func pendingMarket(p *state.Pending) string {
	if strings.Contains(p.Side, "_") {
		return state.MarketContract
	}
	return state.MarketSpot
}

// noLast is the Last of a closed order whose symbol the market data does
// not follow (any more): it has no price, as the title says (unfollowed).
const noLast = "—"

// orderLast is an order row's last price: its symbol's quote; for a
// closed order whose symbol has none while market data flows, noLast
// (the market data follows the symbols the account touches, and a closed
// order touches none; blank would read as a price still loading).
func orderLast(it *item, mk *mktView) string {
	sym := ""
	if it.ord != nil {
		sym = it.ord.Symbol
	} else if it.pend != nil {
		sym = it.pend.Symbol
	}
	q, ok := mk.snap.Quotes[sym]
	if !ok && it.ord != nil && !it.ord.Open() && mk.snap.Health.Up {
		return noLast
	}
	return q.Last
}

// unfollowedNote is the closed orders' title note when a row shown has no
// last price (noLast), saying why; rows are the ones shown.
func unfollowedNote(rows []item, mk *mktView) string {
	for i := range rows {
		if orderLast(&rows[i], mk) == noLast {
			return "Last " + noLast + ": its symbol is not followed now (no price)"
		}
	}
	return ""
}

// orderSide is the side an order was sent with: a contract order's is
// kept as BUY or SELL with its close flag (as the user stream reports
// it), shown as BUY_OPEN, SELL_CLOSE, … since a SELL alone does not say
// whether it opens a short or closes a long.
func orderSide(o *state.Order) string {
	if o.Market != state.MarketContract || o.Close == nil || strings.Contains(o.Side, "_") {
		return o.Side
	}
	if *o.Close {
		return o.Side + "_CLOSE"
	}
	return o.Side + "_OPEN"
}

func orderColumns() []column {
	market := orderField(func(o *state.Order) string { return o.Market }, pendingMarket)
	symbol := orderField(func(o *state.Order) string { return o.Symbol }, func(p *state.Pending) string { return p.Symbol })
	side := orderField(orderSide, func(p *state.Pending) string { return p.Side })
	// A pending row shows the terms it was sent with: what is in flight.
	typ := orderField(func(o *state.Order) string { return o.Type }, func(p *state.Pending) string { return p.Type })
	tif := orderField(func(o *state.Order) string { return o.TimeInForce }, func(p *state.Pending) string { return p.TimeInForce })
	price := orderField(func(o *state.Order) string { return o.Price }, func(p *state.Pending) string { return p.Price })
	qty := orderField(func(o *state.Order) string { return o.Quantity }, func(p *state.Pending) string { return p.Quantity })
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
	// since is how long ago it was created: an order's time is on the
	// service's clock, a pending row's on ours.
	since := func(it *item, c *cellCtx) (time.Duration, bool) {
		ms := created(it)
		if ms == 0 || c.now.IsZero() {
			return 0, false
		}
		now := c.now
		if it.ord != nil {
			now = now.Add(c.offset)
		}
		return now.Sub(time.UnixMilli(ms)), true
	}
	age := func(it *item, c *cellCtx) string {
		d, ok := since(it, c)
		if !ok {
			return ""
		}
		return compactAge(d)
	}
	ageClock := func(it *item, c *cellCtx) int64 {
		d, ok := since(it, c)
		if !ok {
			return -1
		}
		return ageKey(d)
	}
	pct := func(it *item, _ *cellCtx) string {
		if it.ord == nil {
			return ""
		}
		if p := fillPct(it.ord.ExecutedQty, it.ord.Quantity); p != "" {
			return p + "%"
		}
		return ""
	}
	last := func(it *item, c *cellCtx) string { return orderLast(it, c.mk) }
	dist := func(it *item, c *cellCtx) string {
		if it.ord == nil || !it.ord.Open() {
			return "" // a closed order fills no more
		}
		return c.mk.orderDistance(it.ord.Symbol, it.ord.Price)
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
		{title: "Symbol", max: 14, minW: symbolMinW, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Side", max: 10, text: plain(side), cmp: textCmp(side), paint: sidePaint},
		{title: "Type", prio: 3, max: 11, text: plain(typ), cmp: textCmp(typ)},
		{title: "TIF", prio: 4, max: 4, text: plain(tif)},
		{title: "Price", align: alignDec, text: plain(price), cmp: decCmp(price)},
		{mkt: true, title: "Last", align: alignDec, prio: 2, text: last, mcmp: mktDecCmp(last)},
		{mkt: true, open: true, title: "To Fill", align: alignRight, prio: 1, fixed: 8, memo: true, text: dist, textPaint: nearPaint("", "0.5")},
		{title: "Qty", align: alignDec, money: true, text: plain(qty), cmp: decCmp(qty)},
		{title: "Filled", align: alignDec, money: true, prio: 1, text: plain(filled), cmp: decCmp(filled)},
		{title: "Fill%", align: alignRight, prio: 2, fixed: 6, memo: true, text: pct},
		{title: "Avg Price", align: alignDec, prio: 3, text: plain(avg), cmp: decCmp(avg)},
		{title: "Status", max: 24, text: plain(status), cmp: textCmp(status)},
		{title: "W", open: true, prio: 5, fixed: 1, text: plain(working)},
		{title: "Age", align: alignRight, prio: 1, fixed: 4, text: age, clock: ageClock, cmp: func(a, b *item) int {
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
	f := fieldOf(func(it *item) *state.Position { return it.pos })
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
	cells := func(f func(c *posCells) string) func(it *item, c *cellCtx) string {
		return func(it *item, c *cellCtx) string {
			if it.idx < 0 || it.idx >= len(c.mk.pos) {
				return ""
			}
			return f(&c.mk.pos[it.idx])
		}
	}
	mark := cells(func(c *posCells) string { return c.mark })
	index := cells(func(c *posCells) string { return c.index })
	upnl := cells(func(c *posCells) string { return c.pnl })
	upct := cells(func(c *posCells) string { return c.pnlPct })
	liqPct := cells(func(c *posCells) string { return c.liqPct })
	// The unrealized PnL is coloured by its sign in the row's side colour's
	// place: winning green, losing red, whatever the side.
	upnlPaint := func(it *item, p *paints) paint { return p.bySign(int(it.upnlSign)) }
	return []column{
		{title: "Symbol", max: 16, minW: symbolMinW, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Side", max: 6, text: plain(side), cmp: textCmp(side)},
		{title: "Avg Price", align: alignDec, prio: 1, text: plain(avg), cmp: decCmp(avg)},
		{mkt: true, title: "Mark", align: alignDec, prio: 1, lead: true, text: mark, mcmp: mktDecCmp(mark)}, // gives way to the uPnL only
		{mkt: true, title: "Index", align: alignDec, prio: 4, text: index},
		{title: "Total", align: alignDec, money: true, text: plain(total), cmp: decCmp(total)},
		{title: "Avail", align: alignDec, money: true, prio: 3, text: plain(avail), cmp: decCmp(avail)},
		{mkt: true, title: "uPnL", align: alignDec, money: true, text: upnl, mcmp: mktDecCmp(upnl), paint: upnlPaint, paintOver: true},
		{mkt: true, title: "uPnL%", align: alignRight, prio: 1, fixed: 8, text: upct, mcmp: mktDecCmp(upct), paint: upnlPaint, paintOver: true},
		{title: "Liq. Price", align: alignDec, prio: 2, text: plain(liq), cmp: decCmp(liq)},
		{mkt: true, title: "To Liq", align: alignRight, prio: 1, fixed: 8, text: liqPct, mcmp: mktDecCmp(liqPct), textPaint: nearPaint("10", "25"), paintOver: true},
		{title: "Margin", align: alignDec, money: true, prio: 4, text: plain(margin), cmp: decCmp(margin)},
		{title: "Real. PnL", align: alignDec, money: true, prio: 3, text: plain(pnl), cmp: decCmp(pnl), paint: pnlPaint},
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
		{title: "Time", fixed: 8, text: func(it *item, _ *cellCtx) string { return it.note.Time.Format("15:04:05") }},
		{title: "Kind", max: 9, text: plain(kind), cmp: textCmp(kind), paint: func(it *item, p *paints) paint {
			switch it.note.Kind {
			case upstream.NoteFill:
				return p.good
			case upstream.NoteError, upstream.NoteAlert:
				return p.bad
			case upstream.NoteConnect, upstream.NoteResync:
				return p.warn
			case upstream.NoteOrder:
				return p.accent
			}
			return p.muted
		}},
		{title: "Event", flex: true, mask: true, text: func(it *item, _ *cellCtx) string { return it.note.Text }},
	}
}

func marketColumns() []column {
	f := fieldOf(func(it *item) *mktRow { return it.mrow })
	symbol := f(func(r *mktRow) string { return r.symbol })
	last := f(func(r *mktRow) string { return r.last })
	change := f(func(r *mktRow) string { return r.change })
	bid := f(func(r *mktRow) string { return r.bid })
	ask := f(func(r *mktRow) string { return r.ask })
	spread := f(func(r *mktRow) string { return r.spread })
	volume := f(func(r *mktRow) string { return r.volume })
	spark := f(func(r *mktRow) string { return r.spark })
	dir := func(it *item, p *paints) paint { return p.bySign(it.mrow.sign) }
	return []column{
		{title: "Symbol", max: 16, minW: symbolMinW, text: plain(symbol), cmp: textCmp(symbol)},
		{title: "Last", align: alignDec, text: plain(last), cmp: decCmp(last), paint: dir},
		{title: "24h %", align: alignRight, fixed: 8, text: plain(change), cmp: pctCmp(change), paint: dir},
		{title: "Bid", align: alignDec, prio: 2, withNext: true, text: plain(bid), cmp: decCmp(bid)},
		{title: "Ask", align: alignDec, prio: 2, text: plain(ask), cmp: decCmp(ask)},
		{title: "Spread", align: alignDec, prio: 4, text: plain(spread), cmp: decCmp(spread)},
		{title: "Volume 24h", align: alignDec, prio: 3, text: plain(volume), cmp: decCmp(volume)},
		{title: "Trend", fixed: sparkWidth, prio: 1, text: plain(spark), paint: dir},
	}
}

func newPanes() [numPanes]pane {
	var ps [numPanes]pane
	ps[paneBalances] = newPane(paneBalances, balanceColumns())
	ps[paneBalances].cellsFrom = cellsAssets
	ps[paneOrders] = newPane(paneOrders, orderColumns())
	ps[paneOrders].rowPaint = orderRowPaint
	ps[paneOrders].cellsFrom = cellsQuotes // Last and To Fill
	ps[panePositions] = newPane(panePositions, positionColumns())
	ps[panePositions].cellsFrom = cellsPos
	ps[panePositions].rowPaint = positionPaint
	ps[paneEvents] = newPane(paneEvents, eventColumns())
	ps[paneEvents].follow, ps[paneEvents].wrap = true, true
	ps[paneMarket] = newPane(paneMarket, marketColumns())
	ps[paneMarket].cellsFrom = cellsQuotes // its rows are the market snapshot's
	ps[paneFills] = newPane(paneFills, fillColumns())
	ps[paneFills].follow = true
	for _, id := range []paneID{paneBalances, paneOrders, panePositions, paneMarket} {
		ps[id].usesMarket = true
	}
	ps[panePositions].itemsUseMarket = true // the PnL's sign colours the cell
	ps[paneMarket].itemsUseMarket = true
	return ps
}
