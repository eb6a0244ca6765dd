package market

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/backoff"
	"bhtop/internal/clock"
	"bhtop/rest"
	"bhtop/state"
)

// Config configures a Client. REST and WSURL are required; zero durations
// take the defaults noted.
type Config struct {
	// REST is the account's REST client: quote calls share its rate
	// governor (they are security NONE: nothing is signed).
	REST *rest.Client
	// WSURL is the WebSocket base, e.g. ws://127.0.0.1:1234 (no path).
	WSURL string
	// State is the account's state hub: its balances, open orders and
	// positions decide which symbols are followed (Touched).
	State *state.Hub
	// ValueIn is the valuation asset (default USDT); Watch more symbols to
	// follow.
	ValueIn string
	Watch   []string
	// Hub receives the snapshots; New makes one when nil.
	Hub *Hub

	PingEvery    time.Duration // JSON ping cadence; default 30s (the service wants one within 5m, DESIGN.md 60s)
	ReadTimeout  time.Duration // a socket silent this long is replaced; default 90s
	BackoffBase  time.Duration // reconnect like the user stream: default 500ms
	BackoffCap   time.Duration // default 30s
	SlowRetry    time.Duration // after a 404 or a refused socket; default 1m
	PublishEvery time.Duration // snapshot coalescing; default 100ms
	// PublishIdle is the coalescing while no reader subscribes to the
	// Hub (the only readers then poll Latest: the All view, a scrape, a
	// dump); default 1s. A reader that subscribes is published to at
	// once (Hub.Joined).
	PublishIdle  time.Duration
	IndexEvery   time.Duration // contract/index poll; default 10s
	RecheckEvery time.Duration // how often a changed state may change the symbols; default 1s
	KlineLimit   int           // 1m bars fetched per symbol; default 240
	StateWait    time.Duration // at start, how long to wait for the account's first state; default 3s
	// KeepFor is how long a symbol that left the touched set stays
	// subscribed, hidden from the snapshots, so that coming back costs no
	// REST snapshot; default 2m, negative: dropped at once.
	KeepFor time.Duration

	Logger *slog.Logger
	// Clock runs the loop's ping, index and recheck tickers, the wait for
	// the account's first state and the waits between sessions; default
	// the real clock (tests pass a clock.Fake). The publish tick, a
	// coalescing of pushes, runs on real time. Now defaults to its Now.
	Clock  clock.Clock
	Now    func() time.Time
	Dialer *websocket.Dialer
}

func (c *Config) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&c.PingEvery, 30*time.Second)
	def(&c.ReadTimeout, 90*time.Second)
	def(&c.BackoffBase, backoff.DefaultBase)
	def(&c.BackoffCap, backoff.DefaultCap)
	def(&c.SlowRetry, time.Minute)
	def(&c.PublishEvery, 100*time.Millisecond)
	def(&c.PublishIdle, time.Second)
	def(&c.IndexEvery, 10*time.Second)
	def(&c.RecheckEvery, time.Second)
	def(&c.StateWait, 3*time.Second)
	if c.KeepFor == 0 {
		c.KeepFor = defaultKeepFor
	}
	if c.KlineLimit <= 0 {
		c.KlineLimit = 240
	}
	if c.ValueIn == "" {
		c.ValueIn = "USDT"
	}
	if c.Hub == nil {
		c.Hub = &Hub{}
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	c.Clock = clock.Or(c.Clock)
	if c.Now == nil {
		c.Now = c.Clock.Now
	}
	if c.Dialer == nil {
		d := *websocket.DefaultDialer
		d.HandshakeTimeout = 10 * time.Second
		c.Dialer = &d
	}
	if c.State == nil {
		c.State = &state.Hub{}
	}
}

// Stats counts what the client has read.
type Stats struct {
	Frames     int64 // text frames read
	Pushes     int64 // data pushes applied
	Malformed  int64 // frames that did not decode
	Skipped    int64 // data elements left out
	Reconnects int64
}

