package ui

import (
	"testing"
	"time"

	"bhtop/upstream"
)

// TestHeaderShowsWhyNotLive: a session whose socket is open but whose
// REST snapshot failed is resyncing, and the header says why and when it
// tries again (it must not read "● live").
func TestHeaderShowsWhyNotLive(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 160, 48)
	st := liveStatus()
	st.State, st.RetryAt, st.NeedsAction = upstream.StateResyncing, t0.Add(30*time.Second), true
	st.Reason = "no snapshot: signature not valid (-1022): check BHTOP_SECRET_KEY"
	b.setStatus(st)
	b.hub.Publish(testSnapshot())
	waitText(t, tm, "resyncing in 30s (no snapshot: signature not valid (-1022): check BHTOP_SECRET_KEY)")
	finish(t, tm)
}

// TestHeaderShowsWhyConnecting (issue 15 item 5): while the session tries
// again after the upstream went silent, "connecting" says why, the panes
// are marked stale and the error count shows.
func TestHeaderShowsWhyConnecting(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 160, 48)
	st := liveStatus()
	st.State, st.Errors = upstream.StateConnecting, 2
	st.Reason = "no answer from the service for 30s"
	b.setStatus(st)
	b.hub.Publish(testSnapshot())
	waitText(t, tm, "connecting (no answer from the service for 30s)", "may be stale", "errors 2")
	finish(t, tm)
}
