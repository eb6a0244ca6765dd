package ui

import (
	"slices"
	"time"

	"github.com/shopspring/decimal"

	tea "charm.land/bubbletea/v2"

	"bhtop/market"
	"bhtop/upstream"
	"bhtop/value"
)

// marketSource is where the dashboard reads the public market: the quote
// client's hub (nil when there is no market data at all, as with
// --no-market or a replay) and the asset the account is valued in.
type marketSource struct {
	hub     *market.Hub
	valueIn string
	candles CandleLoader // nil: the chart shows the bars the hub has
}

// CandleLoader fetches and then follows a symbol's bars at one interval:
// the market client's LoadCandles. It must not block; the bars appear in
// a later snapshot of the market hub under market.CandleKey.
type CandleLoader interface {
	LoadCandles(symbol, interval string)
}

// SymbolFollower follows one more symbol's market while the order form
// shows it (the market client's Follow; "" stops). It must not block.
type SymbolFollower interface {
	Follow(symbol string)
}

// follower is the market's SymbolFollower, nil when the candle loader is
// not one.
func (ms marketSource) follower() SymbolFollower {
	f, _ := ms.candles.(SymbolFollower)
	return f
}

// followAfter is how long the order form rests on a symbol before the
// market client is asked to follow it: each new symbol costs it a REST
// snapshot, and ←/→ held down passes many.
const followAfter = 300 * time.Millisecond

// followMsg asks to follow symbol if the form still shows it.
type followMsg struct{ symbol string }

// formSymbol is the symbol the open order form shows, "" without one.
func (m *Model) formSymbol() string {
	if f := m.form; f != nil && !f.loading && f.loadErr == "" {
		return f.symbol().Symbol
	}
	return ""
}

// followForm tells the market client the symbol the order form shows
// once it rested there for followAfter ("" at once when the form
// closed), so the form has its live bid, ask and last even when the
// account does not touch it.
func (m Model) followForm(next tea.Model, cmd tea.Cmd) (tea.Model, tea.Cmd) {
	nm, ok := next.(Model)
	if !ok || nm.market.follower() == nil {
		return next, cmd
	}
	switch want := nm.formSymbol(); {
	case want == "":
		nm.followWait = ""
		return nm.follow(""), cmd
	case want == nm.followWait:
		return nm, cmd
	case want == nm.following:
		nm.followWait = "" // back on it before the wait ended
		return nm, cmd
	default:
		nm.followWait = want
		return nm, tea.Batch(cmd, tea.Tick(followAfter, func(time.Time) tea.Msg { return followMsg{want} }))
	}
}

// onFollow follows the symbol the form rested on, if it still shows it.
func (m Model) onFollow(msg followMsg) (tea.Model, tea.Cmd) {
	if msg.symbol != m.followWait || msg.symbol != m.formSymbol() {
		return m, nil
	}
	m.followWait = ""
	return m.follow(msg.symbol), nil
}

// follow asks the market client to follow symbol ("" none) when it
// follows another; the call never blocks.
func (m Model) follow(symbol string) tea.Model {
	if fl := m.market.follower(); fl != nil && symbol != m.following {
		m.following = symbol
		fl.Follow(symbol)
	}
	return m
}

// WithCandles lets the chart ask l for the bars of the interval it shows
// (without it, intervals the hub lacks are merged from shorter bars).
func WithCandles(l CandleLoader) Option {
	return func(m *Model) { m.market.candles = l }
}

// WithMarket gives the dashboard the market hub to value the account
// against, in asset valueIn (DESIGN.md 'Market context'). Without it the
// dashboard shows the account alone.
func WithMarket(h *market.Hub, valueIn string) Option {
	return func(m *Model) {
		if valueIn == "" {
			valueIn = "USDT"
		}
		m.market.hub, m.market.valueIn = h, valueIn
	}
}

// marketMsg says the market hub published something.
type marketMsg struct{}

// listenMarket waits for the next market notice, no earlier than
// notBefore (one render per frame interval, as for the state). Without a
// market hub it waits for nothing.
func (m Model) listenMarket(notBefore time.Time) tea.Cmd {
	if m.mnotice == nil {
		return nil
	}
	inner := listen(m.mnotice, m.ctx.Done(), notBefore)
	return func() tea.Msg {
		if inner() == nil {
			return nil
		}
		return marketMsg{}
	}
}

