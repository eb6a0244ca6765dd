// Package rest is the signed REST client of the exchange (SPEC.md and
// API-FACTS.md): timing, rate governing and typed errors in one place.
package rest

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"bhtop/signer"
)

// Client calls the exchange's REST endpoints. It is safe for concurrent
// use. Read-only calls are methods of Client; order-changing calls exist
// only on Trader, so read-only wiring has no way to send an order.
//
// Waiting: every request first passes the rate governor. When the route's
// weight (or an order) does not fit the limits, or a 429's Retry-After
// has not passed, the call waits if its context allows and otherwise
// fails at once with a *BackoffError matching ErrRateLimited, having sent
// nothing. During a 418 ban every call fails at once with ErrBanned.
type Client struct {
	base       string
	apiKey     string
	keyFrom    string // where apiKey came from, for the hints (WithKeySource)
	secret     signer.Secret
	recvWindow time.Duration
	timeout    time.Duration
	hc         *http.Client
	clock      func() time.Time
	sleep      func(ctx context.Context, d time.Duration) error
	log        *slog.Logger
	resyncEach time.Duration
	maxBody    int64
	hook       func(RequestInfo) // WithRequestHook; nil: none

	gov  *governor
	host *HostLimits // WithSharedLimits; nil: the client's own

	mu       sync.Mutex
	offset   time.Duration // server clock minus local clock
	syncedAt time.Time     // local time of the last successful sync; zero: never
	syncing  bool
	syncDone chan struct{} // closed when the measurement under way ends
	// syncFailed is when an automatic measurement last failed (zero:
	// none since the last success).
	syncFailed time.Time
}

// Option configures a Client.
type Option func(*Client)

// WithAPIKey sets the API key sent as X-BH-APIKEY on keyed calls.
func WithAPIKey(key string) Option { return func(c *Client) { c.apiKey = key } }

// WithKeySource says where the API key came from ("BHTOP_API_KEY", a
// config file's key), so that the hints of a rejected key name it.
func WithKeySource(src string) Option { return func(c *Client) { c.keyFrom = src } }

// WithSecret sets the secret key that signs TRADE and USER_DATA calls.
func WithSecret(s signer.Secret) Option { return func(c *Client) { c.secret = s } }

// WithRecvWindow sets recvWindow (default 5s), sent in whole ms.
func WithRecvWindow(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.recvWindow = d
		}
	}
}

// WithHTTPClient sets the HTTP client (default: an http.Client that never
// follows redirects, so a signed request never goes to another URL and a
// POST never turns into a GET). The per-request timeout comes from
// WithTimeout, not from it.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithClock sets the local clock (default time.Now). Timestamps are this
// clock corrected by the measured offset to the server.
func WithClock(now func() time.Time) Option {
	return func(c *Client) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithSleep sets how the client waits for the rate governor (default a
// timer of the real clock): with WithClock, tests wait on their clock.
// sleep returns ctx's error when ctx ends first.
func WithSleep(sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) {
		if sleep != nil {
			c.sleep = sleep
		}
	}
}

// WithLogger logs one line per request (method, path, status, code,
// duration); never the query, body, key, secret or signature.
func WithLogger(l *slog.Logger) Option {
	return func(c *Client) {
		if l != nil {
			c.log = l
		}
	}
}

// WithTimeout bounds each HTTP exchange (default 10s). Waiting for the
// rate governor is bounded by the caller's context instead.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.timeout = d
		}
	}
}

// WithResyncInterval sets how old the clock offset may grow before a
// timestamped call measures it again (default 5m).
func WithResyncInterval(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.resyncEach = d
		}
	}
}

// WithSharedLimits makes the client keep its request weight and its 429
// and 418 gates in h, shared with the other clients given the same h:
// clients of one host (scheme, host and port) should share one, since the
// service counts weight and bans per IP. ORDER limits stay the client's
// own. Default: the client's own HostLimits.
func WithSharedLimits(h *HostLimits) Option { return func(c *Client) { c.host = h } }

