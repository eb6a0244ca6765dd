package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"bhtop/config"
	"bhtop/journal"
	"bhtop/market"
	"bhtop/metrics"
	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/ui"
)

// errNeedsCredentials is a usage error: a base URL was given without the
// key pair to use it.
var errNeedsCredentials = errors.New("needs credentials: set BHTOP_API_KEY and BHTOP_SECRET_KEY (or --secret-file)")

// upstreamExitCode is the exit code of a command whose upstream could not
// be opened: a usage error when credentials are missing, else a failure.
func upstreamExitCode(err error) int {
	if errors.Is(err, errNeedsCredentials) {
		return ExitUsage
	}
	return ExitFail
}

// upstream is the one user-stream session a command reads (dashboard,
// dump, serve): on the configured account, or, without credentials, on a
// simulator started in-process. Close ends it in the right order.
type upstream struct {
	sess      *stream.Session
	market    *market.Client // nil with --no-market
	valueIn   string
	simulated bool
	closers   []func() // in opening order; Close runs them backwards
	record    *sink    // the --record journal; nil without one
	// end is the session's status as Close found it, just before
	// stopping it: the state the last snapshot (read after Close) has.
	end stream.Status
}

// EndStatus is how the user stream was when Close stopped its session
// (as the state read after Close is): a stream that was down at the end
// of a run but live again by its shutdown is live. Valid after Close.
func (u *upstream) EndStatus() stream.Status { return u.end }

// RecordErr is the --record journal's first write error (a full disk),
// nil when every frame was recorded. Final after Close.
func (u *upstream) RecordErr() error { return u.record.Err() }

// upstreamOptions say how to open an upstream.
type upstreamOptions struct {
	simActivity float64 // events/s of the in-process simulator
	simResting  int     // resting orders its demo account starts with
	// trade builds a rest.Trader for the session. Read-only wiring leaves
	// it false, and then no code path can place or cancel an order.
	trade bool
	// simulated says conn points at an in-process simulator opened by the
	// caller (several accounts share one): the header says SIMULATED.
	simulated bool
	logger    *slog.Logger
	metrics   *metrics.Registry // counts the REST client's requests; nil: none
	// limits are the request weight and 429/418 gates the REST client
	// shares with the other accounts of its host; nil: its own.
	limits *rest.HostLimits
	// getenv finds the state directory of the gate files (gatefile.go):
	// openAccounts makes each host's limits keep their gates there. Nil:
	// the gates stay in the process.
	getenv func(string) string
	// name is the account's name with several accounts ("" with one):
	// the session says it to the others of its host waiting for the turn.
	name string
}

// openUpstream builds the session; the caller Starts it. It fails with an error
// wrapping errNeedsCredentials when a base URL comes without credentials.
func openUpstream(ctx context.Context, conn config.Conn, o upstreamOptions) (*upstream, error) {
	u := &upstream{simulated: o.simulated}
	if !conn.HasCredentials() {
		if conn.BaseURL != "" {
			return nil, fmt.Errorf("%s %w", conn.BaseURL, errNeedsCredentials)
		}
		srv := sim.New(sim.Options{Activity: o.simActivity, RestingOrders: o.simResting})
		if err := srv.Start(); err != nil {
			return nil, fmt.Errorf("start the simulator: %w", err)
		}
		u.closers = append(u.closers, func() { _ = srv.Close() })
		conn.BaseURL, conn.WSURL, conn.APIKey, conn.Secret = srv.URL(), srv.WSURL(), srv.APIKey(), srv.Secret()
		u.simulated = true
		o.logger.Info("no credentials: using the built-in simulator", "url", srv.URL())
	}
	cfg, record, err := sessionConfig(conn, o.logger, u.simulated, o.trade, o.metrics, o.limits)
	if err != nil {
		u.Close()
		return nil, err
	}
	cfg.Name = o.name
	u.record = record
	u.closers = append(u.closers, func() { _ = record.Close() })
	// The server's clock is measured by the session's first keyed
	// request (rest.Client measures on demand), never here: a slow or
	// unanswering service, or a 429/418 gate, would hold the
	// dashboard's first frame (and q) for the request timeout.
	u.valueIn = conn.ValueIn
	if !conn.NoMarket {
		// The market client reads the session's hub, and the session
		// tells it of new symbols (an order on a symbol not followed yet).
		cfg.Hub = &state.Hub{}
		mc, err := market.New(market.Config{REST: cfg.REST, WSURL: cfg.WSURL, State: cfg.Hub,
			ValueIn: conn.ValueIn, Watch: conn.Watch, Logger: o.logger})
		if err != nil {
			u.Close()
			return nil, fmt.Errorf("start the market client: %w", err)
		}
		u.market, cfg.Symbols = mc, mc
	}
	sess, err := stream.New(cfg)
	if err != nil {
		u.Close()
		return nil, fmt.Errorf("start the user stream: %w", err)
	}
	u.sess = sess
	return u, nil
}

