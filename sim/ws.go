package sim

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The user data stream endpoint, /openapi/ws/<listenKey>. One connection
// is served by two goroutines: readLoop reads (client pongs, WebSocket
// pings, the close handshake) and wsConn.run writes everything (events,
// JSON pings, close frames). The fault switches that reshape delivery live
// in ws_faults.go.

const (
	wsFeedBuffer   = 65536           // events a connection may fall behind before it is cut off: over 3 s at 20,000 events/s
	wsWriteTimeout = 5 * time.Second // a client that does not read for this long is cut off
	wsReadLimit    = 64 << 10        // a client frame larger than this ends the connection
	wsCloseWait    = 2 * time.Second // how long to wait for the client's close reply
	wsMinCheck     = 20 * time.Millisecond
	wsMaxCheck     = 250 * time.Millisecond
	wsBatch        = 64 // events taken from the feed at once
)

var wsUpgrader = websocket.Upgrader{
	ReadBufferSize:  4096,
	WriteBufferSize: 16 << 10,
	CheckOrigin:     func(*http.Request) bool { return true },
}

// serveUserStream serves the user data stream at /openapi/ws/<listenKey>.
// An unknown, closed or expired key is refused at the handshake with HTTP
// 400 and code -1125, as the REST endpoints answer it.
func (s *Server) serveUserStream(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.URL.Path, "/openapi/ws/")
	account, ok := "", false
	if key != "" && !strings.Contains(key, "/") {
		account, ok = s.listenKeyAccount(key)
	}
	if !ok {
		s.refuseUpgrade(w, errf(http.StatusBadRequest, codeInvalidListenKey, "This listenKey does not exist."))
		return
	}
	if s.refuseWhileDown(w) {
		return
	}
	if !websocket.IsWebSocketUpgrade(r) {
		s.refuseUpgrade(w, errf(http.StatusBadRequest, codeUnknown, "WebSocket upgrade required."))
		return
	}
	events, cancel := s.feed.subscribe(account, wsFeedBuffer)
	defer cancel()
	ws, err := wsUpgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered the client
	}
	c := &wsConn{
		s:      s,
		ws:     ws,
		key:    key,
		events: events,
		opened: s.Now(),
		faults: newWSFaults(s.opts.Faults, s.opts.Seed^time.Now().UnixNano()),
	}
	c.run()
}

// refuseUpgrade answers a handshake with an error payload.
func (s *Server) refuseUpgrade(w http.ResponseWriter, e *apiError) {
	if rec, ok := w.(*recorder); ok {
		s.writeError(rec, e)
		return
	}
	writeJSON(w, e.status, map[string]any{"code": e.code, "msg": e.msg})
}

// wsConn is one user-stream connection as the writer goroutine sees it.
type wsConn struct {
	s      *Server
	ws     *websocket.Conn
	key    string
	events <-chan []byte
	opened time.Time
	faults *wsFaults

	readerDone chan struct{} // closed when readLoop ends
	writeMu    sync.Mutex
}

// drain appends the events already waiting, up to wsBatch, without
// blocking, so that array frames can carry several.
func (c *wsConn) drain(batch [][]byte) [][]byte {
	for len(batch) < wsBatch {
		select {
		case obj, ok := <-c.events:
			if !ok {
				return batch
			}
			batch = append(batch, obj)
		default:
			return batch
		}
	}
	return batch
}

// run writes to the connection until it ends, then closes the socket.
func (c *wsConn) run() {
	defer c.ws.Close()
	c.readerDone = make(chan struct{})
	go c.readLoop(c.readerDone)

	opts := &c.s.opts // read field by field: SetActivity may write Activity meanwhile
	maxAge := opts.ConnMaxAge
	if maxAge <= 0 {
		maxAge = 24 * time.Hour
	}
	pingEvery := opts.PingInterval
	if pingEvery <= 0 {
		pingEvery = 30 * time.Second
	}
	check := clampDur(min(maxAge, pingEvery)/10, wsMinCheck, wsMaxCheck)
	if d := opts.Faults.DropEvery; d > 0 {
		check = min(check, clampDur(d/10, wsMinCheck, wsMaxCheck))
	}
	if w := opts.Faults.ReorderWindow; w > 0 {
		check = min(check, clampDur(w/4, 5*time.Millisecond, wsMaxCheck))
	}
	ticker := opts.Clock.NewTicker(check)
	defer ticker.Stop()
	nextPing := c.opened.Add(pingEvery)
	var dropAt time.Time
	if opts.Faults.DropEvery > 0 {
		dropAt = c.opened.Add(opts.Faults.DropEvery)
	}

	batch := make([][]byte, 0, wsBatch)
	for {
		select {
		case <-c.readerDone:
			return
		case <-c.s.ctx.Done():
			c.closeWith(websocket.CloseGoingAway, "server shutting down")
			return
		case obj, ok := <-c.events:
			if !ok {
				// Fell behind (or the server is closing): end it with a
				// close frame so the client resyncs on a new key.
				c.closeWith(websocket.CloseTryAgainLater, "stream buffer overflow")
				return
			}
			batch = append(batch[:0], obj)
			batch = c.drain(batch)
			if !c.send(c.faults.accept(batch, c.s.Now())) {
				return
			}
		case <-ticker.C():
			if c.cutIfDown() {
				return
			}
			now := c.s.Now()
			if !dropAt.IsZero() && !now.Before(dropAt) {
				// The DropEvery fault: lose the TCP connection, no close frame.
				c.ws.UnderlyingConn().Close()
				return
			}
			if !now.Before(c.opened.Add(maxAge)) {
				c.closeWith(websocket.CloseNormalClosure, "connection max age reached")
				return
			}
			if _, ok := c.s.listenKeyAccount(c.key); !ok {
				c.closeWith(websocket.CloseNormalClosure, "listenKey expired or closed")
				return
			}
			if !now.Before(nextPing) {
				nextPing = now.Add(pingEvery)
				ping, _ := json.Marshal(map[string]int64{"ping": now.UnixMilli()})
				if !c.write(websocket.TextMessage, ping) {
					return
				}
			}
			if !c.send(c.faults.due(now)) {
				return
			}
		}
	}
}

// send writes the frames the fault layer released; false when the
// connection failed.
func (c *wsConn) send(frames [][]byte) bool {
	if len(frames) > 0 && c.cutIfDown() {
		return false
	}
	for _, f := range frames {
		if !c.write(websocket.TextMessage, f) {
			return false
		}
	}
	return true
}

func (c *wsConn) write(kind int, data []byte) bool {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(wsWriteTimeout))
	return c.ws.WriteMessage(kind, data) == nil
}

// closeWith sends a close frame and waits briefly for the client's reply.
func (c *wsConn) closeWith(code int, text string) {
	msg := websocket.FormatCloseMessage(code, text)
	_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(wsWriteTimeout))
	_ = c.ws.SetReadDeadline(time.Now().Add(wsCloseWait))
	<-c.readerDone
}

// readLoop reads client frames: JSON pongs and anything else are read and
// dropped; WebSocket pings are answered by gorilla's default handler. It
// ends on any read error, including the close handshake.
func (c *wsConn) readLoop(done chan<- struct{}) {
	defer close(done)
	c.ws.SetReadLimit(wsReadLimit)
	for {
		if _, _, err := c.ws.ReadMessage(); err != nil {
			return
		}
	}
}

func clampDur(d, lo, hi time.Duration) time.Duration {
	return max(lo, min(hi, d))
}
