package stream

import (
	"log/slog"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/clock"
	"bhtop/internal/defaults"
	"bhtop/rest"
	"bhtop/state"
)

// FrameWriter receives every frame read from the socket, as received
// (journal.Writer is one). Write is called from the session's writer
// goroutine only.
type FrameWriter interface {
	Write(frame []byte) error
}

// Config configures a Session. REST and WSURL are required; zero durations
// take the defaults noted (SPEC.md's and DESIGN.md's), and tests shrink
// them to run in seconds.
type Config struct {
	// REST is the signed REST client (listenKeys, snapshots, queries).
	REST *rest.Client
	// Trader places and cancels orders. Nil makes the session read-only:
	// no code path can then send an order-changing request.
	Trader *rest.Trader
	// WSURL is the WebSocket base, e.g. ws://127.0.0.1:1234 (no path).
	WSURL string

	Keepalive time.Duration // PUT every this; default 30m
	Rotate    time.Duration // replace a connection older than this; default 23h30m
	MaxAge    time.Duration // the service's connection limit, for display; default 24h
	KeyTTL    time.Duration // a key's assumed validity after POST/PUT; default 60m

	BackoffBase time.Duration // first reconnect delay is below this; default 500ms
	BackoffCap  time.Duration // reconnect delay cap; default 30s
	// AuthRetry: a snapshot refused for the credentials (-1022, -2015,
	// -2014, -1002) is tried again this often; default 30s.
	AuthRetry time.Duration

	// ReadTimeout: a connection with nothing read (frame, pong) for this
	// long (at most 1/64 longer) is dead and replaced. Default 90s.
	// PingEvery is the WebSocket ping cadence that keeps a healthy one
	// talking; default ReadTimeout/3, at most 20s, so with PongWait a
	// frozen service is found within the service's own 30s ping interval.
	ReadTimeout time.Duration
	PingEvery   time.Duration
	// PongWait: a WebSocket ping with nothing read (pong, frame) for this
	// long after it means the service went silent: the connection is
	// given up, the error counted and the reason shown. Default
	// PingEvery/2, at most 10s.
	PongWait time.Duration
	// QuietActive: a socket with no event for this long although the
	// account is active (recent events or orders in flight) is replaced.
	// Default 2m. QuietMax: the same in any case; default 30m.
	QuietActive time.Duration
	QuietMax    time.Duration

	OpenOrdersLimit int           // limit of GET openOrders; default 1000
	QueryDelay      time.Duration // first query of an UNKNOWN order; default 2s
	PublishEvery    time.Duration // snapshot coalescing while busy; default 50ms
	// PublishIdle: the same while no reader subscribes to the Hub (its
	// readers only poll Latest); default 1s, PublishEvery at least.
	PublishIdle time.Duration
	InboxSize   int // frames queued between reader and writer; default 1024
	MaxHeld     int // frames held during a resync before giving up; default 200000

	Journal FrameWriter  // optional: --record
	Logger  *slog.Logger // optional
	// Clock times every lifecycle step (keepalive, rotation, reconnect
	// backoff, silence, UNKNOWN queries, resync retries) and stamps notes
	// and status; default the real clock. Tests pass a clock.Fake.
	Clock  clock.Clock
	Hub    *state.Hub   // optional: where snapshots are published; New makes one
	Store  *state.Store // optional: the store to fold into; New makes one
	Dialer *websocket.Dialer
	// Symbols, optional, follows the account's symbols (the market
	// client): see SymbolWatcher.
	Symbols SymbolWatcher

	Simulated bool   // the exchange is the in-process simulator (header: SIMULATED)
	Host      string // base URL host for the header
	// Name is the account's name ("" with one account): the others of
	// its host waiting for the turn it holds say so (Status).
	Name string
}

// Now is the time on c.Clock.
func (c *Config) Now() time.Time { return c.Clock.Now() }

func (c *Config) setDefaults() {
	defaults.Fill(&c.Keepalive, 30*time.Minute)
	defaults.Fill(&c.Rotate, 23*time.Hour+30*time.Minute)
	defaults.Fill(&c.KeyTTL, 60*time.Minute)
	defaults.Fill(&c.MaxAge, 24*time.Hour)
	defaults.Fill(&c.BackoffBase, 500*time.Millisecond)
	defaults.Fill(&c.BackoffCap, 30*time.Second)
	defaults.Fill(&c.AuthRetry, 30*time.Second)
	defaults.Fill(&c.ReadTimeout, 90*time.Second)
	defaults.Fill(&c.PingEvery, min(c.ReadTimeout/3, 20*time.Second))
	defaults.Fill(&c.PongWait, min(c.PingEvery/2, 10*time.Second))
	defaults.Fill(&c.QuietActive, 2*time.Minute)
	defaults.Fill(&c.QuietMax, 30*time.Minute)
	defaults.Fill(&c.QueryDelay, 2*time.Second)
	defaults.Fill(&c.PublishEvery, 50*time.Millisecond)
	defaults.Fill(&c.PublishIdle, time.Second)
	defaults.Fill(&c.OpenOrdersLimit, 1000)
	defaults.Fill(&c.InboxSize, 1024)
	defaults.Fill(&c.MaxHeld, 200000)
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.Clock = clock.Or(c.Clock)
	if c.Dialer == nil {
		c.Dialer = &websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 64 << 10}
	}
}

// SymbolWatcher follows the market of the account's symbols from the
// Hub's snapshots, looking at the state now and then (the market
// client). After each change the writer hands it the symbols of orders
// that opened and of positions that appeared, and the assets of balances
// that appeared (state.Store.TakeNewSymbols): when Wants answers true the
// writer publishes the snapshot at once and calls Recheck, so a new
// order's symbol is followed within a quote round trip, not at the next
// periodic look. Both run on the writer's goroutine: they must be cheap
// and never block.
type SymbolWatcher interface {
	Wants(symbols, assets []string) bool
	Recheck()
}