// onMarket takes the newest market snapshot and re-arms the listener.
func (m Model) onMarket() (tea.Model, tea.Cmd) {
	m.revalue()
	m.rebuild()
	return m, tea.Batch(m.listenMarket(time.Now().Add(m.frame)), m.loadCandles(false))
}

// revalue builds the market view again when the state or the market
// changed since the last one, and remembers the first equity seen.
func (m *Model) revalue() {
	var ms *market.Snapshot
	if m.market.hub != nil {
		ms = m.market.hub.Latest()
	}
	if m.mk != nil && ms == nil && !m.mk.live {
		return // no market at all: the empty view stays
	}
	if m.mk != nil && (ms == nil || ms.Version == m.mk.snap.Version) && m.snap.Version == m.mk.state {
		return
	}
	var seq uint64 = 1
	if m.mk != nil {
		seq = m.mk.seq + 1
	}
	m.mk = newMktView(seq, m.snap, ms, m.market.valueIn, m.market.hub != nil, m.mk)
	if v := m.mk.val; v != nil && m.snap.Version > 0 && len(m.snap.Balances) > 0 &&
		(m.equity0 == nil || !m.equity0.comparable(v)) {
		// The start is the first valuation, taken again whenever an
		// asset it held went from priced to unpriced or back (a quote
		// that came later, or one lost), or a position's mark did: the
		// change is then the market's, not a price's arrival or loss.
		m.equity0 = newEquityStart(v)
	}
	var start *decimal.Decimal
	if m.equity0 != nil {
		start = &m.equity0.equity
	}
	m.eq = equityTexts(m.mk.val, start)
}

// equityStart is the equity the header's change since start is counted
// from, which assets its valuation held (a balance, or a position's PnL)
// and whether each was priced, and which positions it held and whether
// each one's PnL was known (its mark).
type equityStart struct {
	equity decimal.Decimal
	priced map[string]bool
	marked map[positionKey]bool
}

// positionKey names a position across valuations.
type positionKey struct{ account, symbol, side string }

func newEquityStart(v *value.Valuation) *equityStart {
	e := &equityStart{
		equity: v.Equity,
		priced: make(map[string]bool, len(v.Assets)+len(v.Unpriced)),
		marked: make(map[positionKey]bool, len(v.Positions)),
	}
	eachValued(v, func(asset string) { e.priced[asset] = true })
	for _, a := range v.Unpriced {
		e.priced[a] = false
	}
	for i := range v.Positions {
		p := &v.Positions[i]
		e.marked[positionKey{p.AccountID, p.Symbol, p.Side}] = p.Unrealized != nil
	}
	return e
}

// comparable reports whether the change from e to v is the market's (and
// the account's own): no asset held in both went from priced to unpriced
// or back, and no position held in both gained or lost its PnL (its mark
// came or went: the PnL entered or left the equity). An asset or
// position newly held or no longer held does not matter: a trade between
// priced assets and a transfer are real changes of the equity (a buy of
// an unpriced asset reads as a fall, beside the count of unpriced assets:
// its value cannot be counted either way).
func (e *equityStart) comparable(v *value.Valuation) bool {
	same := true
	eachValued(v, func(asset string) {
		if p, held := e.priced[asset]; held && !p {
			same = false
		}
	})
	for _, a := range v.Unpriced {
		if e.priced[a] {
			same = false
		}
	}
	for i := range v.Positions {
		p := &v.Positions[i]
		if known, held := e.marked[positionKey{p.AccountID, p.Symbol, p.Side}]; held && known != (p.Unrealized != nil) {
			same = false
		}
	}
	return same
}

