package sim

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"bhtop/internal/defaults"
)

// Limits bound what clients can make the simulator hold: how long a
// connection may take to send a request or sit idle, how many are open at
// once, and how large a request may be. Zero fields take the defaults
// noted; they keep memory bounded with thousands of idle or slow clients.
type Limits struct {
	// ReadHeaderTimeout closes a connection whose request headers have not
	// all arrived this long after it started sending them; default 10s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, body included; default 30s.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing a reply; default 30s. A WebSocket, once
	// upgraded, keeps its own deadlines instead.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection with no next request
	// after this long; default 60s.
	IdleTimeout time.Duration
	// MaxConns caps open connections, WebSockets included; one more is
	// answered 503 and closed. Default 1024.
	MaxConns int
	// MaxHeaderBytes caps the request line and headers; larger is
	// answered 431. Default 64 KiB.
	MaxHeaderBytes int
	// MaxBodyBytes caps a request body; larger is answered 413 with a
	// code and msg. Default 1 MiB.
	MaxBodyBytes int64
	// MaxListenKeys caps listen keys valid at once (closed and expired
	// ones are forgotten to make room); one more is refused with -1000.
	// Default 10,000.
	MaxListenKeys int
	// LogFieldBytes caps the path, query and body of a request-log line;
	// longer ones are cut and marked. Default 4 KiB.
	LogFieldBytes int
}

func (l Limits) withDefaults() Limits {
	defaults.Fill(&l.ReadHeaderTimeout, 10*time.Second)
	defaults.Fill(&l.ReadTimeout, 30*time.Second)
	defaults.Fill(&l.WriteTimeout, 30*time.Second)
	defaults.Fill(&l.IdleTimeout, 60*time.Second)
	defaults.Fill(&l.MaxConns, 1024)
	defaults.Fill(&l.MaxHeaderBytes, 64<<10)
	defaults.Fill(&l.MaxBodyBytes, 1<<20)
	defaults.Fill(&l.MaxListenKeys, 10_000)
	defaults.Fill(&l.LogFieldBytes, 4<<10)
	return l
}

// newHTTPServer is the simulator's http.Server with the limits applied.
func newHTTPServer(h http.Handler, l Limits) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.ReadHeaderTimeout,
		ReadTimeout:       l.ReadTimeout,
		WriteTimeout:      l.WriteTimeout,
		IdleTimeout:       l.IdleTimeout,
		MaxHeaderBytes:    l.MaxHeaderBytes,
		ConnState: func(c net.Conn, st http.ConnState) {
			if st == http.StateHijacked {
				// The server's read and write deadlines stay on a hijacked
				// connection; a WebSocket sets its own.
				_ = c.SetDeadline(time.Time{})
			}
		},
	}
}

// capListener answers every connection beyond max open at once with a 503
// and closes it, so that a flood of idle clients cannot exhaust file
// descriptors and memory.
type capListener struct {
	net.Listener
	max  int64
	open atomic.Int64
}

func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if !l.take() {
			refuseConn(c, l.max)
			continue
		}
		return &countedConn{Conn: c, l: l}, nil
	}
}

// take claims a slot if one is free; the count never exceeds max, even
// for a moment.
func (l *capListener) take() bool {
	for {
		n := l.open.Load()
		if n >= l.max {
			return false
		}
		if l.open.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// refuseConn writes a 503 with the error payload and closes c; the write
// goes to a fresh socket's send buffer, bounded by a short deadline.
func refuseConn(c net.Conn, limit int64) {
	body := fmt.Sprintf(`{"code":%d,"msg":"Too many connections: the simulator serves at most %d at once."}`, codeUnknown, limit)
	_ = c.SetWriteDeadline(time.Now().Add(100 * time.Millisecond))
	_, _ = fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	_ = c.Close()
}

// countedConn gives its slot back when closed (once), hijacked or not.
type countedConn struct {
	net.Conn
	l    *capListener
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.l.open.Add(-1) })
	return c.Conn.Close()
}

// cut shortens s to at most n bytes for the request log, saying how much
// was left out.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return fmt.Sprintf("%s…[%d more bytes]", s[:n], len(s)-n)
}
