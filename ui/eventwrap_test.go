package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/upstream"
)

// longFill is an order's fill note as the stream words it.
const longFill = "fill BUY 1250.5 DOGEUSDT LIMIT @ 0.001369 (order 1234567890123): executed 1250.5, FILLED"

// TestEventsWrap: an event too long for the Events pane goes on
// continuation lines under its text instead of being cut with "…", so
// its price and quantities always show (60×20 cut "@ 0.001369…"); the
// cursor stays on the newest event, whole.
func TestEventsWrap(t *testing.T) {
	for _, sz := range [][2]int{{40, 15}, {60, 20}, {80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			b.notes.Add(t0.Add(-time.Second), upstream.NoteFill, longFill)
			m := press(t, sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), sz[0], sz[1]), "4")
			out := plainGolden(t, m, sz[0], sz[1])
			r := m.lay.panes[paneEvents]
			lines := strings.Split(out, "\n")[r.y+2 : r.y+r.h]
			var text []string
			for _, l := range lines {
				if r.x > 0 || m.lay.gridMarket {
					l = string([]rune(l)[r.x:])
				}
				if strings.Contains(l, "…") {
					t.Errorf("an event is cut: %q", l)
				}
				text = append(text, strings.Fields(l)...)
			}
			all := strings.Join(text, " ")
			for _, w := range []string{"1250.5 DOGEUSDT", "@ 0.001369", "(order 1234567890123)", "executed 1250.5, FILLED", "▶"} {
				if !strings.Contains(all, w) {
					t.Errorf("the Events pane lacks %q:\n%s", w, strings.Join(lines, "\n"))
				}
			}
		})
	}
}

// TestEventsWrapClick: a click on an event's continuation line selects
// that event.
func TestEventsWrapClick(t *testing.T) {
	b := newTestBackend(testSnapshot())
	b.notes.Add(t0.Add(-time.Second), upstream.NoteFill, longFill)
	m := press(t, sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), 60, 20), "4")
	r := m.lay.panes[paneEvents]
	// The rows: connect, resync (2 lines), fill, rejected (2 lines), ...
	next, _ := m.Update(tea.MouseClickMsg{X: 30, Y: r.y + 2 + 5, Button: tea.MouseLeft})
	m = next.(Model)
	if p := &m.panes[paneEvents]; p.cursor != 3 {
		t.Errorf("a click on the rejected order's second line selects row %d, want 3", p.cursor)
	}
	// Up to the first event and down again to the newest, whole.
	for keys, want := range map[string]string{"g": "▶ 09:28:30 connect", "g G": "▶ 09:29:59 fill"} {
		top := press(t, m, keys)
		lines := strings.Split(ansi.Strip(top.View().Content), "\n")
		if got := lines[r.y+2]; keys == "g" && !strings.HasPrefix(got, want) {
			t.Errorf("%s: the first row line is %q, want %q", keys, got, want)
		}
		if keys == "g G" && !strings.Contains(strings.Join(lines, "\n"), "executed 1250.5, FILLED") {
			t.Errorf("%s: the newest event is not whole:\n%s", keys, strings.Join(lines, "\n"))
		}
	}
}
