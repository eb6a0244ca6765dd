// Package simtest starts the simulator for tests: on loopback, with its
// request log captured, and signed clients for it. The rest of the test
// kit (waits, sessions, logs, relays, tmux) is in testkit, which the
// simulator's own tests can import too. Imported by _test files only.
package simtest

import (
	"context"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/testkit"
	"bhtop/market"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
	"bhtop/state"
)

// Sim is a simulator running on 127.0.0.1 for one test, with the request
// log it writes (unless the options named their own).
type Sim struct {
	*sim.Server
	Log *testkit.RequestLog
}

// Start runs a simulator with opts, closed when the test ends. The market
// is stepped by hand (no fills unless a test asks) unless
// opts.MarketInterval says otherwise, and the request log goes to s.Log
// unless opts.RequestLog is set.
func Start(t testing.TB, opts sim.Options) *Sim {
	t.Helper()
	s := &Sim{Log: &testkit.RequestLog{}}
	if opts.RequestLog == nil {
		opts.RequestLog = s.Log
	}
	if opts.MarketInterval == 0 {
		opts.MarketInterval = -1
	}
	s.Server = sim.New(opts)
	if err := s.Server.Start(); err != nil {
		t.Fatalf("start the simulator: %v", err)
	}
	t.Cleanup(func() { _ = s.Server.Close() })
	return s
}

// StartOnClock is Start on a new fake clock, set to now to the ms (the
// simulator's times are ms): the simulator's TTLs, rate windows, event
// times and socket checks follow the clock, which the test moves. It
// returns both.
func StartOnClock(t testing.TB, opts sim.Options) (*Sim, *clock.Fake) {
	t.Helper()
	clk := clock.NewFake(time.Now().Truncate(time.Millisecond))
	return Start(t, OnFake(clk, opts)), clk
}

// OnFake is opts with the simulator's time and socket checks on clk.
func OnFake(clk *clock.Fake, opts sim.Options) sim.Options {
	opts.Now, opts.Clock = clk.Now, clk
	return opts
}

// Client is a REST client of the simulator signed with its first key
// pair; opts add to (and may override) those.
func (s *Sim) Client(opts ...rest.Option) *rest.Client { return Client(s.Server, opts...) }

// Client is a REST client of srv signed with its first key pair.
func Client(srv *sim.Server, opts ...rest.Option) *rest.Client {
	base := []rest.Option{rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret())}
	return rest.New(srv.URL(), append(base, opts...)...)
}

// ClientAs is a REST client of the simulator signed with the key pair
// apiKey, secret: another of its accounts' (Server.Accounts), or a wrong
// one; opts add to (and may override) those.
func (s *Sim) ClientAs(apiKey, secret string, opts ...rest.Option) *rest.Client {
	base := []rest.Option{rest.WithAPIKey(apiKey), rest.WithSecret(signer.NewSecret(secret))}
	return rest.New(s.URL(), append(base, opts...)...)
}

// SharedOnClock are OnClock's options for a client that shares host's
// request weight and 429/418 gates with the other clients of its host,
// and never resyncs its clock during a test (a resync's requests would
// spend weight the test counts); opts follow.
func SharedOnClock(clk *clock.Fake, host *rest.HostLimits, opts ...rest.Option) []rest.Option {
	return append(append(OnClock(clk), rest.WithSharedLimits(host), rest.WithResyncInterval(100*365*24*time.Hour)), opts...)
}

// OnClock are the options of a client timed by clk that also waits for
// its rate governor (pacing, 429 backoff) on clk, so a test moving clk
// lets it through without sleeping.
func OnClock(clk *clock.Fake) []rest.Option {
	return []rest.Option{rest.WithClock(clk.Now), rest.WithSleep(func(ctx context.Context, d time.Duration) error {
		if !clock.Sleep(clk, ctx.Done(), d) {
			return ctx.Err()
		}
		return nil
	})}
}

// Trader is an order sender on a signed client of the simulator.
func (s *Sim) Trader(opts ...rest.Option) *rest.Trader { return rest.NewTrader(s.Client(opts...)) }

// Market is a market client of srv for the account state in st, started
// with short test timings (tune adjusts the config first) and closed when
// the test ends. Its REST client is unsigned: the quote endpoints are
// public.
func Market(t testing.TB, srv *sim.Server, st *state.Hub, tune func(*market.Config)) *market.Client {
	t.Helper()
	cfg := market.Config{REST: rest.New(srv.URL()), WSURL: srv.WSURL(), State: st, ValueIn: "USDT",
		RecheckEvery: 50 * time.Millisecond, PublishEvery: 20 * time.Millisecond, PublishIdle: 20 * time.Millisecond, StateWait: time.Second,
		SlowRetry: 200 * time.Millisecond, BackoffBase: 50 * time.Millisecond, BackoffCap: 200 * time.Millisecond}
	if tune != nil {
		tune(&cfg)
	}
	c, err := market.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Start()
	t.Cleanup(c.Close)
	return c
}

// SpendWeight spends weight (a multiple of 5) of the minute's request
// weight on the simulator, as another program on the same IP would: with
// GET /openapi/v1/account requests of a client of its own, timed by now.
func (s *Sim) SpendWeight(t testing.TB, now func() time.Time, weight int) {
	t.Helper()
	c := s.Client(rest.WithClock(now))
	for range weight / 5 {
		if _, err := c.Account(context.Background()); err != nil {
			t.Fatalf("spending weight: %v", err)
		}
	}
}
