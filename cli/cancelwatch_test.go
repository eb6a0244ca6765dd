package cli

import (
	"context"
	"strings"
	"testing"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/ui"
)

// answeringTrader answers every cancel with outcome, and a cancel-all
// with sum.
type answeringTrader struct {
	ui.Trader
	outcome rest.Outcome
	sum     actions.Summary
}

func (a answeringTrader) CancelOrder(context.Context, rest.CancelRequest) rest.OrderResult {
	return rest.OrderResult{Outcome: a.outcome, Msg: "HTTP 504"}
}

func (a answeringTrader) CancelAll(context.Context, []actions.Target, func(actions.Summary)) actions.Summary {
	return a.sum
}

// TestCancelWatchUnsettled: a cancel answered is forgotten; one whose
// answer was lost, or a cancel-all that lost some, names its orders still
// open, and none that closed since.
func TestCancelWatchUnsettled(t *testing.T) {
	open := func(id, price string) *state.Order {
		return &state.Order{Market: state.MarketSpot, Symbol: "XRPUSDT", OrderID: id, ClientOrderID: "c" + id, Side: "SELL",
			Type: "LIMIT", Price: price, Quantity: "7", ExecutedQty: "0", Status: "NEW", Working: true}
	}
	closed := open("3", "9.7")
	closed.Status, closed.Working = "CANCELED", false
	s := &state.Snapshot{Orders: state.NewOrderRows(open("1", "9.5"), open("2", "9.6"), closed)}
	target := func(id string) actions.Target {
		return actions.Target{Market: state.MarketSpot, Symbol: "XRPUSDT", OrderID: id}
	}
	for _, tc := range []struct {
		name string
		tr   answeringTrader
		all  bool
		want []string // each a line's start; nil: no line
	}{
		{"answered", answeringTrader{outcome: rest.OutcomeAccepted}, false, nil},
		{"rejected", answeringTrader{outcome: rest.OutcomeRejected}, false, nil},
		{"lost", answeringTrader{outcome: rest.OutcomeUnknown}, false, []string{
			"cancel of order SELL 7 XRPUSDT LIMIT @ 9.5 (order 1, client order id c1) sent, its answer lost (HTTP 504) at exit: its outcome is unknown"}},
		{"all answered", answeringTrader{sum: actions.Summary{Total: 3, Cancelled: 3}}, true, nil},
		{"all lost some", answeringTrader{sum: actions.Summary{Total: 3, Cancelled: 1, Unknown: 2}}, true, []string{
			"cancel of order SELL 7 XRPUSDT LIMIT @ 9.5 (order 1, client order id c1) in a cancel-all that lost 2 of 3 answers at exit",
			"cancel of order SELL 7 XRPUSDT LIMIT @ 9.6 (order 2, client order id c2) in a cancel-all that lost 2 of 3 answers at exit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &cancelWatch{Trader: tc.tr}
			if tc.all {
				w.CancelAll(context.Background(), []actions.Target{target("1"), target("2"), target("3")}, nil)
			} else {
				w.CancelOrder(context.Background(), rest.CancelRequest{Symbol: "XRPUSDT", OrderID: "1"})
			}
			got := w.unsettled(s)
			if len(got) != len(tc.want) {
				t.Fatalf("unsettled %q, want %d lines starting %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("line %d %q, want it to start %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}
