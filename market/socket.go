package market

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"bhtop/api"
	"bhtop/internal/wsread"

	"github.com/gorilla/websocket"
)

// QuotePath is the quote socket's path on the service's WebSocket host.
const QuotePath = api.QuoteStreamPath

// Topics subscribes each symbol to (the dashboard's chart loads other
// intervals by REST).
var subTopics = []string{TopicRealtimes, TopicTrade, TopicDepth, TopicKline + "_1m"}

// writeWait bounds each write to the socket.
const writeWait = 5 * time.Second

// socket is one quote WebSocket. Its reader goroutine reads each text
// frame into one buffer, reused, and hands it to the client (handle),
// which decodes it there: no goroutine is woken per frame but the
// reader. Writes are the client's, under its lock.
type socket struct {
	ws     *websocket.Conn
	done   chan error // one value: why the reader ended
	quit   chan struct{}
	exited chan struct{} // closed when the reader has returned; nil: never started
}

// maxFrameBuf is the largest frame buffer the reader keeps for the next
// frame (one huge frame does not pin its buffer).
const maxFrameBuf = 256 << 10

// dial opens the quote socket. A handshake answered with an HTTP status
// (404 from a service without market data, 403, ...) is errDegraded.
func dial(ctx context.Context, cfg Config) (*socket, error) {
	url := strings.TrimRight(cfg.WSURL, "/") + QuotePath
	ws, resp, err := cfg.Dialer.DialContext(ctx, url, nil)
	if err != nil {
		if resp != nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 256))
			resp.Body.Close()
			reason := fmt.Sprintf("quote socket refused: HTTP %d", resp.StatusCode)
			if b := clean(string(body)); b != "" {
				reason += " " + b
			}
			return nil, &errDegraded{reason: reason}
		}
		return nil, fmt.Errorf("connect the quote socket: %w", err)
	}
	return &socket{ws: ws, done: make(chan error, 1), quit: make(chan struct{})}, nil
}

// start runs the reader: it calls handle with each text frame, whose
// buffer it reuses once handle returns, until the socket fails, handle
// fails or quit closes.
func (s *socket) start(timeout time.Duration, handle func(frame []byte) error) {
	s.exited = make(chan struct{})
	go s.read(timeout, handle)
}

func (s *socket) read(timeout time.Duration, handle func(frame []byte) error) {
	defer close(s.exited)
	var buf []byte
	for {
		_ = s.ws.SetReadDeadline(time.Now().Add(timeout))
		typ, b, err := s.next(buf)
		if err != nil {
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				err = fmt.Errorf("quote socket closed by the service: %d %s", ce.Code, clean(ce.Text))
			} else {
				err = fmt.Errorf("read the quote socket: %w", err)
			}
			s.done <- err
			return
		}
		if cap(b) <= maxFrameBuf {
			buf = b[:0]
		}
		if typ != websocket.TextMessage {
			continue
		}
		select {
		case <-s.quit:
			return
		default:
		}
		if err := handle(b); err != nil {
			s.done <- err
			return
		}
	}
}

// next reads the next message into b's array (b is empty).
func (s *socket) next(b []byte) (typ int, _ []byte, err error) {
	if b == nil {
		b = make([]byte, 0, 4<<10)
	}
	return wsread.Message(s.ws, b)
}

// close ends the socket and waits for its reader: the caller must not
// hold the client's lock, which the reader may be waiting for.
func (s *socket) close() {
	close(s.quit)
	_ = s.ws.WriteControl(websocket.CloseMessage,
		websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	_ = s.ws.Close()
	if s.exited != nil {
		<-s.exited
	}
}

func (s *socket) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_ = s.ws.SetWriteDeadline(time.Now().Add(writeWait))
	return s.ws.WriteMessage(websocket.TextMessage, b)
}

// subscribe sends event ("sub" or "cancel") for symbols on every topic.
func (s *socket) subscribe(event string, symbols []string) error {
	if len(symbols) == 0 {
		return nil
	}
	for _, t := range subTopics {
		if err := s.topic(event, t, symbols); err != nil {
			return err
		}
	}
	return nil
}

// topic sends event ("sub" or "cancel") for symbols on one topic.
func (s *socket) topic(event, topic string, symbols []string) error {
	msg := map[string]any{"symbol": strings.Join(symbols, ","), "topic": topic, "event": event,
		"params": map[string]any{"binary": false}}
	if err := s.write(msg); err != nil {
		return fmt.Errorf("%s %s on the quote socket: %w", event, topic, err)
	}
	return nil
}

// ping sends the JSON ping the service wants.
func (s *socket) ping(ms int64) error {
	return s.write(map[string]int64{"ping": ms})
}

// pong answers a JSON ping from the service, echoing its number exactly.
func (s *socket) pong(n string) error {
	if n == "" {
		n = "0"
	}
	_ = s.ws.SetWriteDeadline(time.Now().Add(writeWait))
	return s.ws.WriteMessage(websocket.TextMessage, []byte(`{"pong":`+n+`}`))
}
