package ui

import (
	"io"

	tea "charm.land/bubbletea/v2"
)

// WithTerminalOutput writes the dashboard's own terminal sequences (the
// bell, a desktop notification) to w at once, from Update, instead of
// handing them to Bubble Tea as tea.Raw: w is the painter (package
// paint), whose queue it writes before the terminal is given back, so a
// bell rung just before q still rings. tea.Raw goes through a command
// and a message, a hop behind a quit that follows at once, and was lost
// with it. w must not block (paint.Painter.Write never does).
func WithTerminalOutput(w io.Writer) Option { return func(m *Model) { m.termOut = w } }

// raw sends seq to the terminal: at once to the terminal output, else as
// tea.Raw (nil cmd when written).
func (m *Model) raw(seq string) tea.Cmd {
	if m.termOut == nil {
		return tea.Raw(seq)
	}
	_, _ = io.WriteString(m.termOut, seq)
	return nil
}
