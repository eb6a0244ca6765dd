package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"bhtop/gen"
	"bhtop/state"
	"bhtop/stream"
)

// slowReader hands out its text only after a delay, so the dashboard has
// drawn before the key arrives.
type slowReader struct {
	delay time.Duration
	r     io.Reader
}

func (s *slowReader) Read(p []byte) (int, error) {
	if s.delay > 0 {
		time.Sleep(s.delay)
		s.delay = 0
	}
	return s.r.Read(p)
}

// TestReplayIntoDashboard: a journal paced into the read-only dashboard
// shows its orders and, the journal over, says "replay ended" (it kept
// "▶ replay"); q quits with exit 0.
func TestReplayIntoDashboard(t *testing.T) {
	f, err := os.Open("../state/testdata/spec.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	store, hub, notes := state.NewStore(), &state.Hub{}, &stream.NoteLog{}
	if err := pace(context.Background(), f, store, hub, notes, &badLines{}, 1e6, time.Now, sleepCtx); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	stdio := IO{In: &slowReader{delay: time.Second, r: strings.NewReader("q")}, Out: &out, Err: &errOut,
		Getenv: func(string) string { return "" }}
	ended := func() string { return stream.ReplayEnded }
	code := playDashboard(ctx, "spec.jsonl", hub, notes, ended, stdio, tea.WithWindowSize(120, 30))
	if code != ExitOK || ctx.Err() != nil {
		t.Fatalf("playDashboard = %d (ctx %v), want 0 before the timeout; stderr: %s", code, ctx.Err(), errOut.String())
	}
	for _, want := range []string{"Open Orders", "READ-ONLY", "ETHBTC", "replay ended", "applied"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("replay screen lacks %q", want)
		}
	}
}

// TestReplayOfAGoodJournalSaysNoError: a journal whose every line folds
// ends with "replay finished" and no error; its Events said "error
// spec.jsonl: the journal is empty: nothing to fold" (pace counted only
// the bad records), and one bad line of many is named once.
func TestReplayOfAGoodJournalSaysNoError(t *testing.T) {
	var raw strings.Builder
	if err := gen.Write(&raw, gen.Options{Events: 200, Seed: 3, InOrder: true}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, journal string
		errors        int
	}{
		{"good", raw.String(), 0},
		{"one bad line", raw.String() + "not a frame\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			notes := &stream.NoteLog{}
			if err := pace(context.Background(), strings.NewReader(tc.journal), state.NewStore(), &state.Hub{}, notes,
				&badLines{name: "spec.jsonl"}, 1e6, time.Now, sleepCtx); err != nil {
				t.Fatal(err)
			}
			all, _ := notes.Since(0)
			var errs []string
			for _, n := range all {
				if n.Kind == stream.NoteError {
					errs = append(errs, n.Text)
				}
			}
			if len(errs) != tc.errors || strings.Contains(strings.Join(errs, "\n"), "empty") {
				t.Errorf("error notes %q, want %d and none saying the journal is empty", errs, tc.errors)
			}
		})
	}
}
