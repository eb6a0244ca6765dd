package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/api"
	"bhtop/internal/clock"
	"bhtop/internal/wsread"
)

// conn is one WebSocket connection of the user stream. Its reader
// goroutine hands every frame to the session's writer and answers JSON
// pings; a pinger goroutine sends WebSocket pings. Writes to the socket go
// through writeMu (gorilla allows one writer at a time).
type conn struct {
	id     uint64
	key    string
	ws     *websocket.Conn
	opened time.Time

	writeMu sync.Mutex
	done    chan struct{} // closed when the reader ends

	// Set by the reader before done is closed.
	serverClosed bool   // a close frame came from the service
	endReason    string // why it ended, for a person
	byUs         atomic.Bool
	// heard is the clock's unix ns of the newest thing read (frame, ping
	// or pong); silent is why the pinger gave the connection up.
	heard  atomic.Int64
	silent atomic.Pointer[string]
}

// errRefused is a handshake the service refused (HTTP 4xx): the key is
// unknown, closed or expired.
type errRefused struct {
	status int
	body   string
}

func (e *errRefused) Error() string {
	return fmt.Sprintf("handshake refused: HTTP %d %s", e.status, e.body)
}

// dial opens the socket for key.
func (s *Session) dial(ctx context.Context, key string) (*conn, error) {
	url := strings.TrimRight(s.cfg.WSURL, "/") + api.UserStreamPrefix + key
	ws, resp, err := s.cfg.Dialer.DialContext(ctx, url, nil)
	if err != nil {
		if resp != nil && resp.StatusCode >= 400 && resp.StatusCode < 500 {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			return nil, &errRefused{status: resp.StatusCode, body: sanitize(string(body), serviceTextMax)}
		}
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		return nil, fmt.Errorf("connect user stream: %w", err)
	}
	c := &conn{
		id:     s.connSeq.Add(1),
		key:    key,
		ws:     ws,
		opened: s.cfg.Now(),
		done:   make(chan struct{}),
	}
	c.heard.Store(c.opened.UnixNano())
	return c, nil
}

// start runs the reader and the pinger. The caller has already told the
// writer to hold frames when it wants a resync.
func (s *Session) startConn(c *conn) {
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.readLoop(c) }()
	go func() { defer s.wg.Done(); s.pingLoop(c) }()
}

// readLoop reads frames until the socket fails, is closed, or stays
// silent past ReadTimeout (a pong counts as traffic).
func (s *Session) readLoop(c *conn) {
	defer close(c.done)
	defer c.ws.Close()
	c.ws.SetReadLimit(16 << 20)
	// The read deadline is moved at most every slack (moving it is a timer
	// update per frame otherwise), and slack beyond ReadTimeout: silence
	// ends the socket ReadTimeout to ReadTimeout+slack after the last
	// thing read, never sooner.
	slack := s.cfg.ReadTimeout / 64
	var moved time.Time
	extend := func() {
		c.heard.Store(s.cfg.Now().UnixNano())
		if now := time.Now(); now.Sub(moved) >= slack {
			moved = now
			_ = c.ws.SetReadDeadline(now.Add(s.cfg.ReadTimeout + slack))
		}
	}
	c.ws.SetPongHandler(func(string) error { extend(); return nil })
	c.ws.SetPingHandler(func(data string) error {
		extend()
		c.writeMu.Lock()
		defer c.writeMu.Unlock()
		err := c.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(5*time.Second))
		if errors.Is(err, websocket.ErrCloseSent) {
			return nil
		}
		return err
	})
	moved = time.Now()
	_ = c.ws.SetReadDeadline(moved.Add(s.cfg.ReadTimeout + slack)) // (heard was set at dial)
	for {
		buf := getFrameBuf()
		typ, data, err := wsread.Message(c.ws, *buf)
		if err != nil {
			putFrameBuf(buf, data)
			var ce *websocket.CloseError
			switch {
			case c.silent.Load() != nil:
				c.endReason = *c.silent.Load()
			case errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure:
				// (1006 is gorilla's name for a connection lost without a
				// close frame; it is not one the service sent.)
				c.serverClosed = !c.byUs.Load()
				c.endReason = fmt.Sprintf("closed by the service (%d %s)", ce.Code, sanitize(ce.Text, serviceTextMax))
			case c.byUs.Load():
				c.endReason = "closed by us"
			default:
				c.endReason = "connection lost: " + shortErr(err)
			}
			return
		}
		extend()
		now := s.cfg.Now()
		s.lastFrame.Store(now.UnixNano())
		it := item{frame: data, conn: c, buf: buf}
		switch {
		case typ == websocket.BinaryMessage:
			it.binary = true
		default:
			if n, ok := pingOf(data); ok {
				c.pong(n)
				it.ping = true
			}
		}
		if !it.ping {
			s.lastEvent.Store(now.UnixNano())
		}
		if !s.toWriterFrame(it) {
			c.endReason = "session closing"
			return
		}
	}
}

