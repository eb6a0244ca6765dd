package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/rest"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/ui"
)

// errReplay answers the stream actions a journal cannot do.
var errReplay = errors.New("replaying a journal: there is no live stream")

// replayBackend is the dashboard's Backend for `bhtop replay`: the state
// the pacing loop publishes, its notes, and no stream behind them.
type replayBackend struct {
	hub    *state.Hub
	notes  *stream.NoteLog
	status stream.Status
	ended  func() string // why the replay is over, "" while it plays
}

func (b *replayBackend) Hub() *state.Hub { return b.hub }

// Status is the replay's: its Reason says once the journal has ended.
func (b *replayBackend) Status() stream.Status {
	st := b.status
	st.Reason = b.ended()
	return st
}

func (b *replayBackend) Notes(after uint64) ([]stream.Note, uint64)     { return b.notes.Since(after) }
func (b *replayBackend) Keepalive(context.Context) (time.Time, error)   { return time.Time{}, errReplay }
func (b *replayBackend) Resync(context.Context) error                   { return errReplay }
func (b *replayBackend) Symbols(context.Context) ([]rest.Symbol, error) { return nil, errReplay }

// playDashboard shows the replayed state read-only (a journal has no
// account to trade on) until the user quits; it returns the exit code.
// ended says why the replay is over (upstream.ReplayEnded, or the error
// that stopped it), "" while the journal plays.
func playDashboard(ctx context.Context, file string, hub *state.Hub, notes *stream.NoteLog, ended func() string, stdio IO, progOpts ...tea.ProgramOption) int {
	b := &replayBackend{hub: hub, notes: notes, ended: ended, status: stream.Status{
		State:    stream.StateReplay,
		Host:     "journal " + file,
		ReadOnly: true,
	}}
	// Ages are counted on the journal's clock: from the newest event's E.
	journalNow := func() time.Time {
		if t := hub.Latest().LastEventTime; t > 0 {
			return time.UnixMilli(t)
		}
		return time.Now()
	}
	model := ui.New(b, nil, ui.WithNoColor(stdio.Getenv("NO_COLOR") != ""), ui.WithContext(ctx), ui.WithNow(journalNow))
	// Drawn like the live dashboard: by the painter, on the terminal
	// newPaintedProgram sets up and restores.
	opts := append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)
	_, err := newPaintedProgram(model, stdio, dashboardFPS, opts...).Run()
	if err != nil && !errors.Is(err, tea.ErrProgramKilled) && ctx.Err() == nil {
		fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
		return ExitFail
	}
	return ExitOK
}
