package ui

import (
	"strings"

	"bhtop/rest"
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
	if msg.id != m.reqID {
		return m
	}
	m.busy = false
	r := msg.res
	m.metrics.count("orders_" + outcomeName(r.Outcome))
	m.showOutcome(r.Outcome, "order accepted: "+msg.what+" (id "+r.OrderID+")",
		"order rejected: "+reason(r),
		"order outcome UNKNOWN ("+reason(r)+"): shown as UNKNOWN until reconciled by client id "+r.ClientOrderID)
	return m
}

// onCanceled shows the outcome of a cancel.
func (m Model) onCanceled(msg canceledMsg) Model {
	if msg.id != m.reqID {
		return m
	}
	m.busy = false
	r := msg.res
	m.showOutcome(r.Outcome, "cancel accepted: order "+msg.req.OrderID, "cancel rejected: "+reason(r),
		"cancel outcome UNKNOWN ("+reason(r)+")")
	return m
}

// showOutcome says an order request's outcome on the message line: good
// when accepted, bad when rejected, a warning when unknown.
func (m *Model) showOutcome(o rest.Outcome, accepted, rejected, unknown string) {
	switch o {
	case rest.OutcomeAccepted:
		m.setMsg(msgGood, accepted)
	case rest.OutcomeRejected:
		m.setMsg(msgBad, rejected)
	default:
		m.setMsg(msgWarn, unknown)
	}
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
		parts = append(parts, "code "+itoaInt(r.Code))
	}
	if r.Msg != "" {
		parts = append(parts, r.Msg)
	}
	if r.HTTPStatus != 0 {
		parts = append(parts, "HTTP "+itoaInt(r.HTTPStatus))
	}
	if len(parts) == 0 {
		return "no answer"
	}
	return strings.Join(parts, ", ")
}

func itoaInt(n int) string {
	if n < 0 {
		return "-" + itoa(uint64(-n))
	}
	return itoa(uint64(n))
}

func (m Model) onKeepalive(msg keepaliveMsg) Model {
	if msg.err != nil {
		m.setMsg(msgBad, "keepalive failed: "+msg.err.Error())
		return m
	}
	m.setMsg(msgGood, "keepalive sent; listenKey now expires "+msg.expires.Format("15:04:05"))
	return m
}

func (m Model) onResync(msg resyncMsg) Model {
	if msg.err != nil {
		m.setMsg(msgBad, "resync failed: "+msg.err.Error())
		return m
	}
	m.setMsg(msgGood, "resynced from REST snapshots")
	return m
}
