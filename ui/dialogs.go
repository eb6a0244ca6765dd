package ui

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
)

// confirmation is a pending yes/no question. Only `y` answers yes; every
// other key answers no (the closing review's quantity takes digits too).
// Exactly one of place, contract, closing, cancel and cancelAll is set.
type confirmation struct {
	place     *rest.OrderRequest
	notional  string
	quote     string
	contract  *rest.ContractOrderRequest
	review    actions.Review
	closing   *closeReview
	cancel    *rest.CancelRequest
	summary   string // the order being canceled, as a person reads it
	cancelAll cancelAllReview
	keys      confirmKeys
	answer    answer // what the last key said
}

// confirmKeys are a question's keys: yes, and the closing review's erase.
type confirmKeys struct {
	Yes, Erase key.Binding
}

// answer is what a key said to a question.
type answer int

const (
	answerNone answer = iota // nothing yet: the closing review's quantity was edited
	answerYes
	answerNo
)

// ask opens the question c, answered with the dashboard's keys.
func (m *Model) ask(c confirmation) {
	c.keys = confirmKeys{Yes: m.keys.Yes, Erase: m.keys.Erase}
	m.confirm = &c
}

// Update answers the question: yes on `y`; on the closing review digits,
// point and backspace edit the quantity; any other key is no.
func (c confirmation) Update(msg tea.Msg) (confirmation, tea.Cmd) {
	c.answer = answerNone
	return keysOnly(c, msg, confirmation.onKey)
}

func (c confirmation) onKey(k tea.KeyPressMsg) confirmation {
	if key.Matches(k, c.keys.Yes) {
		c.answer = answerYes
		return c
	}
	if c.closing != nil {
		cl := *c.closing // copy: the question is a value
		if cl.edit(k, c.keys.Erase) {
			c.closing = &cl
			return c
		}
	}
	c.answer = answerNo
	return c
}

// sends reports whether the question is about sending an order (else
// about cancelling).
func (c *confirmation) sends() bool { return c.place != nil || c.contract != nil || c.closing != nil }

// View is the question's box: what would be sent or canceled (the
// closing and cancel-all reviews have their own), and how to answer. It
// uses the theme's loudest style so it cannot be mistaken for the form
// behind it.
func (c confirmation) View(cx modeCtx) string {
	var body string
	switch {
	case c.closing != nil:
		body = c.closing.View(cx.privacy)
	case c.cancelAll != nil:
		body = c.cancelAll.View(max(1, cx.bodyH-8))
	default:
		body = c.question(cx)
	}
	if cx.stale != "" {
		// The panes' "may be stale" is behind the box: say it here.
		body = "⚠ the account may be stale (" + cx.stale + "): check before y\n" + body
	}
	var lines []boxLine
	for l := range strings.SplitSeq(body, "\n") {
		lines = append(lines, reviewLine(l))
	}
	return cx.boxedLines(cx.st.Confirm, lines)
}

// The reviews' answer lines and hints, and what they become on a
// narrow or low screen (reviewLine).
const (
	answerSend       = "y = yes, send    any other key = no"
	answerCancel     = "y = yes, cancel them    any other key = no"
	closeHint        = "type to change the quantity"
	answerSendShort  = "y = send · any other key = no"
	answerCancelShrt = "y = cancel them · other key = no"
)

// reviewLine is a line of a review as it gives way on a small screen:
// an answer line too wide for the box takes its short form (never
// wrapped onto two lines), and the closing review's hint goes first
// when the box is too tall.
func reviewLine(l string) boxLine {
	switch {
	case l == answerSend:
		return boxLine{s: l, short: answerSendShort}
	case l == answerCancel:
		return boxLine{s: l, short: answerCancelShrt}
	case l == closeHint:
		return boxLine{s: l, drop: 1}
	}
	return boxLine{s: l}
}

