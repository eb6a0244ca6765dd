package cli

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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

// lockedBuffer is a bytes.Buffer safe for the painter's goroutine and the
// test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestPaintedProgramRestoresAfterPanic: a panic in the model ends the
// program with an error, and the terminal is given back (alternate screen
// left, cursor shown, mouse off) as when it quits.
func TestPaintedProgramRestoresAfterPanic(t *testing.T) {
	in, w := io.Pipe()
	defer w.Close()
	out := &lockedBuffer{}
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
