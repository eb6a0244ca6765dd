package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/upstream"
)

// startModel is a dashboard at 160×48 on a backend in state st, with a
// start wait no test outlasts.
func startModel(t *testing.T, st upstream.Status) (Model, *testBackend) {
	t.Helper()
	b := newTestBackend(testSnapshot())
	b.setStatus(st)
	m := New(b, nil, WithNow(fixedNow), WithStartWait(time.Hour))
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	return mm.(Model), b
}

// TestStartWaitDrawsTheLiveAccountFirst: while the account connects and
// takes its snapshot the dashboard draws nothing and takes state notices
// at once; the notice that it is live draws it, and from then on notices
// are a frame apart.
func TestStartWaitDrawsTheLiveAccountFirst(t *testing.T) {
	for _, st := range []upstream.ConnState{upstream.StateConnecting, upstream.StateResyncing} {
		m, b := startModel(t, upstream.Status{State: st})
		if c := m.View().Content; c != "" {
			t.Fatalf("%s: the start wait drew %q, want nothing", st, firstLine(c))
		}
		if at := m.nextNotice(); !at.IsZero() {
			t.Errorf("%s: the next notice is taken at %v, want at once", st, at)
		}
		b.setStatus(liveStatus())
		mm, _ := m.Update(hubMsg{at: time.Now()})
		m = mm.(Model)
		if c := m.View().Content; !strings.Contains(c, "● live") || !strings.Contains(c, "ETHBTC") {
			t.Fatalf("%s: live, the dashboard draws %q, want the live account", st, firstLine(c))
		}
		if at := m.nextNotice(); at.IsZero() {
			t.Errorf("%s: live, the next notice is taken at once, want a frame later", st)
		}
	}
}

// TestStartWaitEnds: a slow service is shown connecting once the wait is
// over, and a failure to connect at once.
func TestStartWaitEnds(t *testing.T) {
	m, _ := startModel(t, upstream.Status{State: upstream.StateConnecting})
	mm, _ := m.Update(startWaitMsg{})
	if c := mm.View().Content; !strings.Contains(c, "connecting") {
		t.Errorf("after the start wait the dashboard draws %q, want it connecting", firstLine(c))
	}
	m, _ = startModel(t, upstream.Status{State: upstream.StateConnecting, Reason: "connection refused"})
	if c := m.View().Content; !strings.Contains(c, "connection refused") {
		t.Errorf("a failed connect draws %q, want the reason at once", firstLine(c))
	}
	m, _ = startModel(t, upstream.Status{State: upstream.StateReconnecting, Reason: "connection lost"})
	if c := m.View().Content; !strings.Contains(c, "reconnecting") {
		t.Errorf("a reconnecting account draws %q, want it at once", firstLine(c))
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// TestStartWaitHoldsKeys: keys typed while nothing is drawn yet act on
// the first frame drawn, not on the state before it: X typed while the
// account connects (no orders known yet) reviews the orders the live
// account shows; q still quits at once.
func TestStartWaitHoldsKeys(t *testing.T) {
	b := newTestBackend(nil)
	b.setStatus(upstream.Status{State: upstream.StateConnecting})
	m := New(b, &testTrader{}, WithNow(fixedNow), WithNoColor(true), WithStartWait(time.Hour))
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m = press(t, mm.(Model), "2 X")
	if c := m.View().Content; c != "" {
		t.Fatalf("the start wait drew %q, want nothing", firstLine(c))
	}
	b.setStatus(liveStatus())
	b.hub.Publish(testSnapshot())
	mm, _ = m.Update(hubMsg{at: time.Now()})
	m = mm.(Model)
	c := ansi.Strip(m.View().Content)
	if !strings.Contains(c, "CANCEL 4 OPEN ORDERS?") {
		t.Errorf("X typed before the first frame, then live: the screen is\n%s\nwant the cancel-all review of the orders shown", c)
	}

	m, _ = startModel(t, upstream.Status{State: upstream.StateConnecting})
	if _, cmd := m.Update(keyMsg("q")); cmd == nil || cmd() != tea.Quit() {
		t.Errorf("q in the start wait does not quit at once")
	}
}

// TestStartWaitHeldKeysNeverAnswerAReview: a review opened by a held key
// waits for a key typed once it is drawn; the held keys after it (y)
// never confirm an order or a cancel the user has not seen.
func TestStartWaitHeldKeysNeverAnswerAReview(t *testing.T) {
	b := newTestBackend(nil)
	b.setStatus(upstream.Status{State: upstream.StateConnecting})
	tr := &testTrader{}
	m := New(b, tr, WithNow(fixedNow), WithNoColor(true), WithStartWait(time.Hour))
	mm, _ := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	m = press(t, mm.(Model), "2 X y")
	b.setStatus(liveStatus())
	b.hub.Publish(testSnapshot())
	mm, _ = m.Update(hubMsg{at: time.Now()})
	m = mm.(Model)
	if m.cancelRun != nil {
		t.Errorf("X y typed before the first frame started a cancel-all of orders never shown")
	}
	if c := ansi.Strip(m.View().Content); !strings.Contains(c, "CANCEL 4 OPEN ORDERS?") {
		t.Errorf("X y typed before the first frame: the screen is\n%s\nwant the cancel-all review still asking", c)
	}
}