// Client follows the market of the symbols an account touches: a REST
// snapshot of each, then the quote WebSocket (realtimes, trade, depth,
// kline_1m), reconnecting with the user stream's backoff and resubscribing
// when the set of symbols changes. It never blocks the user stream: it
// only reads the state hub. When the quote endpoints answer 404 or the
// socket is refused, Health says so and it retries slowly.
type Client struct {
	cfg   Config
	store *Store

	frames, pushes, malformed, skipped, reconnects atomic.Int64

	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	// mu is held by whoever changes the store or writes to the socket
	// while a socket is open: the loop, and the socket's reader applying
	// a frame (see DESIGN.md). publishing (under mu) says the loop's
	// publish tick runs; publishWake asks the loop to restart it.
	mu          sync.Mutex
	publishing  bool
	publishWake chan struct{}

	// Owned by the loop goroutine.
	symbols   []string
	kept      map[string]time.Time    // left the touched set at; hidden, still subscribed
	extraBars []barSeries             // followed beyond the 1m bars, oldest first
	charts    []string                // symbols charts show, newest last (candles.go)
	wanted    []barSeries             // series charts asked for that have no bars yet
	loading   map[barSeries]bool      // series whose history is being fetched
	failed    map[barSeries]time.Time // when a series' last fetch failed
	results   chan func(*Store)
	barReqs   chan barSeries

	// followed is the symbol Follow names ("" none), read by touched;
	// followWake asks the loop to resubscribe after it changed.
	followMu   sync.Mutex
	followed   string
	followWake chan struct{}

	// shown is what Wants reads of the loop's symbols (set by follow);
	// recheckWake asks the loop to look at the state at once (Recheck).
	shown       atomic.Pointer[shownSet]
	recheckWake chan struct{}

	allTickers atomic.Int64 // ms of the last GET ticker/24hr without symbol
}

// New makes a client; Start runs it.
func New(cfg Config) (*Client, error) {
	if cfg.REST == nil || cfg.WSURL == "" {
		return nil, errors.New("market client: REST and WSURL are required")
	}
	cfg.setDefaults()
	c := &Client{cfg: cfg, results: make(chan func(*Store), 64), barReqs: make(chan barSeries, 8),
		kept: map[string]time.Time{}, loading: map[barSeries]bool{}, failed: map[barSeries]time.Time{}, publishWake: make(chan struct{}, 1),
		followWake: make(chan struct{}, 1), recheckWake: make(chan struct{}, 1)}
	c.store = NewStore(cfg.Hub, cfg.Now)
	c.store.SetHealth(false, "connecting")
	c.store.Publish()
	return c, nil
}

// Hub is where the client publishes market snapshots.
func (c *Client) Hub() *Hub { return c.cfg.Hub }

// Stats is a copy of the counters.
func (c *Client) Stats() Stats {
	return Stats{Frames: c.frames.Load(), Pushes: c.pushes.Load(), Malformed: c.malformed.Load(),
		Skipped: c.skipped.Load(), Reconnects: c.reconnects.Load()}
}

// Start runs the client in its own goroutine until Close.
func (c *Client) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.run(ctx)
	}()
}

// Close stops the client and waits for it.
func (c *Client) Close() {
	c.once.Do(func() {
		if c.cancel != nil {
			c.cancel()
		}
		c.wg.Wait()
	})
}

// errDegraded marks a service without market data: quote endpoints
// answering 404 or a refused socket. It is retried slowly.
type errDegraded struct{ reason string }

func (e *errDegraded) Error() string { return e.reason }

