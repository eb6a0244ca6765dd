// Package quotews serves the quote WebSocket (/openapi/quote/ws/v1) over a
// market Source: subscriptions, first and live pushes, JSON ping/pong and
// the idle close.
package quotews

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"bhtop/internal/defaults"
)

// Source is the market the socket shows. Its methods are called from the
// connections' goroutines and must be safe for concurrent use.
type Source interface {
	// Known reports whether symbol exists.
	Known(symbol string) bool
	// Realtime is the symbol's 24 h ticker element and its trade count
	// (it changes when the ticker does).
	Realtime(symbol string) (data any, version uint64)
	// Trades returns the trades after id after (all of the newest max when
	// after is 0), oldest first, and the newest trade id.
	Trades(symbol string, after uint64, max int) (data []any, newest uint64)
	// Kline is the current bar of interval iv.
	Kline(symbol, iv string) any
	// Depth is the book element (up to 300 levels a side) and its version.
	Depth(symbol string) (data any, version uint64)
	// ValidInterval reports whether iv is a kline interval.
	ValidInterval(iv string) bool
}

// Options configures a Server. Zero values take the defaults noted.
type Options struct {
	Idle  time.Duration    // close a socket with no JSON ping for this long; default 5m
	Now   func() time.Time // default time.Now
	Tick  time.Duration    // how often subscriptions are looked at; default 100ms
	Depth time.Duration    // depth pushes at most this often; default 300ms
	Bar   time.Duration    // kline and ticker pushes; default 1s
}

// Server serves quote sockets until ctx-like stop is closed.
type Server struct {
	src  Source
	opts Options
	done <-chan struct{}
	// mu orders each connection's wg.Add before Wait: a socket arriving
	// while the server closes is refused, not added to a group being
	// waited for.
	mu      sync.Mutex
	wg      sync.WaitGroup
	waiting bool // Wait has begun: no more Adds
}

// New returns a Server of src; connections end when done is closed.
func New(src Source, opts Options, done <-chan struct{}) *Server {
	defaults.Fill(&opts.Idle, 5*time.Minute)
	if opts.Now == nil {
		opts.Now = time.Now
	}
	defaults.Fill(&opts.Tick, 100*time.Millisecond)
	defaults.Fill(&opts.Depth, 300*time.Millisecond)
	defaults.Fill(&opts.Bar, time.Second)
	return &Server{src: src, opts: opts, done: done}
}

var upgrader = websocket.Upgrader{
	ReadBufferSize:  4096,
	WriteBufferSize: 16 << 10,
	CheckOrigin:     func(*http.Request) bool { return true },
}

// Wait returns once every connection has ended (after done is closed).
func (s *Server) Wait() {
	s.mu.Lock()
	s.waiting = true // no Add after this
	s.mu.Unlock()
	s.wg.Wait()
}

// Serve upgrades the request and serves the socket until it ends.
func (s *Server) Serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	closing := s.waiting
	select {
	case <-s.done:
		closing = true
	default:
	}
	if closing {
		s.mu.Unlock()
		http.Error(w, "closing", http.StatusServiceUnavailable)
		return
	}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	ws, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &conn{s: s, ws: ws, subs: map[subKey]*sub{}, in: make(chan request, 64), lastPing: s.opts.Now()}
	c.run()
}

// request is a client frame: a subscription change or a ping.
type request struct {
	Symbol string          `json:"symbol"`
	Topic  string          `json:"topic"`
	Event  string          `json:"event"`
	Params json.RawMessage `json:"params"`
	Ping   *json.Number    `json:"ping"`
}

type subKey struct{ symbol, topic string }

// sub is one subscription and what was last pushed of it.
type sub struct {
	first   bool
	version uint64 // depth and ticker version, or newest trade id
	next    time.Time
}

// push is one server frame of a subscription.
type push struct {
	Symbol string            `json:"symbol"`
	Topic  string            `json:"topic"`
	Params map[string]string `json:"params,omitempty"`
	Data   any               `json:"data"`
	F      bool              `json:"f"`
}

type conn struct {
	s        *Server
	ws       *websocket.Conn
	subs     map[subKey]*sub
	in       chan request
	lastPing time.Time
}

func (c *conn) run() {
	defer c.ws.Close()
	readerDone := make(chan struct{})
	go c.read(readerDone)
	t := time.NewTicker(c.s.opts.Tick)
	defer t.Stop()
	for {
		select {
		case <-c.s.done:
			c.close(websocket.CloseGoingAway, "server shutting down")
			return
		case <-readerDone:
			return
		case req := <-c.in:
			if !c.handle(req) {
				return
			}
		case <-t.C:
			now := c.s.opts.Now()
			if now.Sub(c.lastPing) >= c.s.opts.Idle {
				c.close(websocket.CloseNormalClosure, "no ping within "+c.s.opts.Idle.String())
				return
			}
			if !c.pushDue(now) {
				return
			}
		}
	}
}

