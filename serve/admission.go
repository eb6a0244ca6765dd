package serve

import (
	"log/slog"
	"net"
	"sync"
	"time"
)

// Defaults for the admission fields of Config.
const (
	// DefaultHandshakeTimeout is how long a connection may take from
	// accept to a successful public-key login (OpenSSH's LoginGraceTime,
	// shorter: the dashboard has no password to type).
	DefaultHandshakeTimeout = 20 * time.Second
	// DefaultMaxHandshakes is how many connections may be unauthenticated
	// at once; one more evicts the oldest of them.
	DefaultMaxHandshakes = 64
	// DefaultMaxHandshakesPerHost is how many of those may come from one
	// source address; one more from it evicts that address's oldest. It
	// leaves room for a desk behind one NAT starting together.
	DefaultMaxHandshakesPerHost = 32
	// refusalLogEvery spaces the WARN lines about refused connections: one
	// line, then at most one per period carrying the count in between.
	refusalLogEvery = 10 * time.Second
)

// defaultMaxConnections is the cap on authenticated connections when
// Config.MaxConnections is zero: room for every session and as many
// spare, never fewer than 64.
func defaultMaxConnections(maxSessions int) int { return max(2*maxSessions, 64) }

// gate admits connections in two classes, so that connections that never
// authenticate (a scanner, a flood, a client trickling a byte a minute)
// cannot keep viewers out:
//
//   - unauthenticated ones share a small budget (maxPending, and perHost
//     per source address) and must log in within timeout; when the budget
//     (of its address, or the whole) is full a new one evicts the oldest
//     there, so a flood cannot hold every slot and a real viewer's
//     handshake (milliseconds) gets through; one address can never hold
//     more than perHost of the slots;
//   - authenticated ones are counted apart, up to maxAuthed, and are
//     never evicted by unauthenticated traffic.
type gate struct {
	net.Listener
	timeout    time.Duration
	maxPending int
	perHost    int
	maxAuthed  int
	refusals   *rateLimitedLog

	mu      sync.Mutex
	pending []*admittedConn // oldest first
	perAddr map[string]int
	authed  int
}

func newGate(l net.Listener, cfg Config, refusals *rateLimitedLog) *gate {
	return &gate{Listener: l, timeout: cfg.HandshakeTimeout, maxPending: cfg.MaxHandshakes,
		perHost: cfg.MaxHandshakesPerHost, maxAuthed: cfg.MaxConnections, refusals: refusals,
		perAddr: make(map[string]int)}
}

// Accept returns the next connection admitted as unauthenticated.
func (g *gate) Accept() (net.Conn, error) {
	c, err := g.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return g.admit(c), nil
}

func (g *gate) admit(c net.Conn) *admittedConn {
	host := hostOf(c.RemoteAddr())
	g.mu.Lock()
	var evicted *admittedConn
	switch {
	case g.perAddr[host] >= g.perHost:
		for _, p := range g.pending {
			if p.host == host {
				evicted = p
				break
			}
		}
	case len(g.pending) >= g.maxPending:
		evicted = g.pending[0]
	}
	if evicted != nil {
		g.dropPendingLocked(evicted)
	}
	gc := &admittedConn{Conn: c, g: g, host: host, state: statePending}
	g.pending = append(g.pending, gc)
	g.perAddr[host]++
	gc.timer = time.AfterFunc(g.timeout, gc.expire)
	g.mu.Unlock()
	if evicted != nil {
		g.refusals.warn("connection closed: too many unauthenticated connections, the oldest goes",
			"remote", evicted.RemoteAddr().String(), "max_unauthenticated", g.maxPending, "max_per_address", g.perHost)
		_ = evicted.Conn.Close()
	}
	return gc
}

// roomForAuthed reports whether one more connection may log in.
func (g *gate) roomForAuthed() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.authed < g.maxAuthed
}

// dropPendingLocked takes gc out of the unauthenticated budget (g.mu held).
func (g *gate) dropPendingLocked(gc *admittedConn) {
	for i, p := range g.pending {
		if p == gc {
			g.pending = append(g.pending[:i], g.pending[i+1:]...)
			break
		}
	}
	if g.perAddr[gc.host]--; g.perAddr[gc.host] <= 0 {
		delete(g.perAddr, gc.host)
	}
	gc.state = stateGone
	gc.timer.Stop()
}

func hostOf(a net.Addr) string {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return host
}

type connState int

const (
	statePending connState = iota
	stateAuthed
	stateGone
)

// admittedConn is a connection admitted by a gate; it gives its slot back
// when it logs in (pending → authenticated) and when it closes.
type admittedConn struct {
	net.Conn
	g     *gate
	host  string
	timer *time.Timer
	state connState // under g.mu
}

// authenticated moves the connection to the authenticated class.
func (c *admittedConn) authenticated() {
	c.g.mu.Lock()
	defer c.g.mu.Unlock()
	if c.state != statePending {
		return
	}
	c.g.dropPendingLocked(c)
	c.state = stateAuthed
	c.g.authed++
}

// expire closes the connection if it has not logged in yet.
func (c *admittedConn) expire() {
	c.g.mu.Lock()
	if c.state != statePending {
		c.g.mu.Unlock()
		return
	}
	c.g.dropPendingLocked(c)
	c.g.mu.Unlock()
	c.g.refusals.warn("connection closed: not authenticated in time",
		"remote", c.RemoteAddr().String(), "handshake_timeout", c.g.timeout)
	_ = c.Conn.Close()
}

func (c *admittedConn) Close() error {
	c.g.mu.Lock()
	switch c.state {
	case statePending:
		c.g.dropPendingLocked(c)
	case stateAuthed:
		c.g.authed--
		c.state = stateGone
	}
	c.g.mu.Unlock()
	return c.Conn.Close()
}

// NetConn is the accepted connection itself (for its TCP options).
func (c *admittedConn) NetConn() net.Conn { return c.Conn }

// rateLimitedLog writes a WARN line at most once per every; the lines
// held back in between are counted into the next one's "suppressed", so a
// flood of refusals costs a few lines, not one per connection.
type rateLimitedLog struct {
	log   *slog.Logger
	every time.Duration
	now   func() time.Time

	mu         sync.Mutex
	next       time.Time
	suppressed int
}

func (r *rateLimitedLog) warn(msg string, args ...any) {
	r.mu.Lock()
	now := r.now()
	if now.Before(r.next) {
		r.suppressed++
		r.mu.Unlock()
		return
	}
	n := r.suppressed
	r.suppressed, r.next = 0, now.Add(r.every)
	r.mu.Unlock()
	if n > 0 {
		args = append(args, "suppressed_since_last", n)
	}
	r.log.Warn(msg, args...)
}
