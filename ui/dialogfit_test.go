package ui

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// dialogViews are the dialogs, over the account with its market.
var dialogViews = []goldenView{
	{"form", "n"},
	{"form-invalid", "n down down down down type:0.00005 down type:60000.001 enter"},
	{"form-contract", "n up right"},
	{"form-contract-invalid", "n up right down down down right down down down type:10 down type:1.5 down type:60000.05 enter"},
	{"form-cross", "n down down down down type:0.01 down a"},
	{"review", "n down down down down type:0.01 down type:60000 enter"},
	{"review-cross", "n down down down down type:0.01 down a enter"},
	{"review-contract", "n up right down down down down down down type:10 down type:5 down type:60000 enter"},
	{"cancel", "2 down down down x"},
	{"close", "3 x"},
	{"cancel-all", "2 X"},
	{"cancel-all-done", "2 X y"},
}

// TestDialogsFit: on a small terminal (60×20, 80×24) every dialog is
// whole: its bottom border shows (nothing below it cut off by the
// screen) and no line of it is cut with "…" (a long line wraps; blank
// lines and hints give way to the height). Golden files of each.
func TestDialogsFit(t *testing.T) {
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		for _, v := range dialogViews {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)), v.keys)
				out := plainGolden(t, m, sz[0], sz[1])
				if !strings.ContainsAny(out, "╰╚└") {
					t.Errorf("the dialog's bottom is cut off:\n%s", out)
				}
				for _, l := range strings.Split(out, "\n") {
					if strings.ContainsAny(l, "│║") && strings.Contains(l, "…") {
						t.Errorf("a dialog line is cut: %q", l)
					}
				}
			})
		}
	}
}

// TestChartFitsNarrow: at 60×20 and 80×24 the chart's title and interval
// bar are never cut with "…": the newest bar's prices, then the bid and
// ask give way whole, and the interval keys shorten to their arrows.
func TestChartFitsNarrow(t *testing.T) {
	for _, sz := range [][2]int{{40, 15}, {60, 20}, {80, 24}} {
		for _, v := range []goldenView{{"chart", "2 down down down c"}, {"chart-5m", "2 down down down c right"}} {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)), v.keys)
				lines := strings.Split(plainGolden(t, m, sz[0], sz[1]), "\n")
				title, bar := lines[m.lay.body.y], lines[len(lines)-2-m.lay.statusH]
				if strings.Contains(title, "…") || !strings.Contains(title, "▶ BTCUSDT") {
					t.Errorf("title %q", title)
				}
				if strings.Contains(bar, "…") || !strings.Contains(bar, "←/→") {
					t.Errorf("interval bar %q", bar)
				}
			})
		}
	}
}

// TestAllViewNarrow: at 60×20 and 80×24 the All view still shows each
// account's stream state and the whole note on why it is not in the
// total: a row too wide for the screen puts them on lines of their own;
// its status is one line (below 60 columns too).
func TestAllViewNarrow(t *testing.T) {
	for _, sz := range [][2]int{{40, 15}, {60, 20}, {80, 24}, {120, 30}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m := press(t, sized(NewDesk(twoAccounts(), WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1]), "a a")
			out := plainGolden(t, m, sz[0], sz[1])
			for _, want := range []string{"● live", "↻ reconnecting in 8s", "not in total: no snapshot yet", "main", "bot1", "147601.70 USDT"} {
				if !strings.Contains(out, want) {
					t.Errorf("the All view does not show %q:\n%s", want, out)
				}
			}
			// Its status is one line at every width: no empty line
			// below it, the body has the room.
			lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
			if len(lines) != sz[1] || !strings.Contains(lines[len(lines)-1], "streams live") {
				t.Errorf("the All view's last line is not its status (%d lines):\n%s", len(lines), out)
			}
			// The same when the window is resized to it in the All view.
			wide := press(t, sized(NewDesk(twoAccounts(), WithNow(fixedNow), WithNoColor(true)), 120, 30), "a a")
			if got := ansi.Strip(sized(wide, sz[0], sz[1]).View().Content); got != out {
				t.Errorf("resized to %dx%d in the All view:\n%s\nwant:\n%s", sz[0], sz[1], got, out)
			}
		})
	}
}

// TestLongMessageWraps: a message too long for the message line (an
// alert's toast at 60×20) is not cut: it goes on up to three lines, the
// first ones over the bottom of the body.
func TestLongMessageWraps(t *testing.T) {
	text := "BTC-PERP-REV position uPnL -1234.56 USDT crossed below -1000 USDT (rule upnl-guard)"
	for _, sz := range [][2]int{{60, 20}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			next, _ := marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)).Update(AlertMsg{Text: text})
			out := plainGolden(t, next.(Model), sz[0], sz[1])
			var words []string
			for _, l := range strings.Split(out, "\n") {
				words = append(words, strings.Fields(l)...)
			}
			if !strings.Contains(strings.Join(words, " "), "⚑ "+text) {
				t.Errorf("the alert is not whole on the screen:\n%s", out)
			}
		})
	}
}

