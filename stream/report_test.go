package stream

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/rest"
)

// TestReporter: notes are made safe to print and logged; an error note
// also counts in the status and becomes its LastError; setStatus makes a
// quoted reason safe to print.
func TestReporter(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	var r reporter
	r.init(func() time.Time { return now }, slog.New(slog.DiscardHandler), Status{State: StateConnecting})
	r.note(NoteConnect, "stream live")
	r.noteError("keepalive failed:\x1b[2J boom\nsecond line")
	r.setStatus(func(st *Status) { st.State, st.Reason = StateReconnecting, "closed by the service\x07" })

	notes, seq := r.notes.Since(0)
	if seq != 2 || len(notes) != 2 {
		t.Fatalf("notes = %v (seq %d), want 2", notes, seq)
	}
	if notes[0].Kind != NoteConnect || notes[1].Kind != NoteError || !notes[1].Time.Equal(now) {
		t.Errorf("notes = %+v", notes)
	}
	st := r.statusNow()
	if st.Errors != 1 || st.State != StateReconnecting {
		t.Errorf("status = %+v, want one error and reconnecting", st)
	}
	for _, s := range []string{notes[1].Text, st.LastError, st.Reason} {
		if strings.ContainsAny(s, "\x1b\x07\n") {
			t.Errorf("%q is not safe to print", s)
		}
	}
}

// partsFor is a Config for a session part tested alone (the REST client
// c, a fake clock, ws unused, cfg's other fields) and a reporter on it.
func partsFor(c *rest.Client, cfg Config) (*Config, *reporter) {
	cfg.REST, cfg.WSURL = c, "ws://unused"
	if cfg.Clock == nil {
		cfg.Clock = clock.NewFake(time.Unix(1_700_000_000, 0))
	}
	cfg.setDefaults()
	rep := &reporter{}
	rep.init(cfg.Now, slog.New(slog.DiscardHandler), Status{})
	return &cfg, rep
}
