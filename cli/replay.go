package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/term"

	"bhtop/config"
	"bhtop/journal"
	"bhtop/state"
	"bhtop/stream"
)

// The --speed range: slower than a thousandth of the recorded pace never
// ends in practice, faster than a million times is as fast as possible.
const (
	minSpeed = 0.001
	maxSpeed = 1e6
)

// runReplay folds a journal: headless with --dump, else paced into the
// dashboard at --speed.
func runReplay(args []string, stdio IO) int {
	fs := flag.NewFlagSet("bhtop replay", flag.ContinueOnError)
	fs.SetOutput(stdio.Err)
	dump := fs.Bool("dump", false, "fold the journal as fast as possible and print the state JSON")
	speed := fs.Float64("speed", 1, "playback speed factor (2 = twice as fast)")
	retention := fs.Int("retention", state.DefaultRetention, "closed orders kept")
	rest, exit, ok := parseFlags(fs, args)
	if !ok {
		return exit
	}
	if err := checkFlags(floatIn("--speed", *speed, minSpeed, maxSpeed), atLeast("--retention", *retention, 0)); err != nil {
		fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
		return ExitUsage
	}
	if len(rest) != 1 {
		fmt.Fprintln(stdio.Err, "usage: bhtop replay FILE [--dump] [--speed X]   (FILE - reads stdin)")
		return ExitUsage
	}
	keys := stdio // where the dashboard reads keys
	if !*dump {
		k, closeKeys, err := replayKeys(rest[0], stdio)
		if err != nil {
			fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
			return ExitUsage
		}
		defer closeKeys()
		keys = k
	}
	in, closeIn, err := openInput(rest[0], stdio)
	if err != nil {
		fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
		return ExitUsage
	}
	defer closeIn()
	store := state.NewStore(state.WithRetention(*retention))
	bad := &badLines{name: rest[0]}
	if *dump {
		// A batch fold to the end: a collection every 4× growth of the
		// heap (not 2×) spends a sixth less CPU on one million events
		// for about 35 MB more memory at the peak.
		defer debug.SetGCPercent(debug.SetGCPercent(400))
		// Lines are parsed, decoded and prepared (what folding an event
		// needs of it alone) on every core, folded in order here.
		err := journal.ScanDecodedPrep(in, runtime.GOMAXPROCS(0), state.PrepareEvents, func(d *journal.Decoded) {
			bad.note(d.Record, applyDecoded(store, d))
		})
		if err != nil {
			fmt.Fprintf(stdio.Err, "bhtop replay: %s: %v\n", rest[0], err)
			return ExitFail
		}
		// A journal holds no quote frames: no market data.
		if err := writeDump(stdio.Out, store.Snapshot(), nil, config.DefaultValueIn, "  "); err != nil {
			fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
			return ExitFail
		}
		if s := bad.summary(); s != "" {
			fmt.Fprintf(stdio.Err, "bhtop replay: %s\n", s)
		}
		return ExitOK
	}
	hub := &state.Hub{}
	notes := &stream.NoteLog{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	var ended atomic.Pointer[string]
	go func() {
		err := pace(ctx, in, store, hub, notes, bad, *speed, time.Now, sleepCtx)
		why := stream.ReplayEnded
		if err != nil {
			why = err.Error()
		}
		ended.Store(&why)
		done <- err
	}()
	endedWhy := func() string {
		if p := ended.Load(); p != nil {
			return *p
		}
		return ""
	}
	code := playDashboard(ctx, rest[0], hub, notes, endedWhy, keys)
	cancel()
	if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(stdio.Err, "bhtop replay: %v\n", err)
	}
	return code
}

// replayKeys is stdio with the input the dashboard reads keys from: the
// terminal on stdin, or, when stdin is the journal ("-"), the process's
// terminal (/dev/tty), as less does. A stdin that is a file but no
// terminal cannot drive the dashboard (Bubble Tea fails on it with a
// riddle): refused, as the dashboard refuses it.
func replayKeys(name string, stdio IO) (IO, func(), error) {
	f, isFile := stdio.In.(term.File)
	if name != "-" {
		if isFile && !term.IsTerminal(f.Fd()) {
			return stdio, nil, errors.New("the dashboard needs a terminal on stdin; to fold a journal without one use --dump")
		}
		return stdio, func() {}, nil
	}
	if !isFile {
		return stdio, func() {}, nil // a test's reader: keys from nowhere
	}
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return stdio, nil, fmt.Errorf("a journal on stdin (-) plays in the dashboard with keys from the terminal, and there is none (%v); use --dump", err)
	}
	keys := stdio
	keys.In = tty
	return keys, func() { tty.Close() }, nil
}

