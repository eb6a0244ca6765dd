package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"bhtop/internal/lockedbuf"
	painter "bhtop/paint"
)

// TestBellJustBeforeQuitRings: an alert that fires just before q still
// rings on the terminal, before the painter gives the terminal back (the
// bell went through Bubble Tea's output queue, a message hop behind the
// quit, and was lost).
func TestBellJustBeforeQuitRings(t *testing.T) {
	for i := range 20 {
		out := &lockedbuf.Buffer{}
		p := painter.New(out, 60, 80, 24, colorprofile.NoTTY)
		m := New(newTestBackend(testSnapshot()), nil, WithNow(fixedNow), WithNoColor(true), WithTerminalOutput(p))
		prog := tea.NewProgram(p.Wrap(m), tea.WithInput(nil), tea.WithoutRenderer(), tea.WithOutput(p),
			tea.WithWindowSize(80, 24), tea.WithoutSignals())
		p.SetSend(prog.Send)
		go p.Run()
		go func() {
			prog.Send(AlertMsg{Text: "BTCUSDT above 60000", Bell: true, Desktop: true})
			prog.Send(keyMsg("q"))
		}()
		if _, err := prog.Run(); err != nil {
			t.Fatal(err)
		}
		p.Close()
		got := out.String()
		// The terminal is given back only if the painter took it: a q that
		// reaches the painter before its first frame leaves the terminal
		// as it was, and the bell is then all that is written.
		left := strings.LastIndex(got, ansi.ResetModeAltScreenSaveCursor)
		// The bell, then the notification (OSC 9, ended by a BEL).
		rung := strings.Index(got, "\a\x1b]9;bhtop: BTCUSDT above 60000\a")
		if rung < 0 || (left >= 0 && rung > left) || (left < 0 && strings.Contains(got, ansi.SetModeAltScreenSaveCursor)) {
			t.Fatalf("run %d: output %q: want the bell and the notification before the terminal is given back", i, got)
		}
	}
}
