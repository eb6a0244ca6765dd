package stream

import (
	"log/slog"
	"sync"
	"time"
)

// reporter is the session's status reporting: the Status the header and
// status line show, and the notes of the events log, both safe for any
// goroutine. It knows nothing of connections or keys; the session's parts
// tell it what happened. Lock order: a caller may hold Session.mu while
// calling it, never the reverse.
type reporter struct {
	now func() time.Time
	log *slog.Logger

	notes NoteLog

	mu     sync.Mutex
	status Status
}

// init sets the clock, the log and the first status.
func (r *reporter) init(now func() time.Time, log *slog.Logger, initial Status) {
	r.now, r.log, r.status = now, log, initial
}

// setStatus changes the status under the lock. Reason and LastError often
// quote the service, so they are made safe to print here.
func (r *reporter) setStatus(f func(st *Status)) {
	r.mu.Lock()
	f(&r.status)
	r.status.Reason = sanitize(r.status.Reason, lineMax)
	r.status.LastError = sanitize(r.status.LastError, lineMax)
	r.mu.Unlock()
}

// statusNow is a copy of the status as last set.
func (r *reporter) statusNow() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status
}

// note adds a line to the events log (and the log file).
func (r *reporter) note(kind NoteKind, text string) {
	text = sanitize(text, lineMax)
	r.notes.Add(r.now(), kind, text)
	r.log.Info(text, "kind", string(kind))
}

// noteError records an error: a note, the error count and the status.
func (r *reporter) noteError(text string) {
	text = sanitize(text, lineMax)
	r.notes.Add(r.now(), NoteError, text)
	r.log.Warn(text, "kind", string(NoteError))
	r.setStatus(func(st *Status) { st.Errors++; st.LastError = text })
}
