package rest

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"bhtop/api"
)

// Sentinel errors. Every error the client returns for a service reply
// wraps an *APIError (errors.As) and, where one fits, one of these
// (errors.Is), so callers branch on meaning rather than on codes.
var (
	// ErrRateLimited: a request limit was reached. Either the service
	// answered 429 (and nothing is sent until its Retry-After has passed),
	// or the client-side governor could not fit the request before the
	// context's deadline. The error is a *BackoffError saying until when.
	ErrRateLimited = errors.New("rate limited")
	// ErrBanned: the service answered 418 (IP auto-banned); nothing is sent
	// until the ban ends. The error is a *BackoffError saying until when.
	ErrBanned = errors.New("banned by the service")
	// ErrUnauthorized: API key missing (-1002).
	ErrUnauthorized = errors.New("API key missing")
	// ErrBadKeyFormat: API key malformed (-2014).
	ErrBadKeyFormat = errors.New("API key malformed")
	// ErrKeyRejected: unknown API key, or one without the permission the
	// endpoint needs (-2015).
	ErrKeyRejected = errors.New("API key rejected")
	// ErrInvalidTimestamp: the timestamp failed the timing rule (-1021).
	ErrInvalidTimestamp = errors.New("timestamp outside recvWindow")
	// ErrInvalidSignature: the signature did not verify (-1022).
	ErrInvalidSignature = errors.New("invalid signature")
	// ErrInvalidListenKey: the listenKey is unknown, expired or closed (-1125).
	ErrInvalidListenKey = errors.New("invalid listenKey")
	// ErrNoSuchOrder: the order does not exist (-2013).
	ErrNoSuchOrder = errors.New("no such order")
	// ErrServer: the service answered 5XX (for order-changing requests the
	// execution status is then unknown).
	ErrServer = errors.New("service error")
	// ErrNoCredentials: a keyed call on a client built without an API key
	// (or a signed call without a secret).
	ErrNoCredentials = errors.New("no API credentials configured")
)

// codeSentinels maps service codes to the sentinel they mean.
var codeSentinels = map[int]error{
	api.CodeUnauthorized:     ErrUnauthorized,
	api.CodeBadAPIKeyFmt:     ErrBadKeyFormat,
	api.CodeRejectedKey:      ErrKeyRejected,
	api.CodeInvalidTimestamp: ErrInvalidTimestamp,
	api.CodeInvalidSignature: ErrInvalidSignature,
	api.CodeInvalidListenKey: ErrInvalidListenKey,
	api.CodeNoSuchOrder:      ErrNoSuchOrder,
}

// hints are what a person can do about a code.
var hints = map[int]string{
	api.CodeUnauthorized:     "set the API key (" + keyFromMark + ")",
	api.CodeBadAPIKeyFmt:     "the API key must be 1-256 letters, digits, '-' or '_': check " + keyFromMark,
	api.CodeRejectedKey:      "API key unknown or lacks the permission this call needs: check " + keyFromMark + " and the key's permissions",
	api.CodeInvalidTimestamp: "clock off by more than recvWindow: run SyncTime / check NTP, or raise --recv-window",
	api.CodeInvalidSignature: "signature rejected: the secret key does not match the API key (check BHTOP_SECRET_KEY, --secret-file or the config file)",
	api.CodeInvalidListenKey: "listenKey expired or closed: create a new one",
	api.CodeTooManyRequests:  "too many requests: slow down and honour Retry-After",
	api.CodeTooManyOrders:    "too many orders: slow down",
}

// Is makes errors.Is(err, ErrKeyRejected) and friends work on an
// *APIError by its code and HTTP status.
func (e *APIError) Is(target error) bool {
	if s, ok := codeSentinels[e.Code]; ok && s == target {
		return true
	}
	switch {
	case target == ErrRateLimited:
		return e.HTTPStatus == 429
	case target == ErrBanned:
		return e.HTTPStatus == 418
	case target == ErrServer:
		return e.HTTPStatus >= 500
	}
	return false
}

