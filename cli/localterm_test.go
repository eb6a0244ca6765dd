package cli

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"bhtop/internal/lockedbuf"
)

// panicky draws a line and panics on the message after its first frame.
type panicky struct{}

type boom struct{}

func (panicky) Init() tea.Cmd {
	return tea.Tick(50*time.Millisecond, func(time.Time) tea.Msg { return boom{} })
}

func (m panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(boom); ok {
		panic("boom")
	}
	return m, nil
}

func (panicky) View() tea.View { return tea.NewView("hello") }

// TestPaintedProgramRestoresAfterPanic: a panic in the model ends the
// program with an error, and the terminal is given back (alternate screen
// left, cursor shown, mouse off) as when it quits.
func TestPaintedProgramRestoresAfterPanic(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	out := &lockedbuf.Buffer{}
	prog := newPaintedProgram(panicky{}, IO{In: in, Out: out}, 15, tea.WithWindowSize(20, 5))
	_, err := prog.Run()
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("Run = %v, want ErrProgramPanic", err)
	}
	got := out.String()
	drawn := strings.Index(got, "hello")
	left := strings.LastIndex(got, ansi.ResetModeAltScreenSaveCursor)
	if drawn < 0 || left < drawn || !strings.Contains(got[left-40:], ansi.SetModeTextCursorEnable) {
		t.Errorf("output = %q, want the frame, then the cursor shown and the alternate screen left", got)
	}
}
