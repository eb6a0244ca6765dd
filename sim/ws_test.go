package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// listenKeyOp sends a userDataStream request (API key and timestamp) and
// returns the reply.
func listenKeyOp(t *testing.T, s *Server, method, key string) reply {
	t.Helper()
	q := "timestamp=" + strconv.FormatInt(s.Now().UnixMilli(), 10)
	if key != "" {
		q = "listenKey=" + key + "&" + q
	}
	return raw(t, s, method, "/openapi/v1/userDataStream", q, "", s.APIKey())
}

func newListenKey(t *testing.T, s *Server) string {
	t.Helper()
	r := listenKeyOp(t, s, "POST", "")
	wantOK(t, r)
	var v struct{ ListenKey string }
	r.decode(t, &v)
	return v.ListenKey
}

func dialStream(t *testing.T, s *Server, key string) *websocket.Conn {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(s.WSURL()+"/openapi/ws/"+key, nil)
	if err != nil {
		t.Fatalf("dial user stream: %v (response %v)", err, resp)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// readUntil reads frames until one satisfies ok, the socket ends (its
// error is returned) or d passes.
func readUntil(ws *websocket.Conn, d time.Duration, ok func(msg []byte) bool) ([][]byte, error) {
	var got [][]byte
	_ = ws.SetReadDeadline(time.Now().Add(d))
	for {
		_, msg, err := ws.ReadMessage()
		if err != nil {
			return got, err
		}
		got = append(got, msg)
		if ok(msg) {
			return got, nil
		}
	}
}

func TestStreamRefusesUnknownKey(t *testing.T) {
	s := start(t, Options{})
	for _, key := range []string{"nope", ""} {
		_, resp, err := websocket.DefaultDialer.Dial(s.WSURL()+"/openapi/ws/"+key, nil)
		if err == nil {
			t.Fatalf("dial with key %q succeeded, want refused", key)
		}
		if resp == nil || resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("handshake with key %q = %v, want HTTP 400", key, resp)
		}
		var e struct{ Code int }
		_ = json.NewDecoder(resp.Body).Decode(&e)
		if e.Code != -1125 {
			t.Errorf("handshake with key %q: code = %d, want -1125", key, e.Code)
		}
	}
}

func TestStreamPingsAndPongs(t *testing.T) {
	s := start(t, Options{PingInterval: 100 * time.Millisecond})
	ws := dialStream(t, s, newListenKey(t, s))
	pongs := make(chan string, 1)
	ws.SetPongHandler(func(d string) error { pongs <- d; return nil })
	if err := ws.WriteControl(websocket.PingMessage, []byte("hi"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	_, err := readUntil(ws, 2*time.Second, func(msg []byte) bool { return bytes.HasPrefix(msg, []byte(`{"ping":`)) })
	if err != nil {
		t.Fatalf("no JSON ping within 2s at a 100ms interval: %v", err)
	}
	select {
	case d := <-pongs:
		if d != "hi" {
			t.Errorf("pong data = %q, want %q", d, "hi")
		}
	default:
		t.Error("a WebSocket ping was not answered")
	}
	// A JSON pong from the client is read and ignored.
	if err := ws.WriteMessage(websocket.TextMessage, []byte(`{"pong":1}`)); err != nil {
		t.Fatal(err)
	}
}

func TestStreamEnds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		opts      Options
		deleteKey bool
		wantClose bool // a close frame (else the TCP connection just drops)
	}{
		{"connection max age", Options{ConnMaxAge: 300 * time.Millisecond}, false, true},
		{"listenKey expiry", Options{ListenKeyTTL: 300 * time.Millisecond}, false, true},
		{"listenKey DELETE", Options{}, true, true},
		{"drop fault", Options{Faults: Faults{DropEvery: 300 * time.Millisecond}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // (each waits for its stream's end: at once, not one after another)
			s := start(t, tc.opts)
			key := newListenKey(t, s)
			ws := dialStream(t, s, key)
			if tc.deleteKey {
				wantOK(t, listenKeyOp(t, s, "DELETE", key))
			}
			began := time.Now()
			_, err := readUntil(ws, 3*time.Second, func([]byte) bool { return false })
			var ce *websocket.CloseError
			gotClose := errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure
			if gotClose != tc.wantClose {
				t.Errorf("end of stream = %v, want close frame %v", err, tc.wantClose)
			}
			if el := time.Since(began); el > 2*time.Second {
				t.Errorf("stream ended after %v, want well within 2s", el)
			}
		})
	}
}

func TestStreamDeliversEvents(t *testing.T) {
	for _, tc := range []struct {
		name   string
		faults Faults
		check  func(t *testing.T, frames [][]byte, ids map[string]int)
	}{
		{"plain", Faults{}, func(t *testing.T, frames [][]byte, ids map[string]int) {
			for _, f := range frames {
				if f[0] != '{' {
					t.Fatalf("frame %s: want one object per frame", f)
				}
			}
		}},
		{"arrays and optional fields", Faults{ArrayFrames: true, OptionalFields: true}, func(t *testing.T, frames [][]byte, ids map[string]int) {
			for _, f := range frames {
				if f[0] != '[' && !bytes.HasPrefix(f, []byte(`{"ping"`)) {
					t.Fatalf("frame %s: want an array", f)
				}
			}
		}},
		{"duplicates", Faults{DuplicateRate: 1}, func(t *testing.T, frames [][]byte, ids map[string]int) {
			for id, n := range ids {
				if n%2 != 0 {
					t.Errorf("order %s reports seen %d times, want each twice", id, n)
				}
			}
		}},
		{"reordered", Faults{ReorderWindow: 50 * time.Millisecond}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // (each reads its stream for a second: at once, not one after another)
			s := start(t, Options{Faults: tc.faults})
			ws := dialStream(t, s, newListenKey(t, s))
			const orders = 10
			for i := range orders {
				wantOK(t, signed(t, s, "POST", "/openapi/v1/order",
					"symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=0.01&newClientOrderId=ws"+strconv.Itoa(i)))
			}
			ids := map[string]int{}
			frames, _ := readUntil(ws, time.Second, func([]byte) bool { return false })
			for _, f := range frames {
				for _, part := range strings.Split(string(f), `"c":"ws`)[1:] {
					ids[part[:strings.IndexByte(part, '"')]]++
				}
			}
			if len(ids) != orders {
				t.Fatalf("orders reported = %d (%v), want %d", len(ids), ids, orders)
			}
			if tc.check != nil {
				tc.check(t, frames, ids)
			}
		})
	}
}

