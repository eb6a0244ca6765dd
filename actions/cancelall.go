package actions

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"bhtop/api"
	"bhtop/rest"
	"bhtop/state"
)

// Target is one open order to cancel.
type Target struct {
	Market        string // state.MarketSpot or state.MarketContract
	Symbol        string
	OrderID       string
	ClientOrderID string
}

// TargetOf is the cancel target of an order row.
func TargetOf(o state.Order) Target {
	return Target{Market: o.Market, Symbol: o.Symbol, OrderID: o.OrderID, ClientOrderID: o.ClientOrderID}
}

// Summary counts what became of a cancel-all. An order that closed
// (filled or was cancelled) before its cancel arrived is AlreadyClosed,
// not Failed; Unknown ones got no definite answer (5XX, timeout).
type Summary struct {
	Total         int      `json:"total"`
	Cancelled     int      `json:"cancelled"`
	AlreadyClosed int      `json:"alreadyClosed"`
	Failed        int      `json:"failed"`
	Unknown       int      `json:"unknown"`
	Errors        []string `json:"errors"` // one line per failed or unknown request, service text sanitized by the caller
}

// Done is how many targets have an outcome.
func (s Summary) Done() int { return s.Cancelled + s.AlreadyClosed + s.Failed + s.Unknown }

// CountBySymbol counts targets per market and symbol, for the review.
func CountBySymbol(ts []Target) map[string]int {
	out := map[string]int{}
	for _, t := range ts {
		out[t.Market+" "+t.Symbol]++
	}
	return out
}

// Canceller cancels many orders: contract ones with one batchCancel per
// symbol, spot ones one DELETE each, each request sent once. The pacing
// is the client's rate governor's: every cancel and batchCancel counts
// toward the ORDER limit (api.CancelOrder.Order; see package api for why).
type Canceller struct {
	Trader *rest.Trader
	// Progress, if set, is called after each request with the summary so
	// far (on the caller's goroutine).
	Progress func(Summary)
}

// closedCodes are the service's answers to a cancel of an order that is
// no longer open (API-FACTS.md errors).
var closedCodes = map[int]bool{api.CodeOrderFilled: true, api.CodeOrderCanceled: true, api.CodeNoSuchOrder: true}

// CancelAll cancels every target and returns the summary. It stops early
// (the rest counted as failed) when ctx ends.
func (c Canceller) CancelAll(ctx context.Context, targets []Target) Summary {
	sum := Summary{Total: len(targets), Errors: []string{}}
	report := func() {
		if c.Progress != nil {
			c.Progress(sum)
		}
	}
	bySymbol := map[string][]Target{}
	var symbols []string
	for _, t := range targets {
		if t.Market != state.MarketContract {
			continue
		}
		if bySymbol[t.Symbol] == nil {
			symbols = append(symbols, t.Symbol)
		}
		bySymbol[t.Symbol] = append(bySymbol[t.Symbol], t)
	}
	slices.Sort(symbols)
	others := c.othersOpen(ctx, bySymbol)
	for _, sym := range symbols {
		if others[sym] { // batchCancel would take orders not asked for
			for _, t := range bySymbol[sym] {
				c.one(ctx, t, &sum)
				report()
			}
			continue
		}
		c.batch(ctx, sym, bySymbol[sym], &sum)
		report()
	}
	for _, t := range targets {
		if t.Market == state.MarketContract {
			continue
		}
		if ctx.Err() != nil {
			sum.Failed++
			continue
		}
		c.one(ctx, t, &sum)
		report()
	}
	if ctx.Err() != nil {
		sum.Errors = append(sum.Errors, "stopped: "+ctx.Err().Error())
	}
	return sum
}

// one cancels one order with its own request.
func (c Canceller) one(ctx context.Context, t Target, sum *Summary) {
	res := c.Trader.Cancel(ctx, rest.CancelRequest{Symbol: t.Symbol, OrderID: t.OrderID, ClientOrderID: t.ClientOrderID,
		Contract: t.Market == state.MarketContract})
	switch {
	case res.Outcome == rest.OutcomeAccepted:
		sum.Cancelled++
	case res.Outcome == rest.OutcomeRejected && closedCodes[res.Code]:
		sum.AlreadyClosed++
	case res.Outcome == rest.OutcomeUnknown:
		sum.Unknown++
		sum.Errors = append(sum.Errors, fmt.Sprintf("%s %s %s: outcome unknown: %s", t.Market, t.Symbol, t.OrderID, res.Msg))
	default:
		sum.Failed++
		sum.Errors = append(sum.Errors, fmt.Sprintf("%s %s %s: %s", t.Market, t.Symbol, t.OrderID, res.Msg))
	}
}

// othersOpen tells the symbols with open contract orders that are not
// targets (a filtered selection): those are cancelled one by one. When
// the open orders cannot be listed, every symbol is.
func (c Canceller) othersOpen(ctx context.Context, bySymbol map[string][]Target) map[string]bool {
	out := map[string]bool{}
	if len(bySymbol) == 0 {
		return out
	}
	open, err := c.Trader.Client().ContractOpenOrders(ctx, 1000)
	if err != nil || len(open) >= 1000 {
		for sym := range bySymbol {
			out[sym] = true
		}
		return out
	}
	want := map[string]bool{}
	for _, ts := range bySymbol {
		for _, t := range ts {
			want[t.OrderID] = true
		}
	}
	for _, r := range open {
		if !want[r.OrderID] && bySymbol[r.Symbol] != nil {
			out[r.Symbol] = true
		}
	}
	return out
}

// batch cancels one symbol's contract orders with one batchCancel, then
// tells cancelled from already closed by the orders' final state (closed
// contract orders of the symbol), and counts those still open as failed.
func (c Canceller) batch(ctx context.Context, sym string, ts []Target, sum *Summary) {
	res := c.Trader.BatchCancel(ctx, sym)
	switch res.Outcome {
	case rest.OutcomeRejected:
		sum.Failed += len(ts)
		sum.Errors = append(sum.Errors, fmt.Sprintf("contract %s: batchCancel: %s", sym, res.Msg))
		return
	case rest.OutcomeUnknown:
		sum.Unknown += len(ts)
		sum.Errors = append(sum.Errors, fmt.Sprintf("contract %s: batchCancel: outcome unknown: %s", sym, res.Msg))
		return
	}
	status, err := c.finalStatus(ctx, sym)
	if err != nil { // accepted: count them cancelled, the check failed
		sum.Cancelled += len(ts)
		sum.Errors = append(sum.Errors, fmt.Sprintf("contract %s: cancelled, final states not checked: %v", sym, err))
		return
	}
	for _, t := range ts {
		switch st, ok := status[t.OrderID]; {
		case ok && api.Open(st):
			sum.Failed++
			sum.Errors = append(sum.Errors, fmt.Sprintf("contract %s %s: still open after batchCancel", sym, t.OrderID))
		case ok && st != api.StatusCanceled:
			sum.AlreadyClosed++
		default:
			sum.Cancelled++
		}
	}
}

// finalStatus maps the orderId of each of the symbol's contract orders,
// open and recently closed, to its status.
func (c Canceller) finalStatus(ctx context.Context, sym string) (map[string]string, error) {
	cl := c.Trader.Client()
	open, err1 := cl.ContractOpenOrders(ctx, 1000)
	hist, err2 := cl.ContractHistoryOrders(ctx, sym, 1000)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, r := range hist {
		out[r.OrderID] = r.Status
	}
	for _, r := range open {
		if r.Symbol == sym {
			out[r.OrderID] = r.Status
		}
	}
	return out, nil
}
