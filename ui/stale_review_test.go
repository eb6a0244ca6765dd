package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"bhtop/upstream"
)

// TestReviewsSayTheAccountMayBeStale: while the stream reconnects, the
// panes say "may be stale" but a review drawn over them hid that: every
// review that sends or cancels (an order, a position's close, a cancel,
// a cancel-all) now says so itself; when live, none does.
func TestReviewsSayTheAccountMayBeStale(t *testing.T) {
	for _, tc := range []struct{ name, keys string }{
		{"close", "3 x"},
		{"cancel", "2 down down down x"},
		{"cancel-all", "2 X"},
		{"order", "n down down down down type:0.01 down type:60000 enter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			st := liveStatus()
			st.State, st.Reason = upstream.StateReconnecting, "connection lost"
			b.setStatus(st)
			m := press(t, sized(New(b, &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 120, 40), tc.keys)
			if m.confirm == nil {
				t.Fatalf("no review open after %q", tc.keys)
			}
			out := ansi.Strip(m.View().Content)
			if !strings.Contains(out, "⚠ the account may be stale (reconnecting): check before y") {
				t.Errorf("the review does not say the account may be stale:\n%s", out)
			}
			b.setStatus(liveStatus())
			m = press(t, m, "") // nothing pressed: a tick would refresh
			m.refresh()
			if out := ansi.Strip(m.View().Content); strings.Contains(out, "check before y") {
				t.Errorf("live, the review still warns:\n%s", out)
			}
		})
	}
}
