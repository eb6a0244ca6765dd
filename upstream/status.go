// Package upstream is what the screen knows of the connection to the
// exchange: its state and status, and the events-log notes, with the text
// the service sent made safe to print. The stream produces these values
// and the dashboard reads them; neither reaches into the other.
package upstream

import "time"

// ConnState is the user stream connection's state as the header shows it.
type ConnState string

// The connection states.
const (
	StateConnecting   ConnState = "connecting"
	StateLive         ConnState = "live"
	StateResyncing    ConnState = "resyncing"
	StateReconnecting ConnState = "reconnecting"
	StateClosed       ConnState = "closed"
	// StateReplay: a journal is being played (`bhtop replay`); there is
	// no stream, listenKey or REST behind the state. Its Reason is ""
	// while the journal plays, ReplayEnded once all of it is folded, or
	// the error that stopped reading it.
	StateReplay ConnState = "replay"
)

// ReplayEnded is a replay's Reason once the whole journal is folded.
const ReplayEnded = "ended"

// Status is everything the header and status line show about the stream
// (DESIGN.md). It is a value: a Session hands out copies. Zero times mean
// "not yet".
type Status struct {
	State   ConnState
	Reason  string    // why it is reconnecting, closed, or resyncing without a snapshot, or why a replay is over; "" when live
	RetryAt time.Time // next reconnect attempt while reconnecting; next snapshot attempt while resyncing
	// NeedsAction: the failure in Reason will not fix itself (the
	// credentials or the key's permissions are wrong); show it prominently.
	NeedsAction bool

	Simulated bool   // the in-process simulator is the exchange
	Host      string // base URL host when not simulated
	ReadOnly  bool

	KeyCreated    time.Time // current listenKey's creation
	KeyExpires    time.Time // when it lapses without a keepalive
	LastKeepalive time.Time
	NextKeepalive time.Time

	ConnectedAt time.Time     // current WebSocket's open time
	ConnMaxAge  time.Duration // 24h on the real service
	Connects    int           // connections opened since start (1 = never reconnected)
	KeysCreated int           // listenKeys created since start

	LastFrame    time.Time // newest frame received
	LastSnapshot time.Time // newest REST resync applied

	EventsPerSec float64 // a display rate, not money
	ClockOffset  time.Duration

	WeightUsed  int // REQUEST_WEIGHT used in the current window
	WeightLimit int // 0 when unknown
	BannedUntil time.Time

	Errors    int    // errors since start
	LastError string // the newest, as a person can read it (never a secret)
}