// run connects, follows and reconnects until ctx ends.
func (c *Client) run(ctx context.Context) {
	c.waitState(ctx)
	attempt := 0
	for ctx.Err() == nil {
		up, err := c.session(ctx)
		if ctx.Err() != nil {
			return
		}
		if up {
			attempt = 0
		}
		var deg *errDegraded
		var d time.Duration
		if errors.As(err, &deg) {
			c.store.SetHealth(false, deg.reason)
			d = c.cfg.SlowRetry
		} else {
			c.store.SetHealth(false, "reconnecting: "+clean(errText(err)))
			d = backoff.Delay(attempt, c.cfg.BackoffBase, c.cfg.BackoffCap, backoff.Jitter)
			attempt++
		}
		c.store.Publish()
		c.reconnects.Add(1)
		c.cfg.Logger.Info("market data down", "err", errText(err), "retry", d)
		if !clock.Sleep(c.cfg.Clock, ctx.Done(), d) {
			return
		}
	}
}

// waitState waits up to StateWait for the account's state, so the
// first snapshot and subscription already cover its symbols (later
// changes resubscribe anyway).
func (c *Client) waitState(ctx context.Context) {
	notices, unsub := c.cfg.State.Subscribe()
	defer unsub()
	t := c.cfg.Clock.NewTimer(c.cfg.StateWait)
	defer t.Stop()
	for !hasAccount(c.cfg.State.Latest()) {
		select {
		case <-notices:
		case <-t.C():
			return
		case <-ctx.Done():
			return
		}
	}
}

// hasAccount reports whether a state holds the account (a REST snapshot
// or an account event arrived), not just the stream's first status.
func hasAccount(s *state.Snapshot) bool {
	return s.Account != nil || len(s.Balances) > 0 || len(s.Positions) > 0
}

func errText(err error) string {
	if err == nil {
		return "closed"
	}
	return err.Error()
}

// clean keeps service-provided text printable and short.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x200e && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// session is one connected period: instruments, REST snapshot, socket,
// then the loop. up reports whether the socket was ever subscribed.
func (c *Client) session(ctx context.Context) (up bool, err error) {
	if len(c.store.Instruments()) == 0 {
		bi, err := c.cfg.REST.BrokerInfo(ctx)
		if err != nil {
			return false, fmt.Errorf("load instruments: %w", err)
		}
		c.store.SetInstruments(InstrumentsOf(bi))
	}
	c.forgetKept()
	c.follow(c.touched())
	apply, err := c.fetchSnapshot(ctx, c.store.Instruments(), c.symbols)
	if err != nil {
		return false, err
	}
	apply(c.store)
	c.store.Publish()
	sock, err := dial(ctx, c.cfg)
	if err != nil {
		return false, err
	}
	defer sock.close() // after the unlock below: the reader may wait for the lock
	var p Push
	sock.start(c.cfg.ReadTimeout, func(frame []byte) error { return c.ingest(frame, &p, sock) })
	if err := c.locked(func() error { return c.subscribeAll(ctx, sock) }); err != nil {
		return false, err
	}
	c.cfg.Logger.Info("market data up", "symbols", len(c.symbols))
	return true, c.loop(ctx, sock)
}

// subscribeAll subscribes a new socket to everything followed.
func (c *Client) subscribeAll(ctx context.Context, sock *socket) error {
	if err := sock.subscribe("sub", c.symbols); err != nil {
		return err
	}
	for _, b := range c.extraBars {
		if err := c.followBars(ctx, sock, b); err != nil {
			return err
		}
	}
	c.store.SetHealth(true, "")
	c.store.Publish()
	return nil
}

// locked runs step holding the lock.
func (c *Client) locked(step func() error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return step()
}

// touched is the symbols to follow now: the account's, the watch list
// and the one Follow names.
func (c *Client) touched() []string {
	watch := c.cfg.Watch
	c.followMu.Lock()
	if c.followed != "" {
		watch = append(slices.Clip(watch), c.followed)
	}
	c.followMu.Unlock()
	return Touched(c.cfg.State.Latest(), c.store.Instruments(), c.cfg.ValueIn, watch)
}

