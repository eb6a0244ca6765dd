package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden screens: every pane, the order form and its review, at 80×24
// (tabs) and 160×48 (grid), in each theme and with NO_COLOR. "plain" is
// the screen without escape codes (the layout, readable in a diff); the
// theme files keep the escape codes, so they show that the themes differ
// and that NO_COLOR has no colour codes at all.

// namedKeys are the keys keyMsg knows by name; any other name is its first
// rune typed.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"down":      {Code: tea.KeyDown},
	"up":        {Code: tea.KeyUp},
	"right":     {Code: tea.KeyRight},
	"left":      {Code: tea.KeyLeft},
	"pgdown":    {Code: tea.KeyPgDown},
	"pgup":      {Code: tea.KeyPgUp},
	"home":      {Code: tea.KeyHome},
	"end":       {Code: tea.KeyEnd},
	"backspace": {Code: tea.KeyBackspace},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
}

// keyMsg is a key press as Bubble Tea delivers it.
func keyMsg(s string) tea.KeyPressMsg {
	if k, ok := namedKeys[s]; ok {
		return k
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

// press feeds keys to m, running the replies of the requests they start
// (symbols, orders) synchronously. Words in keys are separated by spaces;
// "type:XYZ" types text.
func press(t testing.TB, m Model, keys string) Model {
	t.Helper()
	for _, k := range strings.Fields(keys) {
		var msgs []tea.Msg
		if s, ok := strings.CutPrefix(k, "type:"); ok {
			for _, r := range s {
				msgs = append(msgs, keyMsg(string(r)))
			}
		} else {
			msgs = append(msgs, keyMsg(k))
		}
		for _, msg := range msgs {
			next, cmd := m.Update(msg)
			m = next.(Model)
			m = runReply(m, cmd)
		}
	}
	return m
}

// runReply runs a request command and feeds its reply back.
func runReply(m Model, cmd tea.Cmd) Model {
	if cmd == nil {
		return m
	}
	switch reply := cmd().(type) {
	case symbolsMsg, placedMsg, canceledMsg, keepaliveMsg, resyncMsg:
		next, _ := m.Update(reply)
		return next.(Model)
	case cancelAllMsg: // progress, re-armed until the end
		next, cmd := m.Update(reply)
		return runReply(next.(Model), cmd)
	}
	return m
}

func sized(m Model, w, h int) Model {
	next, _ := m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return next.(Model)
}

// goldenView is a screen reached by pressing keys.
type goldenView struct {
	name string
	keys string
}

var goldenViews = []goldenView{
	{"balances", "1"},
	{"balances-zero", "1 z"},
	{"orders", "2"},
	{"orders-sorted", "2 s s S"},
	{"history", "h"},
	{"positions", "3"},
	{"events", "4"},
	{"filter", "2 / type:eth"},
	{"privacy", "2 p"},
	{"form", "n"},
	{"form-invalid", "n down down down down type:0.00005 down type:60000.001 enter"},
	{"form-typo", "n down down down down type:1,5"},
	{"review", "n down down down down type:0.01 down type:60000 enter"},
	{"cancel", "2 down down down x"},
	{"help", "?"},
	{"fills", "6"},
	{"fills-privacy", "6 p"},
	{"form-contract", "n up right"},
	{"form-contract-invalid", "n up right down down down right down down down type:10 down type:1.5 down type:60000.05 enter"},
	{"review-contract", "n up right down down down down down down type:10 down type:5 down type:60000 enter"},
	{"close", "3 x"},
	{"close-edited", "3 x backspace type:1"},
	{"cancel-all", "2 X"},
	{"cancel-all-done", "2 X y"},
}

var goldenThemes = []struct {
	name string
	opts []Option
}{
	{"dark", []Option{WithTheme("dark")}},
	{"light", []Option{WithTheme("light")}},
	{"high-contrast", []Option{WithTheme("high-contrast")}},
	{"no-color", []Option{WithNoColor(true)}},
}

func TestScreens(t *testing.T) {
	screens(t, goldenViews, func(w, h int, opts ...Option) Model {
		opts = append([]Option{WithNow(fixedNow)}, opts...)
		return sized(New(newTestBackend(testSnapshot()), &testTrader{}, opts...), w, h)
	})
}

// screens checks each view at 80×24 and 160×48 in every theme and plain
// against its golden file; model makes the dashboard at a size.
func screens(t *testing.T, views []goldenView, model func(w, h int, opts ...Option) Model) {
	for _, v := range views {
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			for _, th := range goldenThemes {
				t.Run(fmt.Sprintf("%s/%dx%d/%s", v.name, sz[0], sz[1], th.name), func(t *testing.T) {
					m := press(t, model(sz[0], sz[1], th.opts...), v.keys)
					out := m.View().Content
					checkScreen(t, out, sz[0], sz[1])
					if th.name == "no-color" && strings.Contains(out, "38;") {
						t.Errorf("NO_COLOR screen has a colour code")
					}
					golden.RequireEqual(t, []byte(out))
				})
			}
			t.Run(fmt.Sprintf("%s/%dx%d/plain", v.name, sz[0], sz[1]), func(t *testing.T) {
				m := press(t, model(sz[0], sz[1]), v.keys)
				golden.RequireEqual(t, []byte(ansi.Strip(m.View().Content)))
			})
		}
	}
}

// plainGolden checks m's screen, without colours, against the test's
// golden file, after checking it is w×h cells, and returns it.
func plainGolden(t *testing.T, m Model, w, h int) string {
	t.Helper()
	out := ansi.Strip(m.View().Content)
	checkScreen(t, out, w, h)
	golden.RequireEqual(t, []byte(out))
	return out
}

// checkScreen asserts the screen is exactly w×h cells: what makes resizes
// clean.
func checkScreen(t testing.TB, s string, w, h int) {
	t.Helper()
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		t.Fatalf("screen has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}