// TestStalledClientIsCutOff: a client that stops reading may fall
// wsFeedBuffer events behind (a few seconds at 20,000 events/s), gets every
// one of them, and is then cut off with 1013: the backlog is bounded.
func TestStalledClientIsCutOff(t *testing.T) {
	s := start(t, Options{})
	key := newListenKey(t, s)
	ws := dialStream(t, s, key) // subscribed before the handshake completed
	account, ok := s.listenKeyAccount(key)
	if !ok {
		t.Fatal("listenKey not found")
	}
	obj := []byte(`{"e":"outboundAccountInfo","E":1,"pad":"` + strings.Repeat("x", 250) + `"}`)
	const offered = 4 * wsFeedBuffer
	for range offered { // far faster than the connection can write
		s.feed.publish(account, obj)
	}
	got := 0
	// The deadline only ends a test whose cut never comes: the work, some
	// 65,536 frames to write and read, is fixed by wsFeedBuffer, and under
	// -race at -cpu 1 on a machine at load 21 it took longer than 20 s
	// (64,007 read by then).
	_ = ws.SetReadDeadline(time.Now().Add(90 * time.Second))
	var err error
	for {
		var msg []byte
		if _, msg, err = ws.ReadMessage(); err != nil {
			break
		}
		got += bytes.Count(msg, []byte(`"e":"outboundAccountInfo"`))
	}
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseTryAgainLater {
		t.Errorf("stalled client ended with %v, want close 1013", err)
	}
	if got < wsFeedBuffer || got >= offered {
		t.Errorf("events delivered before the cut = %d, want >= %d (the buffer) and < %d (all offered)", got, wsFeedBuffer, offered)
	}
}
