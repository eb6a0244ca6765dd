package upstream

import (
	"sync"
	"time"
)

// NoteKind says what a Note is about; the events pane colours by it.
type NoteKind string

// Note kinds.
const (
	NoteFill      NoteKind = "fill"
	NoteOrder     NoteKind = "order" // new, cancel, reject, pending, unknown
	NoteConnect   NoteKind = "connect"
	NoteKeepalive NoteKind = "keepalive"
	NoteResync    NoteKind = "resync"
	NoteError     NoteKind = "error"
	NoteInfo      NoteKind = "info"
	NoteAlert     NoteKind = "alert" // an alert rule fired (the dashboard's alerts)
)

// Note is one line of the events pane: something that happened, said so a
// person can read it. Text never holds a secret or a signature.
type Note struct {
	Seq  uint64
	Time time.Time
	Kind NoteKind
	Text string
}

// NoteLog is a bounded, concurrency-safe log of Notes: the newest Cap are
// kept. The zero value keeps 1000.
type NoteLog struct {
	Cap int

	mu    sync.Mutex
	seq   uint64
	notes []Note // ring, oldest first after trimming
}

// Add appends a note and returns its sequence number (from 1). The text is
// made safe to print first (no control characters, one line, capped):
// notes quote what the service sent.
func (l *NoteLog) Add(now time.Time, kind NoteKind, text string) uint64 {
	text = Sanitize(text, LineMax)
	l.mu.Lock()
	defer l.mu.Unlock()
	capacity := l.Cap
	if capacity <= 0 {
		capacity = 1000
	}
	l.seq++
	l.notes = append(l.notes, Note{Seq: l.seq, Time: now, Kind: kind, Text: text})
	if len(l.notes) > capacity*2 {
		l.notes = append(l.notes[:0:0], l.notes[len(l.notes)-capacity:]...)
	}
	return l.seq
}

// Since returns the kept notes with Seq > after, oldest first (a copy), and
// the newest sequence number.
func (l *NoteLog) Since(after uint64) ([]Note, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	capacity := l.Cap
	if capacity <= 0 {
		capacity = 1000
	}
	start := len(l.notes) - capacity
	if start < 0 {
		start = 0
	}
	var out []Note
	for _, n := range l.notes[start:] {
		if n.Seq > after {
			out = append(out, n)
		}
	}
	return out, l.seq
}
