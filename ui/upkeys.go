package ui

import "time"

// upstreamKeySpacing is the least time between two resyncs (r), or two
// keepalives (K), of one account asked from the keyboard: a key held
// down repeats 30 times a second, and each resync spends the account's
// request weight (all of it in a few seconds) while the stream's fold
// waits behind the queued ones.
const upstreamKeySpacing = 5 * time.Second

// upstreamOp is a request a key asks of the account's backend.
type upstreamOp int

const (
	opResync upstreamOp = iota
	opKeepalive
)

// upstreamKey is when a backend was last asked for an op, and whether
// that request is still running.
type upstreamKey struct {
	at   time.Time
	busy bool
}

// upstreamKeys are the backends' upstreamKey, shared by the Model's
// copies (Update runs one at a time).
type upstreamKeys map[upstreamKeyID]*upstreamKey

type upstreamKeyID struct {
	b  Backend
	op upstreamOp
}

// take starts op on b at now, or says why not (running, or asked less
// than upstreamKeySpacing ago).
func (u upstreamKeys) take(b Backend, op upstreamOp, now time.Time) (why string) {
	k := u[upstreamKeyID{b, op}]
	if k == nil {
		k = &upstreamKey{}
		u[upstreamKeyID{b, op}] = k
	}
	switch {
	case k.busy:
		return "still running"
	case !k.at.IsZero() && now.Sub(k.at) < upstreamKeySpacing:
		left := (upstreamKeySpacing - now.Sub(k.at) + time.Second - 1).Truncate(time.Second)
		return "asked " + now.Sub(k.at).Truncate(time.Second).String() + " ago: again in " + left.String()
	}
	k.at, k.busy = now, true
	return ""
}

// done marks op on b as answered.
func (u upstreamKeys) done(b Backend, op upstreamOp) {
	if k := u[upstreamKeyID{b, op}]; k != nil {
		k.busy = false
	}
}
