// Package sim is a local exchange that speaks SPEC.md's REST, user data
// stream and quote API as strictly as the real service, for demos and
// tests.
package sim

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/defaults"
	"bhtop/signer"
	"bhtop/sim/quotews"
)

// The demo key pair: the one of the official docs' worked examples
// (API-FACTS.md), so their curl and openssl recipes work as written. It is
// public and grants access to nothing but a simulator.
const (
	DemoAPIKey = "tAQfOrPIZAhym0qHISRt8EFvxPemdBm5j5WMlkm3Ke9aFp0EGWC2CGM8GHV4kCYW"
	DemoSecret = "lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76"
)

// Server is the simulator: an HTTP server (REST and the user-stream
// WebSocket) over an in-memory exchange. Use New, then Start, then Close.
type Server struct {
	opts      Options
	*exchange // the matching engine's side: accounts, orders, books, tape

	keys    map[string]*keyInfo // API key -> key and its account
	limiter *limiter
	logMu   sync.Mutex

	// listenKeys are guarded by the exchange's mu.
	listenKeys map[string]*listenKey
	extra      []AccountKey // accounts 2..N and their keys

	streamDown atomic.Bool // SetUserStreamDown

	quotes *quotews.Server // the quote socket

	ln    net.Listener
	conns *capListener // ln with the connection cap
	srv   *http.Server
	ctx   context.Context // canceled by Close; ends every goroutine
	stop  context.CancelFunc
	wg    sync.WaitGroup
}

type keyInfo struct {
	Key
	perms   map[string]bool
	account *account
}

// New returns a simulator configured by opts with defaults filled in. It
// does not listen until Start.
func New(opts Options) *Server {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	opts.Clock = clock.Or(opts.Clock)
	if opts.Now == nil {
		opts.Now = opts.Clock.Now
	}
	defaults.Fill(&opts.ListenKeyTTL, 60*time.Minute)
	defaults.Fill(&opts.ConnMaxAge, 24*time.Hour)
	defaults.Fill(&opts.PingInterval, 30*time.Second)
	defaults.Fill(&opts.BanScale, 1)
	if opts.MarketInterval == 0 {
		opts.MarketInterval = 500 * time.Millisecond
	}
	if opts.MarketActivity == 0 {
		opts.MarketActivity = 2
	}
	defaults.Fill(&opts.QuoteIdle, 5*time.Minute)
	defaults.Fill(&opts.RateLimits.WeightPerMinute, 1500)
	defaults.Fill(&opts.RateLimits.OrdersPerSecond, 20)
	defaults.Fill(&opts.RateLimits.OrdersPerDay, 350000)
	if opts.Faults.OrderErrorStatus == 0 {
		opts.Faults.OrderErrorStatus = http.StatusGatewayTimeout
	}
	opts.Limits = opts.Limits.withDefaults()
	if len(opts.Keys) == 0 {
		opts.Keys = []Key{{APIKey: DemoAPIKey, Secret: signer.NewSecret(DemoSecret)}}
	}
	s := &Server{
		opts:       opts,
		keys:       map[string]*keyInfo{},
		limiter:    newLimiter(opts.RateLimits, opts.BanScale),
		listenKeys: map[string]*listenKey{},
	}
	s.exchange = newExchange(&s.opts)
	s.addAccounts()
	for _, k := range opts.Keys {
		ki := &keyInfo{Key: k, account: s.demo}
		if len(k.Perms) > 0 {
			ki.perms = map[string]bool{}
			for _, p := range k.Perms {
				ki.perms[strings.ToUpper(strings.TrimSpace(p))] = true
			}
		}
		s.keys[k.APIKey] = ki
	}
	s.ctx, s.stop = context.WithCancel(context.Background())
	s.quotes = s.newQuotes()
	return s
}

// Start listens on Options.Addr and serves in the background, with the
// synthetic market and the background activity running.
func (s *Server) Start() error {
	ln, err := net.Listen("tcp", s.opts.Addr)
	if err != nil {
		return fmt.Errorf("start simulator: listen on %s: %w", s.opts.Addr, err)
	}
	s.ln = ln
	s.conns = &capListener{Listener: ln, max: int64(s.opts.Limits.MaxConns)}
	s.srv = newHTTPServer(s, s.opts.Limits)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := s.srv.Serve(s.conns); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the listener failed; Close reports nothing more useful
		}
	}()
	if s.opts.MarketInterval > 0 {
		s.wg.Add(1)
		go s.runMarket()
	}
	if s.opts.Activity > 0 {
		s.wg.Add(1)
		go s.runActivity()
	}
	return nil
}

// URL is the base URL, http://127.0.0.1:PORT (no path).
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() }

// WSURL is the WebSocket base URL, ws://127.0.0.1:PORT.
func (s *Server) WSURL() string { return "ws://" + s.ln.Addr().String() }

// Close stops serving and every background goroutine.
func (s *Server) Close() error {
	s.stop()
	var err error
	if s.srv != nil {
		err = s.srv.Close()
	}
	s.wg.Wait()
	s.quotes.Wait()
	if err != nil {
		return fmt.Errorf("close simulator: %w", err)
	}
	return nil
}

// APIKey is the first configured API key (the demo key by default).
func (s *Server) APIKey() string { return s.opts.Keys[0].APIKey }

// Secret is the secret of the first configured key.
func (s *Server) Secret() signer.Secret { return s.opts.Keys[0].Secret }

// Now is the server clock: Options.Now plus Options.Skew.
func (s *Server) Now() time.Time { return s.exchange.Now() }
