package serve

import (
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
)

// defaultMaxConnections is the connection cap when Config.MaxConnections
// is zero: room for every session plus as many handshakes in progress,
// and never fewer than 64.
func defaultMaxConnections(maxSessions int) int { return max(2*maxSessions, 64) }

// limitListener closes, as soon as it is accepted, every connection beyond
// max open at once. Connections that never authenticate (a scanner, a
// flood, a stuck client) otherwise each hold a goroutine and buffers until
// Stall cuts them, without bound.
type limitListener struct {
	net.Listener
	max  int64
	open atomic.Int64
	log  *slog.Logger
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) > l.max {
			l.open.Add(-1)
			l.log.Warn("connection refused: too many open connections", "remote", c.RemoteAddr().String(), "max", l.max)
			_ = c.Close()
			continue
		}
		return &countedConn{Conn: c, l: l}, nil
	}
}

// countedConn gives its slot back when closed (once).
type countedConn struct {
	net.Conn
	l    *limitListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// NetConn is the accepted connection itself (for its TCP options).
func (c *countedConn) NetConn() net.Conn { return c.Conn }
