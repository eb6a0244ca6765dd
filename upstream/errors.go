package upstream

import "errors"

// ErrNotAnswered: a request to the connection (a resync) was not answered
// before its context ended; the error's text says what the connection was
// doing meanwhile (NotAnswered).
var ErrNotAnswered = errors.New("not answered in time")

// NotAnswered is ErrNotAnswered saying what the connection was doing:
// its text is "not answered in time: " and doing, and it wraps both
// ErrNotAnswered and ctxErr (the context's error) without repeating the
// latter's text.
func NotAnswered(doing string, ctxErr error) error {
	return &notAnswered{text: ErrNotAnswered.Error() + ": " + doing, ctxErr: ctxErr}
}

type notAnswered struct {
	text   string
	ctxErr error
}

func (e *notAnswered) Error() string   { return e.text }
func (e *notAnswered) Unwrap() []error { return []error{ErrNotAnswered, e.ctxErr} }
