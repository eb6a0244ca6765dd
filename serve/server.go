// Package serve serves the read-only dashboard over SSH, one Bubble Tea
// program per viewer, all reading one shared upstream.
package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"bhtop/ui"
)

// Defaults for the zero fields of Config.
const (
	DefaultAddr        = "127.0.0.1:2222"
	DefaultMaxSessions = 32
	DefaultIdleTimeout = 30 * time.Minute
	DefaultFPS         = 12
	DefaultGrace       = 2 * time.Second
	DefaultStall       = 2 * time.Minute
)

// Config configures a Server. HostKey, AuthorizedKeys and Upstream (or
// NewModel) are required; zero values elsewhere take the defaults above.
type Config struct {
	// AuthorizedKeys is the OpenSSH authorized_keys file listing the keys
	// that may watch. It is read again whenever it changes.
	AuthorizedKeys string
	// HostKey is the server's private key file; created (ed25519, mode
	// 0600) when missing.
	HostKey string

	// MaxSessions caps concurrent viewers; one more is told so and closed.
	MaxSessions int
	// MaxConnections caps authenticated connections; a login beyond it is
	// refused. Zero means twice MaxSessions, at least 64. Connections not
	// yet authenticated are counted apart (MaxHandshakes), so they can
	// never keep a viewer out.
	MaxConnections int
	// HandshakeTimeout closes a connection that has not logged in this long
	// after it was accepted, however busily it sends. Zero means
	// DefaultHandshakeTimeout.
	HandshakeTimeout time.Duration
	// MaxHandshakes caps connections not yet authenticated; one more
	// evicts the oldest of them. Zero means DefaultMaxHandshakes.
	MaxHandshakes int
	// MaxHandshakesPerHost caps those from one source address; one more
	// from it is closed at once. Zero means DefaultMaxHandshakesPerHost.
	MaxHandshakesPerHost int
	// IdleTimeout closes a session that has sent no input for this long
	// (output does not count: a watched dashboard is always busy).
	// Negative means never.
	IdleTimeout time.Duration
	// FPS caps frames per second sent to each viewer, so a busy stream
	// does not flood a slow link: changes between frames are coalesced.
	FPS int
	// Stall closes a connection on which nothing could be read or written
	// for this long: a handshake that never finishes, a dead peer, or a
	// viewer whose client stopped reading (its writes block). The
	// dashboard redraws its clock every second, so a healthy viewer is
	// never quiet that long. Negative means never.
	Stall time.Duration
	// Grace is how long a session being closed (idle, shutdown) may take to
	// restore the viewer's terminal before its connection is cut. A viewer
	// that does not read is cut after Grace.
	Grace time.Duration

	// Upstream is the shared account connection (a stream.Session) every
	// viewer's dashboard reads. Serve wraps it with Shared, so that viewers
	// cannot multiply its requests, and never closes it.
	Upstream Upstream
	// Theme is the dashboard theme every session starts with.
	Theme string
	// ShareEvery is how often viewers together may make the upstream send
	// a keepalive, resync or symbols request; default DefaultShareEvery.
	ShareEvery time.Duration

	// Accounts, when set, are the accounts served (DESIGN.md 'Accounts'),
	// in place of Upstream: each viewer's dashboard holds those its key's
	// environment="BHTOP_ACCOUNTS=a,b" allows (no such option: all), and
	// a key allowed none is refused at login (logged, never explained).
	// Their Traders are dropped: serve never trades.
	Accounts []ui.Account
	// UpstreamAccount is the name of Upstream's one account, which a key's
	// BHTOP_ACCOUNTS must name for the key to log in (no such option: it
	// may); empty is config.DefaultAccount, a single unnamed account's.
	UpstreamAccount string

	// Options are more dashboard options every session's model gets
	// from the default NewModel (ui.WithMarket: the shared market hub).
	Options []ui.Option

	// NewModel builds each session's model; ctx ends when the session
	// does. Nil means the read-only dashboard over Upstream (tests and
	// embedders may set their own). It gets no way to trade: serve never
	// holds an order-placing client.
	NewModel func(ctx context.Context, v Viewer) tea.Model

	// Logger receives one line per session start and end and per refused
	// key. Nil discards.
	Logger *slog.Logger

	// now is the clock of the refusal log's rate limit; nil is time.Now.
	now func() time.Time
	// sendBuffer overrides the kernel send buffer per connection (tests
	// shrink it so that a stalled viewer blocks sooner); 0 is sendBuffer.
	sendBuffer int
}

