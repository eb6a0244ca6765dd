package stream

import "bhtop/upstream"

// The values the session hands to the dashboard are upstream's; these
// names keep the stream's own code and its callers short.

// Status is the connection status for the header and status line.
type Status = upstream.Status

// ConnState is the connection's state as the header shows it.
type ConnState = upstream.ConnState

// The connection states and the note kinds.
const (
	StateConnecting, StateLive, StateResyncing  = upstream.StateConnecting, upstream.StateLive, upstream.StateResyncing
	StateReconnecting, StateClosed, StateReplay = upstream.StateReconnecting, upstream.StateClosed, upstream.StateReplay
	ReplayEnded                                 = upstream.ReplayEnded

	NoteFill, NoteOrder, NoteConnect, NoteKeepalive = upstream.NoteFill, upstream.NoteOrder, upstream.NoteConnect, upstream.NoteKeepalive
	NoteResync, NoteError, NoteInfo, NoteAlert      = upstream.NoteResync, upstream.NoteError, upstream.NoteInfo, upstream.NoteAlert
)

// Note is one line of the events pane; NoteLog keeps them.
type (
	Note     = upstream.Note
	NoteKind = upstream.NoteKind
	NoteLog  = upstream.NoteLog
)

// Service text is capped where it enters (serviceTextMax) and as a whole
// line (lineMax), and made safe to print by sanitize.
const (
	serviceTextMax = upstream.ServiceTextMax
	lineMax        = upstream.LineMax
)

func sanitize(s string, maxRunes int) string { return upstream.Sanitize(s, maxRunes) }