// TestTabBarNarrow: every tab is on the tab bar at 60 and 40 columns
// (short names, then numbers alone) and down to 20 (numbers without the
// space between them: at 20 the 6 was cut), never cut with "…"; a click
// on a tab still focuses its pane.
func TestTabBarNarrow(t *testing.T) {
	for _, sz := range [][2]int{{20, 8}, {22, 8}, {40, 15}, {60, 20}, {80, 24}} {
		for _, keys := range []string{"1", "6", "h"} {
			t.Run(fmt.Sprintf("%s/%dx%d", keys, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)), keys)
				bar := strings.Split(plainGolden(t, m, sz[0], sz[1]), "\n")[m.lay.body.y]
				for i := 1; i <= int(numPanes); i++ {
					if !strings.Contains(bar, fmt.Sprintf("%d", i)) {
						t.Errorf("tab %d is not on the bar %q", i, bar)
					}
				}
				if strings.Contains(bar, "…") {
					t.Errorf("the tab bar is cut: %q", bar)
				}
				for id := range paneID(numPanes) {
					x := m.lay.tabX[id][0] + 1
					next, _ := m.Update(tea.MouseClickMsg{X: x, Y: m.lay.body.y, Button: tea.MouseLeft})
					if got := next.(Model).focus; got != id {
						t.Errorf("a click at x=%d on the tab bar focuses %d, want %d", x, got, id)
					}
				}
			})
		}
	}
}

// answerLine is a review's answer line, long or short.
var answerLine = regexp.MustCompile(`║ +y = (yes, )?(send|cancel them) .*other key = no +║`)

// TestReviewsFitSmallScreens: on small screens (40×12, 40×10) a review
// is whole, its answer line included (in its short form, never wrapped)
// and its bottom border: a box taller than the body covers the message
// and status lines rather than lose its bottom (y would send an order
// whose review the screen cut), and one still too tall has less padding
// (at 40×10 a review with a warning lost its bottom border, the y line
// last on the screen).
func TestReviewsFitSmallScreens(t *testing.T) {
	for _, sz := range [][2]int{{40, 12}, {40, 10}} {
		for _, v := range dialogViews {
			if !strings.HasPrefix(v.name, "review") && v.name != "close" && v.name != "cancel" && v.name != "cancel-all" {
				continue
			}
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)), v.keys)
				out := plainGolden(t, m, sz[0], sz[1])
				if !answerLine.MatchString(out) {
					t.Errorf("the review's answer line is cut off:\n%s", out)
				}
				if !strings.ContainsAny(out, "╰╚└") {
					t.Errorf("the review's bottom is cut off:\n%s", out)
				}
			})
		}
	}
}

// TestToastLeavesDialogWhole: a toast long enough to take three lines
// while a review is open does not cover the review's bottom (its answer
// line): the box fits above it.
func TestToastLeavesDialogWhole(t *testing.T) {
	for _, v := range []goldenView{{"close", "3 x"}, {"review-contract", dialogViews[7].keys}} {
		t.Run(v.name, func(t *testing.T) {
			m := press(t, marketModel(testMarket(), 50, 16, WithNoColor(true)), v.keys)
			next, _ := m.Update(AlertMsg{Text: "fill: BTC-PERP-REV SELL LIMIT filled 9 of 9 at avg 61436.5 and a long tail of words to wrap"})
			m = next.(Model)
			out := plainGolden(t, m, 50, 16)
			if !strings.ContainsAny(out, "╰╚└") || !answerLine.MatchString(out) {
				t.Errorf("the toast covers the review's bottom:\n%s", out)
			}
			if !strings.Contains(out, "⚑ fill: BTC-PERP-REV") {
				t.Errorf("the toast is not shown:\n%s", out)
			}
		})
	}
}

// TestAllViewNeverCutsStreamState: at every width the All view shows
// each account's stream state whole ("↻ reconnecting in 8s"): only the
// reason after it may be cut (at 100 columns a row that just fitted
// the state lost its last character to the reason's "…": "in 2…").
func TestAllViewNeverCutsStreamState(t *testing.T) {
	for w := 40; w <= 160; w++ {
		m := press(t, sized(NewDesk(twoAccounts(), WithNow(fixedNow), WithNoColor(true)), w, 24), "a a")
		if out := ansi.Strip(m.View().Content); !strings.Contains(out, "↻ reconnecting in 8s") {
			t.Errorf("at %d columns the stream state is cut:\n%s", w, out)
		}
	}
}