// eachValued calls fn with each asset whose value v's equity counts: a
// priced balance that is not zero, and the asset of a position's PnL
// that is not zero and priced (one not in Unpriced), maybe more than
// once. A PnL of 0 is never listed unpriced, priced or not, and counts
// for nothing either way.
func eachValued(v *value.Valuation, fn func(asset string)) {
	for i := range v.Assets {
		if a := &v.Assets[i]; a.Price != nil && !a.Total.IsZero() {
			fn(a.Asset)
		}
	}
	for i := range v.Positions {
		if p := &v.Positions[i]; p.Unrealized != nil && !p.Unrealized.IsZero() {
			if _, unpriced := slices.BinarySearch(v.Unpriced, p.PnLAsset); !unpriced {
				fn(p.PnLAsset)
			}
		}
	}
}

// equityLine is the header's equity, drawn in Update: the equity in the
// valuation asset and its change since start ("" when unknown).
type equityLine struct {
	equity, change string
	sign, unpriced int
}

func equityTexts(v *value.Valuation, start *decimal.Decimal) equityLine {
	if v == nil {
		return equityLine{}
	}
	e := equityLine{equity: v.Equity.StringFixed(valuePlaces(v.Asset)) + " " + v.Asset, unpriced: len(v.Unpriced)}
	if nothingPriced(v) {
		// A valuation asset nothing is priced in (--value-in XYZ): its
		// 0 would be false.
		e.equity = "— " + v.Asset
		return e
	}
	if start != nil {
		if d, ok := value.DistancePct(*start, v.Equity); ok {
			e.change = pctText(d)
			e.sign = shownSign(e.change)
		}
	}
	return e
}

// nothingPriced reports whether v values none of what it holds: assets
// unpriced and none priced.
func nothingPriced(v *value.Valuation) bool {
	if len(v.Unpriced) == 0 || !v.Equity.IsZero() {
		return false
	}
	for _, a := range v.Assets {
		if a.Price != nil {
			return false
		}
	}
	return true
}

// marketEmpty is what the Market pane says when it has no rows.
func (m *Model) marketEmpty() string {
	switch {
	case !m.mk.live && m.status.State == upstream.StateReplay:
		return "(no market data: a journal holds the user stream only)"
	case !m.mk.live:
		return "(no market data: off, --no-market)"
	case m.mk.snap.Version == 0 && m.mk.snap.Health.Reason != "":
		return "no market data (" + m.mk.snap.Health.Reason + ")"
	case m.mk.snap.Version == 0:
		return "waiting for market data…"
	}
	return "(no symbols watched)"
}

// marketWarning is the header's market part while there is no market
// data (why, or that it is connecting) and its paint; "" otherwise.
func (m *Model) marketWarning() (paint, string) {
	mk := m.mk
	if !mk.live {
		return paint{}, ""
	}
	switch h := mk.snap.Health; {
	case h.Up:
		return paint{}, ""
	case h.Reason != "":
		return m.pt.warn, "no market data (" + h.Reason + ")"
	case mk.snap.Version == 0:
		return m.pt.muted, "market: connecting…"
	}
	return m.pt.warn, "no market data (down)"
}

// marketHeader is the header's market part: the account's equity in the
// valuation asset and its change since the dashboard started, or why
// there is no market data. "" without a market hub.
func (m *Model) marketHeader(short bool) string {
	if p, t := m.marketWarning(); t != "" {
		return p.wrap(t)
	}
	label := "equity "
	if short {
		label = "eq "
	}
	out := m.equityPart(label)
	if out == "" {
		return ""
	}
	e := &m.eq
	if e.change != "" {
		p := m.pt.muted
		switch e.sign {
		case 1:
			p = m.pt.good
		case -1:
			p = m.pt.bad
		}
		out += " " + p.wrap(e.change)
	}
	if e.unpriced > 0 {
		out += m.pt.muted.wrap(" (" + itoa(uint64(e.unpriced)) + " unpriced)")
	}
	return out
}

// equityPart is the equity after label, hidden in privacy mode; "" while
// there is none to show. The short header falls back to it alone (no
// change since start) when it has no room for more.
func (m *Model) equityPart(label string) string {
	if !m.mk.live || m.eq.equity == "" {
		return ""
	}
	eq := m.eq.equity
	if m.privacy {
		eq = hidden + " " + m.mk.val.Asset
	}
	return m.pt.accent.wrap(label + eq)
}