// question asks to send an order (with its notional, margin and any
// warning against the live quote) or to cancel one.
func (c *confirmation) question(cx modeCtx) string {
	var lines []string
	switch {
	case c.place != nil:
		r := c.place
		lines = append(lines, "SEND THIS ORDER?", "")
		lines = append(lines, orderSummary(r))
		if c.notional != "" {
			lines = append(lines, "notional "+c.notional+" "+c.quote)
		} else {
			lines = append(lines, marketEstimate(cx, r, c.quote)...)
		}
		lines = append(lines, reviewWarning(cx, r.Symbol, r.Price, r.Side, r.Type)...)
	case c.contract != nil:
		lines = append(lines, "SEND THIS CONTRACT ORDER?", "", contractSummary(c.contract))
		lines = append(lines, contractReviewLines(c.review, c.contract, cx.snap, cx.privacy)...)
		side, typ := contractCross(*c.contract)
		lines = append(lines, reviewWarning(cx, c.contract.Symbol, c.contract.Price, side, typ)...)
		if w := stopWarning(side, c.contract, cx.mk.snap.Quotes[c.contract.Symbol].Last); w != "" {
			lines = append(lines, "⚠ "+w)
		}
	case c.cancel != nil:
		lines = append(lines, "CANCEL THIS ORDER?", "", c.summary)
	}
	if c.cancel == nil && cx.quotesStale() {
		// The estimate and the warnings above read the last quotes.
		lines = append(lines, quotesStaleNote)
	}
	lines = append(lines, "", answerSend)
	return strings.Join(lines, "\n")
}

// reviewWarning is the review's line warning that a limit order at
// price would execute at once against the live quote (none when it
// rests, or when the price is not typed).
func reviewWarning(cx modeCtx, symbol, price, side, typ string) []string {
	p, ok := dec(price)
	if !ok {
		return nil
	}
	q := cx.mk.snap.Quotes[symbol]
	if w := crossWarning(side, typ, p, q.Bid, q.Ask); w != "" {
		return []string{"⚠ " + w}
	}
	return nil
}

// marketEstimate is a MARKET order's review lines: about what it costs
// at the live ask (a BUY) or brings at the bid (a SELL), and, for a BUY,
// a warning when that is above the free quote balance (masked in privacy
// mode). The fill may go beyond the best price; without a quote the
// notional is not known.
func marketEstimate(cx modeCtx, r *rest.OrderRequest, quote string) []string {
	q := cx.mk.snap.Quotes[r.Symbol]
	ref, at := q.Ask, "ask"
	if r.Side == "SELL" {
		ref, at = q.Bid, "bid"
	}
	p, ok := dec(ref)
	qty, err := decimal.NewFromString(r.Quantity)
	if !ok || err != nil {
		return []string{"notional: at the market price (not known here)"}
	}
	n := p.Mul(qty).String()
	lines := []string{"notional ≈ " + n + " " + quote + " at the " + at + " " + ref}
	if r.Side == "BUY" && cx.snap != nil {
		if free := freeOf(cx.snap, quote); free.LessThan(p.Mul(qty)) {
			shown := free.String()
			if cx.privacy {
				shown = hidden
			}
			lines = append(lines, "⚠ needs about "+n+" "+quote+", free "+shown)
		}
	}
	return lines
}

// orderSummary is one line saying what an order request does.
func orderSummary(r *rest.OrderRequest) string {
	return r.Side + " " + r.Quantity + " " + r.Symbol + " " + r.Type + part(" ", r.TimeInForce, "") + part(" @ ", r.Price, "")
}

// part is v between before and after, or "" when v is: an optional part
// of a summary.
func part(before, v, after string) string {
	if v == "" {
		return ""
	}
	return before + v + after
}

// boolIndex is 1 for true, 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// contractSummary is one line saying what a contract order does.
func contractSummary(r *rest.ContractOrderRequest) string {
	return r.Side + " " + r.Quantity + " " + r.Symbol + " " + r.OrderType + " " + r.PriceType +
		part(" ", r.TimeInForce, "") + part(" @ ", r.Price, "") + part(" over ", r.OverPrice, "") +
		part(" trigger ", r.TriggerPrice, "") + part(" ", r.Leverage, "x")
}