func (c *conn) read(done chan<- struct{}) {
	defer close(done)
	c.ws.SetReadLimit(64 << 10)
	for {
		_, b, err := c.ws.ReadMessage()
		if err != nil {
			return
		}
		var req request
		d := json.NewDecoder(strings.NewReader(string(b)))
		d.UseNumber()
		if d.Decode(&req) != nil {
			req = request{Event: "bad"}
		}
		select {
		case c.in <- req:
		case <-c.s.done:
			return
		}
	}
}

func (c *conn) write(v any) bool {
	b, err := json.Marshal(v)
	if err != nil {
		return false
	}
	_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.ws.WriteMessage(websocket.TextMessage, b) == nil
}

func (c *conn) close(code int, text string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
}

// handle applies one client frame; false when the socket failed.
func (c *conn) handle(req request) bool {
	if req.Ping != nil {
		c.lastPing = c.s.opts.Now()
		return c.write(map[string]json.Number{"pong": *req.Ping})
	}
	switch req.Event {
	case "sub":
		return c.subscribe(req)
	case "cancel":
		for _, sym := range splitSymbols(req.Symbol) {
			delete(c.subs, subKey{sym, req.Topic})
		}
		return true
	case "cancel_all":
		clear(c.subs)
		return true
	}
	return c.write(map[string]any{"code": -1100, "msg": "Unknown event; want sub, cancel, cancel_all or a ping."})
}

func splitSymbols(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func (c *conn) validTopic(t string) bool {
	switch t {
	case "realtimes", "trade", "depth":
		return true
	}
	iv, ok := strings.CutPrefix(t, "kline_")
	return ok && c.s.src.ValidInterval(iv)
}

// subscribe adds the subscriptions of req and pushes each one's first
// frame at once.
func (c *conn) subscribe(req request) bool {
	syms := splitSymbols(req.Symbol)
	if !c.validTopic(req.Topic) {
		return c.write(map[string]any{"code": -1100, "msg": "Unknown topic " + req.Topic + "."})
	}
	for _, sym := range syms {
		if !c.s.src.Known(sym) {
			return c.write(map[string]any{"code": -1121, "msg": "Invalid symbol " + sym + "."})
		}
	}
	if len(syms) == 0 {
		return c.write(map[string]any{"code": -1102, "msg": "Mandatory parameter 'symbol' was not sent."})
	}
	now := c.s.opts.Now()
	for _, sym := range syms {
		k := subKey{sym, req.Topic}
		sb := &sub{first: true}
		c.subs[k] = sb
		if !c.pushOne(k, sb, now) {
			return false
		}
	}
	return true
}

// pushDue pushes every subscription whose time has come.
func (c *conn) pushDue(now time.Time) bool {
	for k, sb := range c.subs {
		if now.Before(sb.next) {
			continue
		}
		if !c.pushOne(k, sb, now) {
			return false
		}
	}
	return true
}

// pushOne pushes one subscription if it has something new (always when
// first), and sets when to look again.
func (c *conn) pushOne(k subKey, sb *sub, now time.Time) bool {
	src := c.s.src
	p := push{Symbol: k.symbol, Topic: k.topic, F: sb.first}
	switch {
	case k.topic == "trade":
		n := 60
		if !sb.first {
			n = 1000
		}
		data, newest := src.Trades(k.symbol, sb.version, n)
		sb.next = now.Add(c.s.opts.Tick)
		if len(data) == 0 && !sb.first {
			return true
		}
		p.Data, sb.version = data, newest
	case k.topic == "depth" || k.topic == "realtimes": // versioned: pushed when the version moved
		element, every := src.Depth, c.s.opts.Depth
		if k.topic == "realtimes" {
			element, every = src.Realtime, c.s.opts.Bar
		}
		data, v := element(k.symbol)
		sb.next = now.Add(every)
		if v == sb.version && !sb.first {
			return true
		}
		p.Data, sb.version = []any{data}, v
	default: // kline_<interval>, pushed every second
		iv := strings.TrimPrefix(k.topic, "kline_")
		p.Topic, p.Params, p.Data = "kline", map[string]string{"klineType": iv}, []any{src.Kline(k.symbol, iv)}
		sb.next = now.Add(c.s.opts.Bar)
	}
	sb.first = false
	return c.write(p)
}