// keyFromMark stands in a hint for where the API key came from.
const keyFromMark = "BHTOP_API_KEY"

// KeySource is where the API key came from, as a hint names it:
// BHTOP_API_KEY when the client was not told.
func (e *APIError) KeySource() string {
	if e.KeyFrom != "" {
		return e.KeyFrom
	}
	return keyFromMark
}

// Hint is advice a person can act on for this error, or "".
func (e *APIError) Hint() string {
	if h, ok := hints[e.Code]; ok {
		return strings.ReplaceAll(h, keyFromMark, e.KeySource())
	}
	switch {
	case e.HTTPStatus >= 300 && e.HTTPStatus <= 399:
		return "the service redirects: use the address it redirects to as the base URL (--base-url / BHTOP_BASE_URL)"
	case e.HTTPStatus == 404 && e.Code == 0:
		return "no such endpoint: check that the base URL (--base-url / BHTOP_BASE_URL) is the exchange's REST API"
	case e.HTTPStatus == 418:
		return "banned for ignoring rate limits: wait for the ban to end"
	case e.HTTPStatus == 429:
		return "rate limited: wait for Retry-After"
	case e.HTTPStatus >= 500:
		return "service-side error: an order-changing request may still have taken effect"
	}
	return ""
}

// BackoffError is returned while the client must not send: after a 429
// (Err is ErrRateLimited) or a 418 (Err is ErrBanned), or when the local
// governor cannot fit a request before the context's deadline. Cause is
// the service's reply when there was one.
type BackoffError struct {
	Err   error
	Until time.Time // local time at which sending may resume
	Cause *APIError // nil when no reply caused it (local governor or a standing gate)
	Local bool      // true: the client-side governor refused, the service was not asked
	// Now is when the error was made, to say how long is left (zero: only
	// Until is said).
	Now time.Time
}

func (e *BackoffError) Error() string {
	until := e.Until.UTC().Format("15:04:05") + " UTC"
	var s string
	switch {
	case e.Err == ErrBanned:
		s = "banned by the service (HTTP 418) until " + until
		if left := e.left(); left > 0 {
			s += fmt.Sprintf(" (retry after %s)", left)
		}
	default:
		s = "rate limited by the service"
		if e.Local {
			s = "client-side rate limit reached"
		}
		if left := e.left(); left > 0 {
			s += fmt.Sprintf(": retry after %s (at %s)", left, until)
		} else {
			s += ": retry after " + until
		}
	}
	if e.Cause != nil {
		s += " (" + e.Cause.Error() + ")"
	}
	return s
}

// Brief says what holds the requests and until when, in UTC, without
// how long is left (which a status shown for a while would make stale):
// "rate limited by the service until 14:02:11 UTC", "banned by the
// service (HTTP 418) until 14:02:11 UTC".
func (e *BackoffError) Brief() string {
	until := " until " + e.Until.UTC().Format("15:04:05") + " UTC"
	switch {
	case e.Err == ErrBanned:
		return "banned by the service (HTTP 418)" + until
	case e.Local:
		return "client-side rate limit reached" + until
	}
	return "rate limited by the service" + until
}

// left is the time from Now to Until rounded up to whole seconds; 0
// without Now or when Until has passed.
func (e *BackoffError) left() time.Duration {
	if e.Now.IsZero() || !e.Until.After(e.Now) {
		return 0
	}
	d := e.Until.Sub(e.Now)
	return (d + time.Second - 1).Truncate(time.Second)
}

// Unwrap gives both the sentinel and the service's reply.
func (e *BackoffError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// notSentError marks a failure before any byte of the request left the
// process: the request certainly had no effect.
type notSentError struct{ err error }

func (e *notSentError) Error() string { return e.err.Error() }
func (e *notSentError) Unwrap() error { return e.err }

// NotSent reports whether err certainly happened before the request was
// sent (so an order-changing request had no effect).
func NotSent(err error) bool {
	var ns *notSentError
	return errors.As(err, &ns)
}