// TestNoYesToAReviewNotShown: on a screen too small to show the review
// ("terminal too small") y sends nothing and the review stays; once the
// window is large enough again, y sends it once.
func TestNoYesToAReviewNotShown(t *testing.T) {
	tr := &testTrader{}
	m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow), WithMarket(marketHub(testMarket()), "USDT")), 80, 24)
	m = press(t, m, dialogViews[5].keys) // the spot review
	if m.confirm == nil {
		t.Fatal("no review open")
	}
	m = press(t, sized(m, 19, 6), "y")
	if len(tr.placed) != 0 {
		t.Fatalf("y sent an order the screen did not show: %v", tr.placed)
	}
	if m.confirm == nil {
		t.Fatal("the review was closed by a y the screen did not show")
	}
	m = sized(m, 80, 24)
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "SEND THIS ORDER?") {
		t.Fatalf("the review is not shown again:\n%s", out)
	}
	press(t, m, "y")
	if len(tr.placed) != 1 {
		t.Errorf("y on the review shown sent %d orders, want 1", len(tr.placed))
	}
}

// TestNoYesToACutReview: y on a review whose answer line the screen cuts
// off (a contract review at 20×8) sends nothing; the review stays.
func TestNoYesToACutReview(t *testing.T) {
	tr := &testTrader{}
	m := sized(New(newTestBackend(testSnapshot()), tr, WithNow(fixedNow), WithMarket(marketHub(testMarket()), "USDT")), 80, 24)
	m = press(t, m, dialogViews[7].keys) // the contract review
	m = sized(m, 20, 8)
	if out := ansi.Strip(m.View().Content); answerLine.MatchString(out) {
		t.Skipf("the review fits 20×8 now:\n%s", out)
	}
	m = press(t, m, "y")
	if len(tr.contract) != 0 || m.confirm == nil {
		t.Fatalf("y answered a review whose answer line was cut off: sent %v", tr.contract)
	}
	press(t, sized(m, 80, 24), "y")
	if len(tr.contract) != 1 {
		t.Errorf("y on the review shown sent %d orders, want 1", len(tr.contract))
	}
}

// TestFormFocusShowsSmallScreens: on a screen too low for all of the
// order form's fields (a contract order at 40×10, a STOP at 40×12) the
// field being typed into and the form's keys still show: fields away
// from it give way. Before, the contract form's Price field was below
// the screen's bottom while "60000" was typed into it.
func TestFormFocusShowsSmallScreens(t *testing.T) {
	for _, tc := range []struct {
		name, keys, want string
		w, h             int
	}{
		{"contract-price", "n up right down down down down down down down down type:60000", "▶ Price     [60000_", 40, 10},
		{"contract-qty", "n up right down down down down down down down type:5", "▶ Quantity  [5_", 40, 10},
		{"stop-trigger", "n up right down down down right down down down down down down type:61000", "▶ Trigger   [61000_", 40, 12},
		{"spot-price", "n down down down down type:0.01 down type:60000", "▶ Price     [60000_", 40, 10},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d", tc.name, tc.w, tc.h), func(t *testing.T) {
			m := press(t, marketModel(testMarket(), tc.w, tc.h, WithNoColor(true)), tc.keys)
			out := plainGolden(t, m, tc.w, tc.h)
			if !strings.Contains(out, tc.want) {
				t.Errorf("the focused field %q is not on the screen:\n%s", tc.want, out)
			}
			if !strings.Contains(out, "enter review") || !strings.ContainsAny(out, "╰└") {
				t.Errorf("the form's keys or bottom are cut off:\n%s", out)
			}
		})
	}
}

// TestFormFieldsFitNarrow: at 30×8 and 40×10 each field of the order form
// stays on one line, its label, value and brackets together: the labels
// and the typed value's box shorten to fit.
func TestFormFieldsFitNarrow(t *testing.T) {
	for _, sz := range [][2]int{{30, 8}, {40, 10}} {
		for _, v := range []goldenView{
			{"spot-qty", "n down down down down type:0.01"},
			{"contract-lev", "n up right down down down down down down type:10"},
		} {
			t.Run(fmt.Sprintf("%s/%dx%d", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, marketModel(testMarket(), sz[0], sz[1], WithNoColor(true)), v.keys)
				out := plainGolden(t, m, sz[0], sz[1])
				focus := false
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, "▶ ") && strings.Contains(l, "[") {
						focus = true
					}
					in := strings.TrimPrefix(strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "│┃║")), "▶ ")
					if strings.Count(in, "[") != strings.Count(in, "]") || strings.Count(in, "◀") != strings.Count(in, "▶") {
						t.Errorf("a field is split across lines: %q\n%s", l, out)
					}
				}
				if !focus {
					t.Errorf("the focused field is not on one line:\n%s", out)
				}
			})
		}
	}
}
