package ui

import (
	"testing"
	"time"

	"bhtop/stream"
)

// TestHeaderShowsWhyNotLive: a session whose socket is open but whose
// REST snapshot failed is resyncing, and the header says why and when it
// tries again (it must not read "● live").
func TestHeaderShowsWhyNotLive(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 160, 48)
	st := liveStatus()
	st.State, st.RetryAt, st.NeedsAction = stream.StateResyncing, t0.Add(30*time.Second), true
	st.Reason = "no snapshot: signature not valid (-1022): check BHTOP_SECRET_KEY"
	b.setStatus(st)
	b.hub.Publish(testSnapshot())
	waitText(t, tm, "resyncing in 30s (no snapshot: signature not valid (-1022): check BHTOP_SECRET_KEY)")
	finish(t, tm)
}
