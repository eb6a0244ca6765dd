package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

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

// TestHeaderShowsLiveRotating: while a rotation waits for request weight
// the old connection still folds events: the header says live, and that
// it is rotating and waits, and the panes are not marked stale.
func TestHeaderShowsLiveRotating(t *testing.T) {
	b := newTestBackend(testSnapshot())
	tm := startProgram(t, b, &testTrader{}, 160, 48)
	st := liveStatus()
	st.Reason = "rotating, waiting for request weight until 09:30:40 UTC"
	b.setStatus(st)
	b.hub.Publish(testSnapshot())
	waitText(t, tm, "● live (rotating, waiting for request weight until 09:30:40 UTC)")
	m := finish(t, tm)
	if m.stale() {
		t.Error("panes marked stale while live and rotating")
	}
}

// TestHeaderMustShowAt80: at 80 columns, with an account name and
// READ-ONLY, the header gives up the equity, the title and then the
// account name before any item DESIGN.md says it always shows (state,
// SIMULATED or the host, listenKey age and keepalive, connection age
// against its limit, READ-ONLY); a host too long for them all is cut.
func TestHeaderMustShowAt80(t *testing.T) {
	for _, tc := range []struct {
		name string
		host string
		want []string
	}{
		{"account-read-only", "", []string{"bot1", "SIMULATED", "READ-ONLY", "● live", "key 12m00s ka in 18m00s", "conn 1h02m/24h"}},
		// Every item fits only with the host cut short (the last resort).
		{"long-host", "api.exchange-gateway.example.com", []string{"api.exchange-gateway.ex…", "READ-ONLY", "● live", "key 12m00s ka in 18m00s", "conn 1h02m/24h"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			accts := twoAccounts()
			st := liveStatus()
			if tc.host != "" {
				st.Simulated, st.Host = false, tc.host
			}
			accts[1].Backend.(*testBackend).setStatus(st)
			m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 80, 24)
			m = press(t, m, "a") // bot1: no Trader, read-only
			out := plainGolden(t, m, 80, 24)
			header, _, _ := strings.Cut(out, "\n")
			for _, w := range tc.want {
				if !strings.Contains(header, w) {
					t.Errorf("header %q lacks %q", header, w)
				}
			}
		})
	}
}

// TestHeaderMustShowNarrow: below 80 columns the header takes two lines,
// so that every item it must show is still whole at 60×20 (and as much
// as fits at 40×15): the badges, the state, the listenKey and
// connection ages; the privacy badge too.
func TestHeaderMustShowNarrow(t *testing.T) {
	want := []string{"bot1", "SIMULATED", "READ-ONLY", "● live", "key 12m00s ka in 18m00s", "conn 1h02m/24h", "PRIVATE"}
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			accts := twoAccounts()
			accts[1].Backend.(*testBackend).setStatus(liveStatus())
			m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1])
			m = press(t, m, "a p") // bot1: no Trader, read-only; privacy on
			out := plainGolden(t, m, sz[0], sz[1])
			lines := strings.SplitN(out, "\n", 3)
			header := lines[0]
			if sz[0] < 80 {
				header += "\n" + lines[1]
			}
			for _, w := range want {
				if !strings.Contains(header, w) {
					t.Errorf("header %q lacks %q", header, w)
				}
			}
		})
	}
}

// TestHeaderSaysReplayEnded: a replay's header read "▶ replay" after the
// journal had ended, as if events were still coming. Once the replay's
// status carries why it is over it says "■ replay ended" (or "✕ replay
// stopped" and why, when reading the journal failed).
func TestHeaderSaysReplayEnded(t *testing.T) {
	for _, tc := range []struct {
		name, reason, want, not string
	}{
		{"playing", "", "▶ replay", "ended"},
		{"ended", upstream.ReplayEnded, "■ replay ended", "▶"},
		{"stopped", "read journal: unexpected EOF", "✕ replay stopped (read journal: unexpected EOF)", "▶"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			b.setStatus(upstream.Status{State: upstream.StateReplay, Host: "journal day.jsonl", ReadOnly: true, Reason: tc.reason})
			m := sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), 100, 24)
			out := plainGolden(t, m, 100, 24)
			header, _, _ := strings.Cut(out, "\n")
			if !strings.Contains(header, tc.want) || strings.Contains(header, tc.not) {
				t.Errorf("header %q: want %q, not %q", header, tc.want, tc.not)
			}
		})
	}
}

// TestHeaderKeepsAccountOneLine (QA): on a screen under 12 lines the
// header is one line, too narrow at 40 columns for the listenKey and
// connection ages whatever else gives way. The account name went to make
// room for more of an age still cut with "…", so after `a` nothing said
// which account the trading keys act on. The name now goes only when
// that makes the line fit.
func TestHeaderKeepsAccountOneLine(t *testing.T) {
	accts := twoAccounts()
	accts[1].Backend.(*testBackend).setStatus(liveStatus())
	for _, tc := range []struct{ keys, want string }{{"", "main"}, {"a", "bot1"}} {
		m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 40, 10)
		if tc.keys != "" {
			m = press(t, m, tc.keys)
		}
		out := ansi.Strip(m.View().Content)
		checkScreen(t, out, 40, 10)
		header, _, _ := strings.Cut(out, "\n")
		if !strings.Contains(header, tc.want) {
			t.Errorf("after %q: header %q does not name the account %q", tc.keys, header, tc.want)
		}
	}
}
