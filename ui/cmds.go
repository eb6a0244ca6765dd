package ui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/rest"
)

// Messages from the outside world and from the dashboard's own commands.
// Replies to a request carry the request's id, and the model ignores a
// reply whose id is not the one it waits for.

type (
	// hubMsg says the Hub published something; at is when the notice was
	// received (for the latency figures).
	hubMsg struct{ at time.Time }
	// tickMsg is the 1 s clock for ages and timers.
	tickMsg struct{}
	// symbolsMsg answers Backend.Symbols.
	symbolsMsg struct {
		id        int
		symbols   []rest.Symbol
		err       error
		contracts []rest.ContractSymbol
		cerr      error // the contracts could not be listed
	}
	// placedMsg answers Trader.PlaceOrder and PlaceContractOrder; what
	// says the order as a person reads it.
	placedMsg struct {
		id   int
		what string
		res  rest.OrderResult
	}
	// canceledMsg answers Trader.CancelOrder.
	canceledMsg struct {
		id  int
		req rest.CancelRequest
		res rest.OrderResult
	}
	// keepaliveMsg answers Backend.Keepalive of b.
	keepaliveMsg struct {
		b   Backend
		err error
	}
	// resyncMsg answers Backend.Resync of b.
	resyncMsg struct {
		b   Backend
		err error
	}
)

// requestTimeout bounds every request the dashboard makes.
const requestTimeout = 30 * time.Second

// listen waits for the next Hub notice. Notices arriving before notBefore
// wait for it, so a burst of events costs one render per frame interval,
// not one per event; an isolated event is shown at once.
func listen(notice <-chan struct{}, done <-chan struct{}, notBefore time.Time) tea.Cmd {
	return func() tea.Msg {
		select {
		case <-notice:
		case <-done:
			return nil
		}
		at := time.Now()
		if d := notBefore.Sub(at); d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-done:
				return nil
			}
		}
		return hubMsg{at: at}
	}
}

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// request makes a command that runs do off the update loop, with the
// dashboard's context bounded by requestTimeout, and returns its reply.
func (m Model) request(do func(ctx context.Context) tea.Msg) tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, requestTimeout)
		defer cancel()
		return do(ctx)
	}
}

func (m Model) symbolsCmd(id int) tea.Cmd {
	b, t := m.b, m.t
	return m.request(func(ctx context.Context) tea.Msg {
		syms, err := b.Symbols(ctx)
		msg := symbolsMsg{id: id, symbols: syms, err: err}
		if err == nil && t != nil {
			msg.contracts, msg.cerr = t.Contracts(ctx)
		}
		return msg
	})
}

func (m Model) placeCmd(id int, req rest.OrderRequest) tea.Cmd {
	t := m.t
	return m.request(func(ctx context.Context) tea.Msg {
		return placedMsg{id: id, what: orderSummary(&req), res: t.PlaceOrder(ctx, req)}
	})
}

func (m Model) cancelCmd(id int, req rest.CancelRequest) tea.Cmd {
	t := m.t
	return m.request(func(ctx context.Context) tea.Msg {
		return canceledMsg{id: id, req: req, res: t.CancelOrder(ctx, req)}
	})
}

func (m Model) keepaliveCmd() tea.Cmd {
	b := m.b
	return m.request(func(ctx context.Context) tea.Msg {
		_, err := b.Keepalive(ctx) // its expiry is assumed, not the service's: not shown
		return keepaliveMsg{b: b, err: err}
	})
}

func (m Model) resyncCmd() tea.Cmd {
	b := m.b
	return m.request(func(ctx context.Context) tea.Msg { return resyncMsg{b: b, err: b.Resync(ctx)} })
}
