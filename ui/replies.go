package ui

import (
	"errors"
	"strconv"
	"strings"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// onSymbols fills the form with brokerInfo's symbols.
func (m Model) onSymbols(msg symbolsMsg) Model {
	if msg.id != m.reqID || m.form == nil {
		return m
	}
	f := *m.form
	m.form = &f
	if msg.err != nil {
		f.loading = false
		f.loadErr = "could not load symbols: " + msg.err.Error()
		return m
	}
	m.symbols, m.contracts = msg.symbols, msg.contracts
	m.contractsErr = ""
	switch {
	case msg.cerr != nil:
		m.contractsErr = "could not load contracts: " + msg.cerr.Error()
	case len(msg.contracts) == 0:
		m.contractsErr = "the service lists no contracts"
	}
	f.setSymbols(m.symbols, m.contracts, m.contractsErr)
	return m
}

// onPlaced shows the outcome of an order.
func (m Model) onPlaced(msg placedMsg) Model {
	r := msg.res
	if m.settle(msg.id, r, "order", msg.what+" (id "+r.OrderID+")",
		": shown as UNKNOWN until reconciled by client id "+r.ClientOrderID) {
		m.metrics.count("orders_" + outcomeName(r.Outcome))
		m.unknown = unknownOrder{}
		if outcomeName(r.Outcome) == string(rest.OutcomeUnknown) && r.ClientOrderID != "" {
			m.unknown = unknownOrder{cid: r.ClientOrderID, msg: m.msg}
		}
	}
	return m
}

// unknownOrder is an order sent whose outcome was UNKNOWN (a 5XX or a
// timeout), and the message that said so.
type unknownOrder struct{ cid, msg string }

// reconcileUnknown replaces the message line's "order outcome UNKNOWN"
// once the account shows what became of that order: found (its status
// and id) or not placed (why). Left as it was while still unknown, and
// forgotten once the message line says something else.
func (m *Model) reconcileUnknown() {
	u := m.unknown
	if u.cid == "" {
		return
	}
	if m.msg != u.msg {
		m.unknown = unknownOrder{}
		return
	}
	for _, p := range m.snap.Pending {
		if p.ClientOrderID != u.cid {
			continue
		}
		if p.Status == state.PendingNotPlaced {
			m.setMsg(msgBad, "order "+u.cid+" (UNKNOWN) was not placed: "+p.Reason)
			m.unknown = unknownOrder{}
		}
		return // still pending or unknown
	}
	for _, o := range m.snap.Orders.All() {
		if o.ClientOrderID == u.cid {
			m.setMsg(msgGood, "order "+u.cid+" (UNKNOWN) found: "+o.Status+", id "+o.OrderID)
			m.unknown = unknownOrder{}
			return
		}
	}
}

// onCanceled shows the outcome of a cancel.
func (m Model) onCanceled(msg canceledMsg) Model {
	m.settle(msg.id, msg.res, "cancel", "order "+msg.req.OrderID, "")
	return m
}

// settle takes the reply to the order request in flight (false for any
// other id): the request is no longer busy, and the message line says
// what became of it (what: the subject of the request), good when
// accepted, bad when rejected, a warning when unknown (with the note).
func (m *Model) settle(id int, r rest.OrderResult, what, accepted, unknownNote string) bool {
	if id != m.reqID {
		return false
	}
	m.busy = false
	switch r.Outcome {
	case rest.OutcomeAccepted:
		m.setMsg(msgGood, what+" accepted: "+accepted)
	case rest.OutcomeRejected:
		m.setMsg(msgBad, what+" rejected: "+reason(r))
	default:
		m.setMsg(msgWarn, what+" outcome UNKNOWN ("+reason(r)+")"+unknownNote)
	}
	return true
}

// outcomeName is o for the metrics: accepted, rejected or unknown.
func outcomeName(o rest.Outcome) string {
	if o == rest.OutcomeAccepted || o == rest.OutcomeRejected {
		return string(o)
	}
	return string(rest.OutcomeUnknown)
}

// reason says why a request failed, from the service's answer.
func reason(r rest.OrderResult) string {
	var parts []string
	if r.Code != 0 {
		parts = append(parts, "code "+strconv.Itoa(r.Code))
	}
	if r.Msg != "" {
		parts = append(parts, r.Msg)
	}
	if r.HTTPStatus != 0 {
		parts = append(parts, "HTTP "+strconv.Itoa(r.HTTPStatus))
	}
	if len(parts) == 0 {
		return "no answer"
	}
	return strings.Join(parts, ", ")
}

func (m Model) onKeepalive(msg keepaliveMsg) Model {
	m.upkeys.done(msg.b, opKeepalive)
	switch {
	case errors.Is(msg.err, upstream.ErrNotAnswered): // (an SSH viewer's shared call goes on)
		m.setMsg(msgWarn, "keepalive "+msg.err.Error())
		return m
	case msg.err != nil:
		m.setMsg(msgBad, "keepalive failed: "+msg.err.Error())
		return m
	}
	// The service's answer ({}) gives no expiry, and the validity it
	// extends the key by is its own (60 min in SPEC.md; the simulator's
	// --listen-key-ttl): the expiry the backend assumes is not shown.
	m.setMsg(msgGood, "keepalive accepted at "+m.nowFn().Format("15:04:05")+": the service extended the listenKey")
	return m
}

func (m Model) onResync(msg resyncMsg) Model {
	m.upkeys.done(msg.b, opResync)
	switch {
	case errors.Is(msg.err, upstream.ErrNotAnswered):
		// Not answered in time (waiting for the host's turn, say): the
		// error says what it waits for, and whether it goes on.
		m.setMsg(msgWarn, "resync "+msg.err.Error())
		return m
	case msg.err != nil:
		m.setMsg(msgBad, "resync failed: "+msg.err.Error())
		return m
	}
	m.setMsg(msgGood, "resynced from REST snapshots")
	return m
}