// ErrServerClosed is what Serve returns after Shutdown or Close.
var ErrServerClosed = ssh.ErrServerClosed

// Server is the SSH monitor. Create it with New, run it with Serve, stop
// it with Shutdown. All methods are safe for concurrent use.
type Server struct {
	cfg     Config
	log     *slog.Logger
	auth    *authorizedKeys
	hostKey gossh.Signer
	ssh     *ssh.Server
	refused *rateLimitedLog // refused connections and keys

	mu       sync.Mutex
	closing  bool
	sessions map[*session]struct{}
	running  sync.WaitGroup // session handlers
	lastID   atomic.Uint64
}

// New loads (or creates) the host key and reads the authorized keys file,
// so that configuration mistakes are reported before anyone connects.
func New(cfg Config) (*Server, error) {
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxConnections <= 0 {
		cfg.MaxConnections = defaultMaxConnections(cfg.MaxSessions)
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.MaxHandshakes <= 0 {
		cfg.MaxHandshakes = DefaultMaxHandshakes
	}
	if cfg.MaxHandshakesPerHost <= 0 {
		cfg.MaxHandshakesPerHost = DefaultMaxHandshakesPerHost
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.FPS <= 0 {
		cfg.FPS = DefaultFPS
	}
	if cfg.Grace <= 0 {
		cfg.Grace = DefaultGrace
	}
	if cfg.Stall == 0 {
		cfg.Stall = DefaultStall
	}
	if cfg.NewModel == nil {
		// Every viewer's dashboard builds the same rows from the same
		// snapshots: built once, shared.
		cfg.Options = append([]ui.Option{ui.WithRowCache(ui.NewRowCache())}, cfg.Options...)
	}
	if cfg.NewModel == nil && len(cfg.Accounts) > 0 {
		cfg.NewModel = readOnlyDesk(sharedAccounts(cfg.Accounts, cfg.ShareEvery), cfg.Theme, cfg.FPS, cfg.Options...)
	}
	if cfg.NewModel == nil {
		if cfg.Upstream == nil {
			return nil, errors.New("serve: Config.Upstream is required")
		}
		cfg.NewModel = readOnlyDashboard(Shared(cfg.Upstream, cfg.ShareEvery, nil), cfg.Theme, cfg.FPS, cfg.Options...)
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	hostKey, created, err := LoadOrCreateHostKey(cfg.HostKey)
	if err != nil {
		return nil, err
	}
	if created {
		logger.Info("created host key", "file", cfg.HostKey, "fingerprint", fingerprint(hostKey.PublicKey()))
	}
	auth, err := newAuthorizedKeys(cfg.AuthorizedKeys, func(msg string) { logger.Warn(msg) })
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: logger, auth: auth, hostKey: hostKey, sessions: make(map[*session]struct{}),
		refused: &rateLimitedLog{log: logger, every: refusalLogEvery, now: cfg.now}}
	s.ssh = &ssh.Server{
		Version:          "bhtop",
		Handler:          s.handle,
		PublicKeyHandler: s.authorize,
		PtyCallback:      s.allowPty,
		// No PasswordHandler and no KeyboardInteractiveHandler: those
		// methods are not offered at all. No forwarding callbacks: denied.
		ConnCallback:         rememberGate(limitSendBuffer(cmp.Or(cfg.sendBuffer, sendBuffer))),
		ServerConfigCallback: markAuthenticated,
		// Each read or write pushes the deadline of both forward; a write
		// blocked on a full send buffer makes no progress and times out.
		IdleTimeout: max(cfg.Stall, 0),
		ConnectionFailedCallback: func(c net.Conn, err error) {
			logger.Debug("ssh handshake failed", "remote", c.RemoteAddr().String(), "err", err)
		},
	}
	s.ssh.AddHostKey(hostKey)
	return s, nil
}

// sendBuffer is the default kernel send buffer of each viewer's connection. The
// default autotuning lets it grow to megabytes, which a viewer that stops
// reading would pin; a dashboard needs tens of kB per second, which this
// carries even at a few hundred ms of round trip.
const sendBuffer = 128 << 10

func limitSendBuffer(size int) ssh.ConnCallback {
	return func(_ ssh.Context, c net.Conn) net.Conn {
		nc := c
		if u, ok := c.(interface{ NetConn() net.Conn }); ok {
			nc = u.NetConn()
		}
		if tc, ok := nc.(*net.TCPConn); ok {
			_ = tc.SetWriteBuffer(size)
		}
		return c
	}
}

// HostKey returns the server's public host key (for known_hosts and logs).
func (s *Server) HostKey() gossh.PublicKey { return s.hostKey.PublicKey() }

// Serve accepts connections on l until Shutdown or Close, and returns
// ErrServerClosed then.
func (s *Server) Serve(l net.Listener) error {
	s.log.Info("serving the read-only dashboard over ssh", "listen", l.Addr().String(),
		"host_key", fingerprint(s.hostKey.PublicKey()), "authorized_keys", s.auth.count())
	err := s.ssh.Serve(newGate(l, s.cfg, s.refused))
	if errors.Is(err, ssh.ErrServerClosed) {
		return ErrServerClosed
	}
	return fmt.Errorf("serve ssh: %w", err)
}

// Sessions returns the number of sessions currently watching.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}

// Alert shows msg, an alert of accounts (one account's, or a market
// alert's: every account of its host), once to every viewer allowed to
// see any of them (with Config.Accounts, those whose key's BHTOP_ACCOUNTS
// names one or who have no such option; otherwise every viewer): a toast, the bell
// when msg.Bell is set, and a desktop notification where the viewer's
// terminal is known to show one (msg.Desktop is decided per viewer). It
// never blocks: a viewer with alerts still queued drops the newest.
func (s *Server) Alert(accounts []string, msg ui.AlertMsg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for v := range s.sessions {
		if len(s.cfg.Accounts) > 0 && v.allow != nil && !slices.ContainsFunc(accounts, func(a string) bool { return slices.Contains(v.allow, a) }) {
			continue
		}
		m := msg
		m.Desktop = v.desktop
		select {
		case v.alerts <- m:
		default:
		}
	}
}

// Shutdown stops accepting connections, asks every session to end (each
// viewer's terminal is restored and told why), waits for them until ctx is
// done, then cuts whatever connections remain. The upstream is the
// caller's to close afterwards.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	open := make([]*session, 0, len(s.sessions))
	for v := range s.sessions {
		open = append(open, v)
	}
	s.mu.Unlock()

	// Close the listeners without waiting for connections: gliderlabs'
	// Shutdown returns at once with an already-done context.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	_ = s.ssh.Shutdown(done)

	for _, v := range open {
		v.stop("the server is shutting down")
	}
	finished := make(chan struct{})
	go func() { s.running.Wait(); close(finished) }()
	var err error
	select {
	case <-finished:
	case <-ctx.Done():
		err = fmt.Errorf("shutdown: sessions still open: %w", ctx.Err())
	}
	if cerr := s.ssh.Close(); cerr != nil && err == nil && !errors.Is(cerr, net.ErrClosed) {
		err = fmt.Errorf("shutdown: close connections: %w", cerr)
	}
	return err
}

// Close cuts every connection at once, without saying goodbye.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	return s.ssh.Close()
}