// Follow follows symbol's market too, as if it were watched, until Follow
// names another symbol or "" (none): the order form shows a symbol the
// account may not touch, with its live bid, ask and last. A symbol
// brokerInfo does not list is ignored. It never blocks; the quotes come
// with a later snapshot, and a symbol left is kept like any other
// (KeepFor) before it is dropped.
func (c *Client) Follow(symbol string) {
	c.followMu.Lock()
	changed := c.followed != symbol
	c.followed = symbol
	c.followMu.Unlock()
	if !changed {
		return
	}
	select {
	case c.followWake <- struct{}{}:
	default: // a wake is pending: the loop reads the newest symbol
	}
}

// loop serves the timers, REST answers and chart requests, each under
// the lock, until the socket ends (its reader applies the frames).
func (c *Client) loop(ctx context.Context, sock *socket) error {
	ping := c.cfg.Clock.NewTicker(c.cfg.PingEvery)
	defer ping.Stop()
	// The publish tick runs only while something waits to be published,
	// so a quiet socket does not wake the process ten times a second; a
	// push that finds it stopped wakes the loop (publishWake) to restart it.
	period := c.publishEvery()
	publish := time.NewTicker(period)
	defer publish.Stop()
	joined := c.cfg.Hub.Joined()
	index := c.cfg.Clock.NewTicker(c.cfg.IndexEvery)
	defer index.Stop()
	recheck := c.cfg.Clock.NewTicker(c.cfg.RecheckEvery)
	defer recheck.Stop()
	// The state is looked at every RecheckEvery (a new snapshot is a new
	// pointer) rather than subscribed to: a subscriber woken by every
	// publish would make the stream's writer snapshot every frame (see
	// hub.Waiting) for a flag read every RecheckEvery.
	var seen *state.Snapshot // nil: the state may have changed before the loop
	_ = c.locked(func() error { c.publishing = true; c.fetchIndex(ctx); return nil })

	for {
		var step func() error
		select {
		case <-ctx.Done():
			// What waited for the tick is published: a dump reads the
			// hub after Close.
			_ = c.locked(func() error { c.store.Publish(); return nil })
			return ctx.Err()
		case err := <-sock.done:
			return err
		case f := <-c.results:
			step = func() error { f(c.store); return nil }
		case req := <-c.barReqs:
			step = func() error { return c.addBars(ctx, sock, req) }
		case <-c.followWake:
			step = func() error { return c.resubscribe(ctx, sock) }
		case <-c.recheckWake:
			step = func() error {
				seen = c.cfg.State.Latest() // what touched reads, or older
				return c.resubscribe(ctx, sock)
			}
		case <-publish.C:
			step = func() error {
				if !c.store.dirty {
					publish.Stop()
					c.publishing = false
				}
				c.store.Publish()
				return nil
			}
		case <-c.publishWake:
			step = func() error { return nil } // the tick restarts below
		case <-joined:
			step = func() error { c.store.Publish(); return nil } // a new reader sees the newest at once
		case <-ping.C():
			step = func() error {
				if err := sock.ping(c.cfg.Now().UnixMilli()); err != nil {
					return fmt.Errorf("ping the quote socket: %w", err)
				}
				return nil
			}
		case <-index.C():
			step = func() error { c.fetchIndex(ctx); return nil }
		case <-recheck.C():
			step = func() error {
				if now := c.cfg.State.Latest(); now != seen {
					seen = now
					if err := c.resubscribe(ctx, sock); err != nil {
						return err
					}
				}
				c.retryBars(ctx)
				return c.dropExpired(sock)
			}
		}
		err := c.locked(func() error {
			if err := step(); err != nil {
				return err
			}
			if every := c.publishEvery(); !c.publishing && c.store.dirty || c.publishing && every != period {
				period = every
				publish.Reset(period)
				c.publishing = true
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
}

// publishEvery is how long a change may wait to be published:
// PublishEvery while a reader subscribes to the hub, PublishIdle while
// none does, since a snapshot every PublishEvery would then be built for
// no one.
func (c *Client) publishEvery() time.Duration {
	if c.cfg.Hub.Subscribed() {
		return c.cfg.PublishEvery
	}
	return max(c.cfg.PublishIdle, c.cfg.PublishEvery)
}

// ingest decodes one frame and applies it under the lock; the socket's
// reader calls it, with a Push of its own.
func (c *Client) ingest(frame []byte, p *Push, sock *socket) error {
	c.frames.Add(1)
	if err := DecodeFrame(frame, p); err != nil {
		c.malformed.Add(1)
		c.cfg.Logger.Debug("malformed quote frame", "err", err, "len", len(frame))
		return nil
	}
	c.skipped.Add(int64(p.Skipped))
	switch p.Kind {
	case FramePush:
		c.mu.Lock()
		c.store.ApplyPush(p)
		wake := !c.publishing && c.store.dirty
		c.mu.Unlock()
		c.pushes.Add(1)
		if wake {
			select {
			case c.publishWake <- struct{}{}:
			default: // already woken
			}
		}
	case FramePing:
		return c.locked(func() error { return sock.pong(p.PingText) })
	case FrameOther:
		if p.Code != "" && p.Code != "0" {
			c.cfg.Logger.Warn("quote socket error reply", "code", p.Code, "msg", clean(p.Msg))
		}
	}
	return nil
}

// resubscribe follows a changed set of symbols: hide the ones gone (kept
// for KeepFor, see dropExpired), show again the ones kept, subscribe and
// snapshot the new ones.
func (c *Client) resubscribe(ctx context.Context, sock *socket) error {
	now := c.touched()
	if slices.Equal(now, c.symbols) {
		return nil
	}
	var gone, added []string
	for _, s := range c.symbols {
		if !slices.Contains(now, s) {
			gone = append(gone, s)
		}
	}
	for _, s := range now {
		if !slices.Contains(c.symbols, s) {
			added = append(added, s)
		}
	}
	c.keep(gone)
	if err := c.dropExpired(sock); err != nil {
		return err
	}
	// After the drop: one back just as its KeepFor ends, cancelled and
	// forgotten above, takes its pushes again (Expect).
	c.follow(now)
	back := len(added)
	added = c.unkeep(added)
	back -= len(added)
	if back > 0 {
		c.store.Publish() // a new order's row has its Last at once
	}
	if len(added) > 0 {
		if err := sock.subscribe("sub", added); err != nil {
			return err
		}
		ins := c.store.Instruments()
		c.background(ctx, func(ctx context.Context) (func(*Store), error) {
			apply, err := c.fetchSnapshot(ctx, ins, added)
			if err != nil {
				return nil, err
			}
			// Published when applied: a new symbol's first quotes do not
			// wait for the publish tick.
			return func(s *Store) { apply(s); s.Publish() }, nil
		})
	}
	// Open orders come and go every second on a busy account: only a new
	// subscription is worth an Info line; hiding and showing kept symbols
	// is Debug.
	level := slog.LevelDebug
	if len(added) > 0 {
		level = slog.LevelInfo
	}
	c.cfg.Logger.Log(ctx, level, "market symbols changed", "added", added, "back", back, "gone", gone)
	return nil
}

// background runs fetch in its own goroutine; the function it returns is
// applied by the loop, under the lock.
func (c *Client) background(ctx context.Context, fetch func(context.Context) (func(*Store), error)) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		apply, err := fetch(ctx)
		if err != nil {
			c.cfg.Logger.Debug("market REST call failed", "err", err)
			return
		}
		if apply == nil {
			return
		}
		select {
		case c.results <- apply:
		case <-ctx.Done():
		}
	}()
}

// fetchIndex polls contract/index when a followed symbol is a contract.
func (c *Client) fetchIndex(ctx context.Context) {
	ins := c.store.Instruments()
	if !slices.ContainsFunc(c.symbols, func(s string) bool { return ins[s].Contract }) {
		return
	}
	c.background(ctx, func(ctx context.Context) (func(*Store), error) {
		ci, err := c.cfg.REST.ContractIndex(ctx, "")
		if err != nil {
			return nil, err
		}
		return func(s *Store) { s.SetIndex(ci.Index) }, nil
	})
}
