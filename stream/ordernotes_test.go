package stream

import (
	"fmt"
	"testing"
	"time"

	"bhtop/state"
)

// TestOrderNotesRateLimit: orderNotes alone (no session) writes at most
// maxChangeNotes order notes a second and sums up the rest in one line
// when the next second's notes come.
func TestOrderNotesRateLimit(t *testing.T) {
	var log NoteLog
	now := time.Unix(1_700_000_000, 0)
	n := orderNotes{log: &log, now: func() time.Time { return now }}
	n.notePublished(&state.Snapshot{Orders: state.NewOrderRows(order("spot", "1", "NEW", "0"))})
	var burst []*state.Order
	for i := range maxChangeNotes + 5 {
		burst = append(burst, order("spot", fmt.Sprint(100+i), "NEW", "0"))
	}
	n.notePublished(&state.Snapshot{Orders: state.NewOrderRows(burst...)})
	if notes, _ := log.Since(0); len(notes) != maxChangeNotes {
		t.Fatalf("%d notes in the first second, want %d", len(notes), maxChangeNotes)
	}
	now = now.Add(time.Second)
	n.notePublished(&state.Snapshot{Orders: state.NewOrderRows(burst...)})
	notes, _ := log.Since(0)
	if last := notes[len(notes)-1].Text; last != "… and 5 more order updates" {
		t.Errorf("summary = %q, want the 5 skipped", last)
	}
}
