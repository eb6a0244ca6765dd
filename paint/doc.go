// Package paint draws a Bubble Tea program's frames without Bubble Tea's
// renderer, which parses every frame into cells and diffs the whole
// screen: at 200×60 that is about 5 ms a frame, most of an idle
// dashboard's CPU (where once a second two lines change, the ages in the
// header and status line), and 78 % of `bhtop serve`'s CPU at 200 viewers.
// bhtop's screens are lipgloss text, so a cheaper diff is enough.
//
// The program runs with tea.WithoutRenderer and tea.WithOutput(painter);
// Wrap wraps its model: it tells the painter the window size and colour
// profile, and hands it a View only when a frame is due (at most one per
// frame interval, --fps); between frames it notes that the model changed,
// and the painter asks for the View (a message the wrapper swallows) once
// the interval is over. So a model draws at most fps Views a second however
// many messages it gets, and none while its terminal does not read.
//
// The painter keeps the lines on the screen and compares the new ones as
// strings; a changed line is walked together with the old one, cell by
// cell (a byte scan: lipgloss output is text and style sequences), from
// the first byte that differs until both have the same bytes left at the
// same column, and only runs of changed cells are written (cursor move,
// style, characters). Style sequences are converted to the terminal's
// colour profile once per distinct sequence. A line with anything else
// (other escape sequences, CJK or emoji, whose widths are not tabled) is
// sent whole. The painter always uses the alternate screen, turns
// auto-wrap off (a too-long line is clipped, never wrapped), hides the
// cursor unless the View has one, wraps each frame in synchronized output
// (mode 2026), sets the View's mouse mode, title, focus reporting and
// bracketed paste, and undoes all of it on Close; keys are asked for as
// Bubble Tea asks (modifyOtherKeys, kitty disambiguation). Only the
// painter's goroutine writes, so a terminal that stops reading blocks it
// alone. Its tests check its output on a small terminal emulator
// (internal/vtemu).
//
// Without a renderer Bubble Tea leaves the terminal alone: the caller
// puts a local TTY in raw mode, forwards its window changes and restores
// it (cli's dashboard); serve's sessions are SSH channels.
package paint