// New returns a client of the service at baseURL (scheme and host, no
// path: endpoints start at /openapi/...).
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		base:       strings.TrimRight(baseURL, "/"),
		recvWindow: 5 * time.Second,
		timeout:    10 * time.Second,
		hc:         &http.Client{CheckRedirect: noRedirects},
		clock:      time.Now,
		sleep:      sleepCtx,
		log:        slog.New(slog.DiscardHandler),
		resyncEach: 5 * time.Minute,
		maxBody:    8 << 20,
	}
	for _, o := range opts {
		o(c)
	}
	c.gov = newGovernor(c.host)
	return c
}

// BaseURL is the service's base URL.
func (c *Client) BaseURL() string { return c.base }

// Weight is the request weight spent in the current minute window and the
// limit the governor holds it to: with WithSharedLimits, the host's (all
// its clients').
func (c *Client) Weight() (used, limit int) { return c.gov.host.usage(c.clock()) }

// ErrTurnStopped: Turn's stop channel was closed before the turn came.
var ErrTurnStopped = errors.New("stopped waiting for the host's turn")

// Turn waits for the host's turn, shared by the clients of one
// HostLimits: one at a time, a holder waits with WeightWait for the
// weight of its requests and then spends it, while the others wait for
// the turn. WeightWait reserves nothing: without the turn, every client
// waiting for the same weight would wake when the window frees, and all
// but the first would find it spent. It fails when ctx ends or stop (nil:
// never) is closed first; on success the caller must call release.
func (c *Client) Turn(ctx context.Context, stop <-chan struct{}) (release func(), err error) {
	turn := c.gov.host.turn
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-stop:
		return nil, ErrTurnStopped
	}
}

// TryTurn takes the host's turn (as Turn does) when no other client of
// the host holds it; ok is false, and nothing taken, when one does.
func (c *Client) TryTurn() (release func(), ok bool) {
	turn := c.gov.host.turn
	select {
	case turn <- struct{}{}:
		return func() { <-turn }, true
	default:
		return nil, false
	}
}

// SetTurnHolder says, for the clients waiting for the host's turn
// (TurnHolder), what its holder does, e.g. "bot1 resyncing": called by
// the holder once it has the turn, and with "" before it releases it.
func (c *Client) SetTurnHolder(what string) { c.gov.host.holder.Store(&what) }

// TurnHolder is what the holder of the host's turn said it does
// (SetTurnHolder), "" when nothing was said.
func (c *Client) TurnHolder() string {
	if p := c.gov.host.holder.Load(); p != nil {
		return *p
	}
	return ""
}

// WeightWait is how long requests of weight units in all, sent now, would
// be paced before the last one could go: 0 when they fit the host's
// REQUEST_WEIGHT windows now. It reserves nothing (another request may
// take the room first) and leaves the 429/418 gates to Gate.
func (c *Client) WeightWait(weight int) time.Duration {
	h := c.gov.host
	now := c.clock()
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.weightFitAt(now, weight).Sub(now)
}

// BannedUntil is when the last 418 ban ends (zero or past: not banned).
func (c *Client) BannedUntil() time.Time { _, b := c.gov.host.gates(); return b }

// RetryAfter is when the last 429 backoff ends (zero or past: none).
func (c *Client) RetryAfter() time.Time { r, _ := c.gov.host.gates(); return r }

// SetRateLimits sets the limits the governor enforces (BrokerInfo does
// this from the service's rateLimits).
func (c *Client) SetRateLimits(l []RateLimit) { c.gov.setLimits(l) }

// noRedirects makes the HTTP client return a 3XX reply as it is.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// drain reads at most the cap of a body.
func (c *Client) readBody(r io.Reader) ([]byte, error) {
	return io.ReadAll(io.LimitReader(r, c.maxBody))
}
