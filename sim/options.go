package sim

import (
	"io"
	"time"

	"bhtop/internal/clock"
	"bhtop/signer"
)

// Key is one API key the simulator accepts, with the security types
// (SPEC.md: TRADE, USER_DATA, USER_STREAM, MARKET_DATA) it may use. Empty
// Perms means all of them.
type Key struct {
	APIKey string
	Secret signer.Secret
	Perms  []string
}

// Faults switches on the misbehaviours the real service is allowed, so
// that clients can be tested against them. The zero value is a well-behaved
// exchange.
type Faults struct {
	// ReorderWindow delivers user-stream events out of order within this
	// window (events are held up to this long and released shuffled).
	ReorderWindow time.Duration
	// DuplicateRate is the fraction of events (0..1) delivered twice.
	DuplicateRate float64
	// DropEvery closes every user-stream connection after this long
	// (without a close frame), on top of ConnMaxAge.
	DropEvery time.Duration
	// ArrayFrames wraps events in JSON arrays (of one or more) as the
	// official SDK reads them.
	ArrayFrames bool
	// OptionalFields includes SPEC.md's optional (commented-out) fields.
	OptionalFields bool
	// NoTradeIDs leaves the trade id (t, optional in SPEC.md) out of the
	// execution reports of fills; myTrades records still carry it.
	NoTradeIDs bool
	// OrderErrorRate is the fraction (0..1) of order-changing requests
	// (create, cancel) answered with OrderErrorStatus (default 504).
	OrderErrorRate   float64
	OrderErrorStatus int
	// OrderErrorTakesEffect: the failed-looking request was carried out
	// anyway (the order exists / is canceled), as a 5XX allows.
	OrderErrorTakesEffect bool
}

// Options configures a Server. Zero values take the defaults noted.
type Options struct {
	Addr     string  // listen address; default 127.0.0.1:0
	Seed     int64   // seeds the synthetic market and activity
	Keys     []Key   // default: one demo key with every permission
	Activity float64 // background order events per second on the demo account; 0 = none
	// RestingOrders is how many resting LIMIT orders the demo account
	// starts with, placed as the background activity places them (which
	// may later fill or cancel them): a dashboard opened on a fresh
	// simulator has orders to show at once, not after the activity's
	// first one (200 ms at 5 events a second).
	RestingOrders int

	ListenKeyTTL time.Duration // default 60m
	ConnMaxAge   time.Duration // default 24h; the server cuts user-stream sockets at this age
	PingInterval time.Duration // JSON {"ping":N} to user-stream clients; default 30s

	Skew     time.Duration    // server clock = Now() + Skew
	Now      func() time.Time // default Clock.Now; tests pin or speed time
	BanScale float64          // multiplies 418 ban lengths (2 min..3 days); default 1
	// Clock times the user-stream connections' checks (the DropEvery
	// fault, ConnMaxAge, listenKey expiry, JSON pings, frames held by the
	// faults, an outage's cut); default the real clock. A test on a
	// clock.Fake passes it with its Now: a cut then comes on the Advance
	// that passes its time, not at a real-time check up to 250 ms later.
	Clock clock.Clock

	// RateLimits overrides brokerInfo's limits; zero fields keep the
	// defaults of API-FACTS.md (1500 weight/min, 20 orders/s, 350000/day).
	RateLimits RateLimits

	// RequestLog receives one JSON line per request (DESIGN.md); never a
	// secret. Nil logs nothing.
	RequestLog io.Writer

	// OnRequest is called once per answered request with its endpoint as
	// a route template ("GET /openapi/v1/account", "GET /openapi/ws/{listenKey}",
	// "other" for unknown paths: never a query, key or listenKey) and the
	// HTTP status, for metrics. It must be quick and safe for concurrent
	// use. Nil: none.
	OnRequest func(endpoint string, status int)

	Faults Faults

	// Limits bound connections and request sizes; zero fields take the
	// defaults of Limits.
	Limits Limits

	// MarketInterval is the step of the synthetic market (price walk and
	// fills of resting orders); default 500ms, negative disables it
	// (tests then drive the market by hand).
	MarketInterval time.Duration

	// MarketActivity is the simulated other traders' taker trades per
	// second on each symbol; default 2, negative none.
	MarketActivity float64

	// NoMarketData answers 404 on every quote endpoint and refuses the
	// quote socket, so clients can test their degraded path.
	NoMarketData bool

	// QuoteIdle closes a quote socket that sent no ping for this long;
	// default 5m.
	QuoteIdle time.Duration

	// MakerRate is the commission rate of a maker fill, a decimal; "" is
	// 0.0008. A negative rate is a rebate: the maker is paid, and its
	// fill's commission is negative, as the service reports one. New panics
	// on one that is not a decimal.
	MakerRate string

	// Accounts is the number of independent accounts (own balances,
	// orders, positions and key pair); default 1. The first is reached
	// with Keys; the others get seeded key pairs (see Server.Accounts).
	Accounts int
}

// RateLimits are the limits brokerInfo advertises and the server enforces,
// per API key and per IP.
type RateLimits struct {
	WeightPerMinute int
	OrdersPerSecond int
	OrdersPerDay    int
}