// onConfirmKey: `y` sends exactly one request; anything else backs out
// and says nothing was sent. The confirmation is gone before the request
// leaves, so a second `y` finds nothing to confirm.
func (m Model) onConfirmKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	seen := m.questionSeen()
	c, _ := m.confirm.Update(msg)
	m.confirm = nil
	if c.answer == answerNone { // the closing review's quantity was edited
		m.confirm = &c
		return m, nil
	}
	if c.answer == answerYes && !seen {
		// No key answers a question the user has not seen: the
		// screen is too small to show it (its answer line cut off).
		m.confirm = m.confirmWas(c)
		m.setMsg(msgWarn, "the window is too small to show the review: enlarge it, then y")
		return m, nil
	}
	if c.answer != answerYes || m.t == nil || m.busy {
		if c.sends() {
			m.setMsg(msgWarn, "not sent")
		} else {
			m.setMsg(msgWarn, "not cancelled")
		}
		return m, nil
	}
	if c.closing != nil {
		cl := *c.closing // copy: the question is a value
		req, err := m.closeNow(&cl)
		if err != nil { // nothing sent: the review stays, saying why
			c.closing, c.answer = &cl, answerNone
			m.confirm = &c
			return m, nil
		}
		c.contract = &req
	}
	if c.cancel != nil {
		if why := m.cancelMoot(c.cancel); why != "" { // nothing to cancel: nothing sent
			m.setMsg(msgWarn, why)
			return m, nil
		}
	}
	m.reqID++
	m.busy = true
	switch {
	case c.cancelAll != nil:
		m.metrics.count("cancels_sent")
		m.cancelRun = newCancelRun(m.keys, m.reqID, len(c.cancelAll))
		m.setMsg(msgInfo, "cancelling "+strconv.Itoa(len(c.cancelAll))+" open orders …")
		return m, m.cancelAllCmd(m.reqID, c.cancelAll)
	case c.contract != nil:
		return m.sending(contractSummary(c.contract), m.contractPlaceCmd(m.reqID, *c.contract))
	case c.place != nil:
		return m.sending(orderSummary(c.place), m.placeCmd(m.reqID, *c.place))
	}
	m.metrics.count("cancels_sent")
	m.setMsg(msgInfo, "canceling "+c.summary+" …")
	return m, m.cancelCmd(m.reqID, *c.cancel)
}

// confirmWas is the question c as it stood before the key that answered
// it.
func (m *Model) confirmWas(c confirmation) *confirmation {
	c.answer = answerNone
	return &c
}

// questionSeen reports whether the screen shows the open question whole
// down to its answer line: not on a screen too small to draw, nor when
// the box is taller than everything below the header (its bottom
// border alone may be cut).
func (m *Model) questionSeen() bool {
	if m.lay.tiny || m.lay.w == 0 {
		return false
	}
	room := m.lay.h - m.lay.body.y
	box, ok := m.dialog(room)
	return !ok || lipgloss.Height(box)-1 <= room
}

// cancelMoot says why a reviewed cancel is not to be sent: the order
// closed (filled, cancelled, …) while the review was open, as the
// snapshot shown says. "" when it is still open or not known here.
func (m *Model) cancelMoot(req *rest.CancelRequest) string {
	market := state.MarketSpot
	if req.Contract {
		market = state.MarketContract
	}
	o, _ := m.snap.Orders.Find(market, req.OrderID)
	if o == nil || o.Open() {
		return ""
	}
	return "order " + req.OrderID + " is no longer open (" + o.Status + "): no cancel sent"
}

// sending closes the form and says the order (what, as a person reads
// it) is on its way with send.
func (m Model) sending(what string, send tea.Cmd) (tea.Model, tea.Cmd) {
	m.form = nil
	m.metrics.count("orders_sent")
	m.setMsg(msgInfo, "sending "+what+" …")
	return m, send
}