// Start starts the user stream, then the market client beside it (which
// only reads the stream's state: the stream never waits for it).
func (u *upstream) Start() {
	u.sess.Start()
	if u.market != nil {
		u.market.Start()
	}
}

// MarketHub is the market client's hub, nil with --no-market.
func (u *upstream) MarketHub() *market.Hub {
	if u.market == nil {
		return nil
	}
	return u.market.Hub()
}

// uiOptions are the dashboard options the upstream implies: the market
// hub, the valuation asset and the chart's bar loader, when there is
// market data.
func (u *upstream) uiOptions() []ui.Option {
	if u.market == nil {
		return nil
	}
	return []ui.Option{ui.WithMarket(u.market.Hub(), u.valueIn), ui.WithCandles(u.market)}
}

// Close stops the market client, closes the session (DELETE of its
// listenKeys), then the journal, then the simulator. It returns the session's closing error.
func (u *upstream) Close() error {
	var err error
	if u.market != nil {
		u.market.Close()
	}
	if u.sess != nil {
		u.end = u.sess.Status()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err = u.sess.Close(ctx)
		cancel()
		u.sess = nil
	}
	for i := len(u.closers) - 1; i >= 0; i-- {
		u.closers[i]()
	}
	u.closers = nil
	return err
}

// sessionConfig builds the session configuration from the connection
// settings, and opens the --record journal (nil without one). A
// rest.Trader is made only when trade is set; reg, when not nil, counts the
// client's requests; limits, when not nil, are the weight and gates it
// shares with the other accounts of its host.
func sessionConfig(conn config.Conn, logger *slog.Logger, simulated, trade bool, reg *metrics.Registry, limits *rest.HostLimits) (stream.Config, *sink, error) {
	opts := append(conn.RESTOptions(), rest.WithLogger(logger), rest.WithSharedLimits(limits))
	if hook := reg.RequestHook(); hook != nil {
		opts = append(opts, rest.WithRequestHook(hook))
	}
	client := rest.New(conn.BaseURL, opts...)
	cfg := stream.Config{
		REST: client, WSURL: conn.WSURL, Keepalive: conn.Keepalive, Rotate: conn.Rotate,
		Logger: logger, Simulated: simulated,
	}
	if cfg.WSURL == "" {
		cfg.WSURL = config.WSFromBase(conn.BaseURL)
	}
	if u, err := url.Parse(conn.BaseURL); err == nil && !simulated {
		cfg.Host = u.Host
	}
	if trade {
		cfg.Trader = rest.NewTrader(client)
	}
	if conn.Record == "" {
		return cfg, nil, nil
	}
	record, err := openSink("--record", conn.Record, nil)
	if err != nil {
		return cfg, nil, fmt.Errorf("open the journal: %w", err)
	}
	cfg.Journal = journal.NewWriter(record, nil)
	return cfg, record, nil
}