// gateKey is the ssh.Context key of the connection's *admittedConn.
type gateKey struct{}

// rememberGate stores the accepted connection in its context, so that the
// login can move it out of the unauthenticated budget, then runs next.
func rememberGate(next ssh.ConnCallback) ssh.ConnCallback {
	return func(ctx ssh.Context, c net.Conn) net.Conn {
		if gc, ok := c.(*admittedConn); ok {
			ctx.SetValue(gateKey{}, gc)
		}
		return next(ctx, c)
	}
}

// markAuthenticated is the base SSH config of each connection: a
// successful login (the signature checked, not a mere key query) moves
// the connection to the authenticated class, stopping its handshake
// deadline.
func markAuthenticated(ctx ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		AuthLogCallback: func(_ gossh.ConnMetadata, _ string, err error) {
			if err != nil {
				return
			}
			if gc, ok := ctx.Value(gateKey{}).(*admittedConn); ok {
				gc.authenticated()
			}
		},
	}
}

// admit registers a new session unless the server is closing or full; the
// returned message says why not.
func (s *Server) admit(v *session) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return "bhtop serve: the server is shutting down", false
	case len(s.sessions) >= s.cfg.MaxSessions:
		return fmt.Sprintf("bhtop serve: too many viewers (the limit is %d); try again later", s.cfg.MaxSessions), false
	}
	s.sessions[v] = struct{}{}
	s.running.Add(1) // under mu, so Shutdown's Wait sees every admitted session
	return "", true
}

func (s *Server) release(v *session) {
	s.mu.Lock()
	delete(s.sessions, v)
	s.mu.Unlock()
	s.running.Done()
}
