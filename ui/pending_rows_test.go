package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"bhtop/state"
)

// TestPendingRowsShowTerms: the orders this process sent whose outcome is
// not known (PENDING, UNKNOWN) or that were not placed show what was sent
// (type, time in force, quantity, price), and the Open Orders count counts only what may
// be open: a NOT_PLACED row is listed (with why) but not counted.
func TestPendingRowsShowTerms(t *testing.T) {
	snap := testSnapshot()
	snap.Pending = []state.Pending{
		{ClientOrderID: "bh-1", Symbol: "ETHUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "IOC", Quantity: "0.75", Price: "2050.5",
			Status: state.PendingSent, Since: fixedNow().Add(-time.Second).UnixMilli()},
		{ClientOrderID: "bh-2", Symbol: "BTCUSDT", Side: "SELL", Type: "MARKET", Quantity: "0.125",
			Status: state.PendingUnknown, Since: fixedNow().Add(-4 * time.Second).UnixMilli(), Reason: "HTTP 504"},
		{ClientOrderID: "bh-3", Symbol: "ETH-PERP", Side: "BUY_OPEN", Type: "LIMIT", Quantity: "7", Price: "OPPONENT",
			Status: state.PendingNotPlaced, Since: fixedNow().Add(-9 * time.Second).UnixMilli(), Reason: "-2013 Order does not exist."},
	}
	open := 0
	for _, o := range snap.Orders.All() {
		if o.Open() {
			open++
		}
	}
	for _, sz := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := press(t, sized(New(newTestBackend(snap), &testTrader{}, WithNow(fixedNow)), sz[0], sz[1]), "2")
			out := plainGolden(t, m, sz[0], sz[1])
			for _, want := range []string{"0.75", "2050.5", "IOC", "MARKET", "0.125", "OPPONENT", "NOT_PLACED"} {
				if sz[0] >= 160 && !strings.Contains(out, want) {
					t.Errorf("the Open Orders rows miss %q:\n%s", want, out)
				}
			}
			title := "Open Orders (" + fmt.Sprint(open+2) + ")"
			if !strings.Contains(out, title) {
				t.Errorf("want the title %q (open orders and the 2 in flight; not the one not placed):\n%s", title, out)
			}
			if !strings.Contains(out, "1 not placed") {
				t.Errorf("the title does not say 1 not placed:\n%s", out)
			}
		})
	}
}

// TestCancelPendingRowSaysWhy: x on a row this process sent says why it
// cannot be cancelled by its state: one not placed has nothing to cancel
// (it will never get an order id), one in flight or unknown has no order
// id yet.
func TestCancelPendingRowSaysWhy(t *testing.T) {
	for _, tc := range []struct{ status, want string }{
		{state.PendingNotPlaced, "was not placed: nothing to cancel"},
		{state.PendingUnknown, "no order id yet"},
		{state.PendingSent, "no order id yet"},
	} {
		t.Run(tc.status, func(t *testing.T) {
			snap := testSnapshot()
			snap.Orders = state.NewOrderRows()
			snap.Pending = []state.Pending{{ClientOrderID: "bh-1", Symbol: "ETHUSDT", Side: "BUY", Type: "LIMIT",
				Quantity: "1", Price: "2000", Status: tc.status, Since: fixedNow().Add(-time.Second).UnixMilli()}}
			m := press(t, sized(New(newTestBackend(snap), &testTrader{}, WithNow(fixedNow)), 120, 30), "2 x")
			if m.confirm != nil || !strings.Contains(m.msg, tc.want) {
				t.Errorf("x on a %s row: review %v, message %q; want no review and %q", tc.status, m.confirm != nil, m.msg, tc.want)
			}
		})
	}
}