func openInput(name string, stdio IO) (io.Reader, func(), error) {
	if name == "-" {
		return stdio.In, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, fmt.Errorf("open journal: %w", err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, nil, fmt.Errorf("open journal: %s is a directory", name)
	}
	return f, func() { f.Close() }, nil
}

// applyRecord folds one journal record; a bad record is one malformed
// frame. It returns why the line could not be folded, "" when it was.
func applyRecord(store *state.Store, rec journal.Record) string {
	return fold(store, rec, func() { store.ApplyFrame(rec.Frame, nil) })
}

// applyDecoded is applyRecord for a record whose frame is decoded.
func applyDecoded(store *state.Store, d *journal.Decoded) string {
	return fold(store, d.Record, func() { store.ApplyPrepared(d.Events, d.Aux, nil) })
}

// fold counts a bad record as one malformed frame, else folds its frame
// with apply; it returns why the line could not be folded, "" when it was.
func fold(store *state.Store, rec journal.Record, apply func()) string {
	switch {
	case rec.Long:
		store.CountMalformed()
		return fmt.Sprintf("longer than %d MiB, skipped", journal.MaxLine>>20)
	case rec.Bad:
		store.CountMalformed()
		return "recorded as not JSON"
	}
	before := store.Stats().Malformed
	apply()
	if store.Stats().Malformed == before {
		return ""
	}
	if rec.Cut {
		return "not a frame: the journal ends in the middle of this line"
	}
	return "not a frame"
}

// maxReplayGap is the longest pause replay makes, whatever the journal's
// gap between two frames (after --speed).
const maxReplayGap = 2 * time.Second

// publishEvery bounds how often the pacing loop publishes snapshots.
const publishEvery = 50 * time.Millisecond

// pace plays the journal in at its recorded pace divided by speed,
// publishing a snapshot at most every publishEvery and once at the end.
func pace(ctx context.Context, in io.Reader, store *state.Store, hub *state.Hub, notes *stream.NoteLog,
	bad *badLines, speed float64, now func() time.Time, sleep func(context.Context, time.Duration) error) error {
	jr := journal.NewReader(in)
	start := now()
	var first int64
	var lastPub time.Time
	dirty := false
	publish := func(t time.Time) {
		hub.Publish(store.Snapshot())
		lastPub, dirty = t, false
	}
	notes.Add(start, stream.NoteInfo, fmt.Sprintf("replaying at %gx", speed))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := jr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			notes.Add(now(), stream.NoteError, fmt.Sprintf("read journal: %v", err))
			return fmt.Errorf("read journal: %w", err)
		}
		if rec.Recv != 0 {
			if first == 0 {
				first = rec.Recv
			}
			due := start.Add(time.Duration(float64(time.Duration(rec.Recv-first)*time.Millisecond) / speed))
			t := now()
			wait := due.Sub(t)
			if wait > maxReplayGap {
				// A long quiet stretch in the journal is skipped over.
				start = start.Add(-(wait - maxReplayGap))
				wait = maxReplayGap
			}
			if wait > 0 {
				if dirty && (wait >= publishEvery || t.Sub(lastPub) >= publishEvery) {
					publish(t)
				}
				if err := sleep(ctx, wait); err != nil {
					return err
				}
			}
		}
		// Every record is noted (a journal of good ones is not "empty").
		if why := applyRecord(store, rec); bad.note(rec, why) <= maxBadNotes && why != "" {
			notes.Add(now(), stream.NoteError, fmt.Sprintf("line %d: %s (counted as malformed)", rec.Line, why))
		}
		dirty = true
		if t := now(); t.Sub(lastPub) >= publishEvery {
			publish(t)
		}
	}
	publish(now())
	// Up to maxBadNotes bad lines were each named as they came: the
	// summary would name the first again.
	if s := bad.summary(); s != "" && (bad.count == 0 || bad.count > maxBadNotes) {
		notes.Add(now(), stream.NoteError, s)
	}
	notes.Add(now(), stream.NoteInfo, "replay finished")
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
