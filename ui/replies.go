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
	m.symbols = msg.symbols
	f.setSymbols(msg.symbols)
	return m
}

// onPlaced shows the outcome of an order.
func (m Model) onPlaced(msg placedMsg) Model {
	if msg.id != m.reqID {
		return m
	}
	m.busy = false
	r := msg.res
	switch r.Outcome {
	case rest.OutcomeAccepted:
		m.metrics.count("orders_accepted")
		m.setMsg(msgGood, "order accepted: "+orderSummary(&msg.req)+" (id "+r.OrderID+")")
	case rest.OutcomeRejected:
		m.metrics.count("orders_rejected")
		m.setMsg(msgBad, "order rejected: "+reason(r))
	default:
		m.metrics.count("orders_unknown")
		m.setMsg(msgWarn, "order outcome UNKNOWN ("+reason(r)+"): shown as UNKNOWN until reconciled by client id "+r.ClientOrderID)
	}
	return m
}

// onCanceled shows the outcome of a cancel.
func (m Model) onCanceled(msg canceledMsg) Model {
	if msg.id != m.reqID {
		return m
	}
	m.busy = false
	r := msg.res
	switch r.Outcome {
	case rest.OutcomeAccepted:
		m.setMsg(msgGood, "cancel accepted: order "+msg.req.OrderID)
	case rest.OutcomeRejected:
		m.setMsg(msgBad, "cancel rejected: "+reason(r))
	default:
		m.setMsg(msgWarn, "cancel outcome UNKNOWN ("+reason(r)+")")
	}
	return m
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
