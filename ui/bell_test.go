package ui

import (
	"regexp"
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
		//
		// The bell and the notification (OSC 9, ended by a BEL) are two
		// writes: the painter may write a frame between them, so each is
		// looked for on its own (the bell outside any OSC sequence).
		noOSC := oscSeq.ReplaceAllString(got, "")
		notified := beforeGivenBack(got, "\x1b]9;bhtop: BTCUSDT above 60000\a")
		rung := beforeGivenBack(noOSC, "\a")
		if !notified || !rung || (!strings.Contains(got, ansi.ResetModeAltScreenSaveCursor) && strings.Contains(got, ansi.SetModeAltScreenSaveCursor)) {
			t.Fatalf("run %d: output %q: want the bell and the notification before the terminal is given back", i, got)
		}
	}
}

// oscSeq is an OSC sequence ended by a BEL (a title, a notification).
var oscSeq = regexp.MustCompile("\x1b\\][^\a]*\a")

// beforeGivenBack reports whether out holds seq before the terminal is
// given back (anywhere, if it never is).
func beforeGivenBack(out, seq string) bool {
	at, left := strings.Index(out, seq), strings.LastIndex(out, ansi.ResetModeAltScreenSaveCursor)
	return at >= 0 && (left < 0 || at < left)
}
