package cli

import (
	"io"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"bhtop/paint"
)

// paintedProgram is a full-screen program on the local terminal, drawn by
// a paint.Painter instead of Bubble Tea's renderer (which parsed the whole
// frame into cells on every flush: most of an idle dashboard's CPU).
// Without a renderer Bubble Tea leaves the terminal alone, so Run does
// what it did: the TTY in raw mode, window changes (SIGWINCH) sent as
// WindowSizeMsg, the colour profile detected for the output, and the
// terminal restored when the program ends, also after a panic in the
// model.
type paintedProgram struct {
	*tea.Program
	paint        *paint.Painter
	in, out      term.File // nil unless a terminal
	restoreOnce  sync.Once
	restoreInput func()
}

// newPaintedProgram makes the program for model on stdio, drawing at most
// fps frames a second; opts come last (tests give a window size).
func newPaintedProgram(model tea.Model, stdio IO, fps int, opts ...tea.ProgramOption) *paintedProgram {
	return newPaintedProgramFor(func(io.Writer) tea.Model { return model }, stdio, fps, opts...)
}

// newPaintedProgramFor is newPaintedProgram for the model that build
// makes, given the terminal's output for sequences of its own (the
// painter's queue, written before the terminal is restored:
// ui.WithTerminalOutput).
func newPaintedProgramFor(build func(term io.Writer) tea.Model, stdio IO, fps int, opts ...tea.ProgramOption) *paintedProgram {
	pp := &paintedProgram{restoreInput: func() {}}
	if f, ok := stdio.In.(term.File); ok && term.IsTerminal(f.Fd()) {
		pp.in = f
	}
	if f, ok := stdio.Out.(term.File); ok && term.IsTerminal(f.Fd()) {
		pp.out = f
	}
	w, h := 80, 24
	if pp.out != nil {
		if cw, ch, err := term.GetSize(pp.out.Fd()); err == nil {
			w, h = cw, ch
		}
	}
	// What Bubble Tea detects when it renders: its environment is the
	// process's.
	profile := colorprofile.Detect(stdio.Out, os.Environ())
	pp.paint = paint.New(stdio.Out, fps, w, h, profile)
	all := append([]tea.ProgramOption{tea.WithInput(stdio.In), tea.WithoutRenderer(), tea.WithOutput(pp.paint),
		tea.WithColorProfile(profile), tea.WithWindowSize(w, h), tea.WithFPS(fps)}, opts...)
	pp.Program = tea.NewProgram(&restoreOnPanic{Model: pp.paint.Wrap(build(pp.paint)), restore: pp.restore}, all...)
	pp.paint.SetSend(pp.Program.Send)
	return pp
}

// Run runs the program until it ends, with the terminal in the program's
// modes meanwhile.
func (pp *paintedProgram) Run() (tea.Model, error) {
	if pp.in != nil {
		state, err := term.MakeRaw(pp.in.Fd())
		if err != nil {
			return nil, err
		}
		pp.restoreInput = func() { _ = term.Restore(pp.in.Fd(), state) }
	}
	go pp.paint.Run()
	done := make(chan struct{})
	if pp.out != nil {
		go forwardWindowChanges(done, pp.out, pp.Program.Send)
	}
	m, err := pp.Program.Run()
	close(done)
	pp.restore()
	return m, err
}

// restore gives the terminal back: the painter's modes undone (main
// screen, cursor shown, mouse off), raw mode off. Once.
func (pp *paintedProgram) restore() {
	pp.restoreOnce.Do(func() {
		pp.paint.Close()
		pp.restoreInput()
	})
}

// forwardWindowChanges sends the terminal's size on each window change
// until done.
func forwardWindowChanges(done <-chan struct{}, out term.File, send func(tea.Msg)) {
	sig, stop := notifyWindowChanges()
	defer stop()
	for {
		select {
		case <-done:
			return
		case <-sig:
			if w, h, err := term.GetSize(out.Fd()); err == nil {
				send(tea.WindowSizeMsg{Width: w, Height: h})
			}
		}
	}
}

// restoreOnPanic restores the terminal before a panic in the model goes
// on to Bubble Tea, which prints it: on the main screen, not on the
// alternate one about to be left.
type restoreOnPanic struct {
	tea.Model
	restore func()
}

func (r *restoreOnPanic) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer r.onPanic()
	var cmd tea.Cmd
	r.Model, cmd = r.Model.Update(msg)
	return r, cmd
}

func (r *restoreOnPanic) View() tea.View {
	defer r.onPanic()
	return r.Model.View()
}

func (r *restoreOnPanic) onPanic() {
	if p := recover(); p != nil {
		// The painter may be waiting to Send to this very loop: wait for
		// the restore a little only (Run restores anyway once the program
		// has shut down).
		done := make(chan struct{})
		go func() { r.restore(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Second):
		}
		panic(p)
	}
}