// Frame buffers go round between the socket readers and the writer: a
// reader reads a frame into one, the writer hands it back when the frame
// is folded and journaled (or dropped), so reading allocates nothing in
// the steady state. Nothing downstream keeps a frame's bytes: the event
// decoder's views last until its next Decode, and the store, the journal
// and the pong copy what they keep (TestReusedFrameBuffer).
var frameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// frameBufMax: larger buffers (a rare huge frame) are left to the
// collector rather than kept in the pool.
const frameBufMax = 256 << 10

func getFrameBuf() *[]byte { return frameBufs.Get().(*[]byte) }

// putFrameBuf returns buf, which now holds data (the frame, grown), to
// the pool; the frame's bytes must no longer be used.
func putFrameBuf(buf *[]byte, data []byte) {
	if buf == nil || cap(data) > frameBufMax {
		return
	}
	*buf = data[:0]
	frameBufs.Put(buf)
}

// pingLoop sends a WebSocket ping every PingEvery while the reader runs,
// and watches the answer: when nothing at all (pong, frame, ping) was read
// within PongWait of a ping, the service has gone silent (a frozen
// process, a dead route) although the socket looks open. The connection
// is then given up at once, the error counted and the reason kept, so the
// header stops saying live and the panes are marked stale within one ping
// interval, not after the socket's read timeout.
func (s *Session) pingLoop(c *conn) {
	clk := s.cfg.Clock
	t := clk.NewTicker(s.cfg.PingEvery)
	defer t.Stop()
	var answer clock.Timer // armed while a ping waits for its answer
	var answered <-chan time.Time
	defer func() {
		if answer != nil {
			answer.Stop()
		}
	}()
	var sent time.Time
	for {
		select {
		case <-c.done:
			return
		case <-t.C():
			if answered != nil {
				continue // the last ping's answer is still awaited
			}
			sent = clk.Now()
			c.writeMu.Lock()
			err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(5*time.Second))
			c.writeMu.Unlock()
			if err != nil {
				return
			}
			answer = clk.NewTimer(s.cfg.PongWait)
			answered = answer.C()
		case <-answered:
			answered = nil
			if c.heard.Load() >= sent.UnixNano() {
				continue
			}
			quiet := clk.Now().Sub(time.Unix(0, c.heard.Load()))
			s.giveUpSilent(c, quiet)
			return
		}
	}
}

// giveUpSilent ends a connection on which the service has said nothing
// for quiet, not even a pong: counted as an error, with the reason the
// header shows while it reconnects. The socket is closed without a close
// handshake (the peer would not answer it).
func (s *Session) giveUpSilent(c *conn, quiet time.Duration) {
	why := fmt.Sprintf("no answer from the service for %s", quiet.Round(time.Millisecond))
	c.silent.Store(&why)
	c.byUs.Store(true)
	s.noteError("stream silent: " + why + "; the data may be stale, reconnecting")
	c.ws.Close()
}

// pong answers a JSON ping, echoing N's bytes exactly as received.
func (c *conn) pong(n []byte) {
	msg := make([]byte, 0, len(n)+10)
	msg = append(msg, `{"pong":`...)
	msg = append(msg, n...)
	msg = append(msg, '}')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_ = c.ws.WriteMessage(websocket.TextMessage, msg)
}

// close ends the connection from our side with a close frame, waiting a
// moment for the reader to see the reply.
func (c *conn) close(reason string) {
	c.byUs.Store(true)
	c.writeMu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, reason), time.Now().Add(2*time.Second))
	c.writeMu.Unlock()
	select {
	case <-c.done:
	case <-time.After(2 * time.Second):
		c.ws.Close()
		<-c.done
	}
}

// pingOf reports whether frame is a bare heartbeat object {"ping": N} (no
// "e") and returns N's raw bytes. Heartbeats inside arrays are handled by
// the store's fold.
func pingOf(frame []byte) ([]byte, bool) {
	if len(frame) > 256 || !bytes.Contains(frame, []byte(`"ping"`)) {
		return nil, false
	}
	t := bytes.TrimSpace(frame)
	if len(t) == 0 || t[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(t, &m) != nil {
		return nil, false
	}
	n, ok := m["ping"]
	if _, hasE := m["e"]; !ok || hasE {
		return nil, false
	}
	return bytes.TrimSpace(n), true
}

// refusedKey reports whether err says the key is dead: a refused handshake.
func refusedKey(err error) bool {
	var r *errRefused
	return errors.As(err, &r) && r.status != http.StatusTooManyRequests
}

// shortErr is err as one short printable line (a network error can quote
// what the peer sent).
func shortErr(err error) string { return sanitize(err.Error(), 160) }
