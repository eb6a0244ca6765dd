package stream

import "bhtop/upstream"

// The values the session hands to the dashboard are upstream's; these
// names keep the stream's own code and its callers short.

// Status is the connection status for the header and status line.
type Status = upstream.Status

// ConnState is the connection's state as the header shows it.
type ConnState = upstream.ConnState

// The connection states.
const (
	StateConnecting   = upstream.StateConnecting
	StateLive         = upstream.StateLive
	StateResyncing    = upstream.StateResyncing
	StateReconnecting = upstream.StateReconnecting
	StateClosed       = upstream.StateClosed
	StateReplay       = upstream.StateReplay
)

// Note is one line of the events pane; NoteLog keeps them.
type (
	Note     = upstream.Note
	NoteKind = upstream.NoteKind
	NoteLog  = upstream.NoteLog
)

// Note kinds.
const (
	NoteFill      = upstream.NoteFill
	NoteOrder     = upstream.NoteOrder
	NoteConnect   = upstream.NoteConnect
	NoteKeepalive = upstream.NoteKeepalive
	NoteResync    = upstream.NoteResync
	NoteError     = upstream.NoteError
	NoteInfo      = upstream.NoteInfo
)

// Service text is capped where it enters (serviceTextMax) and as a whole
// line (lineMax), and made safe to print by sanitize.
const (
	serviceTextMax = upstream.ServiceTextMax
	lineMax        = upstream.LineMax
)

func sanitize(s string, maxRunes int) string { return upstream.Sanitize(s, maxRunes) }
