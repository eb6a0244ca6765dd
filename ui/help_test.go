package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"bhtop/upstream"
)

// helpSizes are the sizes the help screen is checked at: the smallest
// the dashboard draws (below it says "terminal too small"), a phone,
// the narrow terminals and a large one.
var helpSizes = [][2]int{{20, 8}, {40, 15}, {60, 20}, {80, 24}, {200, 60}}

// TestHelpScreens: the help at each size, and scrolled to its end where
// it does not fit.
func TestHelpScreens(t *testing.T) {
	views := []goldenView{{"open", "?"}, {"end", "? G"}, {"page", "? pgdown"}}
	for _, sz := range helpSizes {
		for _, v := range views {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1])
				plainGolden(t, press(t, m, v.keys), sz[0], sz[1])
			})
		}
	}
}

// TestHelpReachesEveryKey: at every size, scrolling the help down line
// by line shows every binding of the help with its description (at the
// smallest size at least the key, its description under it cut to the
// width), whole, never cut by "…"; the last line is reached, the
// position is shown, and esc closes the help again.
func TestHelpReachesEveryKey(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		for _, sz := range helpSizes {
			t.Run(fmt.Sprintf("%dx%d/read-only=%v", sz[0], sz[1], readOnly), func(t *testing.T) {
				var tr Trader = &testTrader{}
				if readOnly {
					tr = nil
				}
				m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1])
				m = press(t, m, "?")
				seen := ""
				for range 60 {
					seen += ansi.Strip(m.View().Content) + "\n"
					m = press(t, m, "down")
				}
				if m.mode() != modeHelp {
					t.Fatal("scrolling closed the help")
				}
				for _, g := range m.keys.FullHelp() {
					for _, b := range g {
						want := regexp.QuoteMeta(b.Help().Key) + ` +` + regexp.QuoteMeta(b.Help().Desc) + `( |│)`
						if sz[0] < 40 {
							want = `│ ` + regexp.QuoteMeta(b.Help().Key) + ` *│`
						}
						found := regexp.MustCompile(want).MatchString(seen)
						if found != b.Enabled() {
							t.Errorf("%q %q shown %v, enabled %v", b.Help().Key, b.Help().Desc, found, b.Enabled())
						}
					}
				}
				for _, l := range strings.Split(seen, "\n") {
					if sz[0] >= 40 && strings.Contains(l, "│") && strings.Contains(l, "…") {
						t.Errorf("a help line is cut: %q", l)
					}
				}
				if strings.Contains(seen, " of ") && !strings.Contains(ansi.Strip(m.View().Content), "↑") {
					t.Errorf("scrolled to the end, the help does not say there is more above:\n%s", ansi.Strip(m.View().Content))
				}
				if m = press(t, m, "esc"); m.mode() != modePanes {
					t.Error("esc does not close the help")
				}
			})
		}
	}
}

// TestHelpScrollKeys: the panes' scroll keys move the help's window and
// stop at its ends.
func TestHelpScrollKeys(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 60, 20)
	m = press(t, m, "?")
	end := m.helpScreen().win.maxTop()
	if end == 0 {
		t.Fatal("the help fits 60×20: nothing to scroll")
	}
	for _, tc := range []struct {
		keys string
		top  int
	}{
		{"down", 1}, {"j", 2}, {"k", 1}, {"up up up", 0}, {"G", end}, {"down", end}, {"g", 0},
		{"end", end}, {"home", 0}, {"pgdown pgdown pgdown pgdown", end}, {"pgup pgup pgup pgup", 0},
	} {
		m = press(t, m, tc.keys)
		if m.helpTop != tc.top {
			t.Errorf("after %q the help is at line %d, want %d", tc.keys, m.helpTop, tc.top)
		}
	}
	next, _ := m.Update(tea.MouseWheelMsg{X: 30, Y: 10, Button: tea.MouseWheelDown})
	if m = next.(Model); m.helpTop != min(3, end) {
		t.Errorf("the wheel scrolled the help to line %d, want %d", m.helpTop, min(3, end))
	}
	if m = press(t, m, "G ? ?"); m.helpTop != 0 {
		t.Errorf("the help opens again at line %d, want 0", m.helpTop)
	}
}

// TestReplayHasNoUpstreamKeys: replaying a journal there is no stream to
// keep alive or resync: K and r are not in the help (they were, and
// said "keepalive failed: replaying a journal") and pressing them asks
// the backend nothing.
func TestReplayHasNoUpstreamKeys(t *testing.T) {
	b := newTestBackend(testSnapshot())
	b.setStatus(upstream.Status{State: upstream.StateReplay, Host: "journal day.jsonl", ReadOnly: true})
	m := sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), 80, 24)
	help := ansi.Strip(press(t, m, "?").View().Content)
	for _, w := range []string{"keepalive", "resync"} {
		if strings.Contains(help, w) {
			t.Errorf("the replay's help lists %q:\n%s", w, help)
		}
	}
	m = press(t, m, "K r")
	if n, r := b.keepalives.Load(), b.resyncs.Load(); n != 0 || r != 0 {
		t.Errorf("K and r in a replay: %d keepalives, %d resyncs asked, want none", n, r)
	}
	if msg := ansi.Strip(m.View().Content); strings.Contains(msg, "keepalive…") || strings.Contains(msg, "resyncing…") {
		t.Errorf("K or r in a replay says it works:\n%s", msg)
	}
}

// TestHelpListsTheViewsKeys (QA): ? in the All view and on the chart
// listed every pane key (tab, 1–6, filter, sort, closed orders, resync,
// …), which do nothing there; the help now lists the keys of the view
// it was opened from, as its one-line help does.
func TestHelpListsTheViewsKeys(t *testing.T) {
	for _, tc := range []struct {
		name, keys string
		want, not  []string
	}{
		{"all", "A ?", []string{"next account", "previous account", "privacy", "next theme", "help", "quit"},
			[]string{"filter", "sort column", "closed orders", "resync", "next pane", "chart"}},
		{"chart", "2 c ?", []string{"shorter interval", "longer interval", "close chart", "new order", "help", "quit"},
			[]string{"filter", "sort column", "closed orders", "resync", "next pane", "zero balances"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := sized(NewDesk(twoAccounts(), WithNow(fixedNow), WithNoColor(true)), 100, 30)
			out := ansi.Strip(press(t, m, tc.keys).View().Content)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("help lists %q, a key that does nothing here:\n%s", n, out)
				}
			}
		})
	}
}
