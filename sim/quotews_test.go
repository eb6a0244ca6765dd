package sim

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func dialQuotes(t *testing.T, s *Server) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(s.WSURL()+"/openapi/quote/ws/v1", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

type quoteFrame struct {
	Symbol string            `json:"symbol"`
	Topic  string            `json:"topic"`
	Params map[string]string `json:"params"`
	Data   []map[string]any  `json:"data"`
	F      bool              `json:"f"`
	Pong   json.Number       `json:"pong"`
	Code   int               `json:"code"`
}

// next reads frames until one satisfies ok, within 5 s.
func next(t *testing.T, ws *websocket.Conn, ok func(quoteFrame) bool) quoteFrame {
	t.Helper()
	_ = ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, b, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var f quoteFrame
		decodeJSON(t, b, &f)
		if ok(f) {
			return f
		}
	}
}

func send(t *testing.T, ws *websocket.Conn, v string) {
	t.Helper()
	if err := ws.WriteMessage(websocket.TextMessage, []byte(v)); err != nil {
		t.Fatal(err)
	}
}

// Each topic's first push is a snapshot marked f; live pushes follow as
// the market moves; ping is answered with pong; cancel stops a topic.
func TestQuoteSocketTopics(t *testing.T) {
	s := start(t, Options{})
	ws := dialQuotes(t, s)
	send(t, ws, `{"symbol":"BTCUSDT,ETH-PERP","topic":"trade","event":"sub","params":{"binary":false}}`)
	for range 2 {
		f := next(t, ws, func(f quoteFrame) bool { return f.Topic == "trade" })
		if !f.F || len(f.Data) != 60 {
			t.Fatalf("first trade push of %s: f=%v %d trades, want f and 60", f.Symbol, f.F, len(f.Data))
		}
		for _, k := range []string{"v", "t", "p", "q", "m"} {
			if _, ok := f.Data[0][k]; !ok {
				t.Errorf("trade element lacks %q: %v", k, f.Data[0])
			}
		}
	}
	send(t, ws, `{"symbol":"BTCUSDT","topic":"realtimes","event":"sub","params":{"binary":false}}`)
	f := next(t, ws, func(f quoteFrame) bool { return f.Topic == "realtimes" })
	if !f.F || f.Data[0]["s"] != "BTCUSDT" || f.Data[0]["c"] == nil || f.Data[0]["qv"] == nil {
		t.Errorf("realtimes first push = %+v", f)
	}
	send(t, ws, `{"symbol":"ETHUSDT","topic":"kline_1m","event":"sub","params":{"binary":false}}`)
	f = next(t, ws, func(f quoteFrame) bool { return f.Topic == "kline" })
	if !f.F || f.Params["klineType"] != "1m" || f.Data[0]["o"] == nil {
		t.Errorf("kline first push = %+v", f)
	}
	send(t, ws, `{"symbol":"ETHUSDT","topic":"depth","event":"sub","params":{"binary":false}}`)
	f = next(t, ws, func(f quoteFrame) bool { return f.Topic == "depth" })
	if !f.F || len(f.Data[0]["b"].([]any)) == 0 || f.Data[0]["v"] == nil {
		t.Errorf("depth first push = %+v", f)
	}
	// the market moves: a live trade push (f false) and a new depth
	s.locked(s.marketStep)
	f = next(t, ws, func(f quoteFrame) bool { return f.Topic == "trade" && !f.F })
	if len(f.Data) == 0 {
		t.Errorf("live trade push is empty")
	}
	next(t, ws, func(f quoteFrame) bool { return f.Topic == "depth" && !f.F })
	send(t, ws, `{"ping":1535975085052}`)
	if f = next(t, ws, func(f quoteFrame) bool { return f.Pong != "" }); f.Pong != "1535975085052" {
		t.Errorf("pong = %s", f.Pong)
	}
	send(t, ws, `{"symbol":"NOPE","topic":"trade","event":"sub","params":{"binary":false}}`)
	if f = next(t, ws, func(f quoteFrame) bool { return f.Code != 0 }); f.Code != codeBadSymbol {
		t.Errorf("unknown symbol answered %d", f.Code)
	}
	send(t, ws, `{"event":"cancel_all"}`)
	send(t, ws, `{"ping":2}`)
	next(t, ws, func(f quoteFrame) bool { return f.Pong == "2" })
	s.locked(s.marketStep)
	_ = ws.SetReadDeadline(time.Now().Add(1500 * time.Millisecond))
	if _, b, err := ws.ReadMessage(); err == nil {
		t.Errorf("push after cancel_all: %s", b)
	}
}

// The pushes are the tape: a trade the account makes arrives on the
// socket with the same price and quantity as its fill.
func TestQuoteSocketCarriesAccountFills(t *testing.T) {
	s := start(t, Options{})
	ws := dialQuotes(t, s)
	send(t, ws, `{"symbol":"ETH-PERP","topic":"trade","event":"sub","params":{"binary":false}}`)
	next(t, ws, func(f quoteFrame) bool { return f.F })
	s.quoteBook("ETH-PERP", "3000", "3001.25", "50")
	wantOK(t, signed(t, s, "POST", "/openapi/contract/v1/order", "symbol=ETH-PERP&side=BUY_OPEN&priceType=MARKET&quantity=1.5&leverage=10&clientOrderId=q1"))
	f := next(t, ws, func(f quoteFrame) bool { return !f.F })
	if len(f.Data) != 1 || f.Data[0]["p"] != "3001.25" || f.Data[0]["q"] != "1.5" || f.Data[0]["m"] != false {
		t.Errorf("tape push = %v, want one trade 1.5 at 3001.25, buyer taker", f.Data)
	}
}

// A socket that sends no ping within the idle time is closed; one that
// pings stays.
//
// Idle is 1 s, not 300 ms: the chatty socket's pings come a round trip
// and 100 ms apart, and on a loaded machine under -race a round trip can
// take a good part of 300 ms. "Too early" is measured on the clock, not
// in pings of the other (a slow machine pings fewer times in 300 ms and
// was told the quiet socket closed too early).
func TestQuoteSocketIdleClose(t *testing.T) {
	const idle = time.Second
	s := start(t, Options{QuoteIdle: idle})
	opened := time.Now() // the server's idle time starts after this
	quiet := dialQuotes(t, s)
	chatty := dialQuotes(t, s)
	deadline := time.Now().Add(10 * time.Second)
	closed := make(chan error, 1)
	go func() {
		_ = quiet.SetReadDeadline(deadline)
		for {
			if _, _, err := quiet.ReadMessage(); err != nil {
				closed <- err
				return
			}
		}
	}()
	for i := 0; ; i++ {
		send(t, chatty, `{"ping":`+strconv.FormatInt(time.Now().UnixMilli(), 10)+`}`)
		next(t, chatty, func(f quoteFrame) bool { return f.Pong != "" })
		select {
		case err := <-closed:
			if !websocket.IsCloseError(err, websocket.CloseNormalClosure) {
				t.Errorf("quiet socket ended with %v, want a normal close", err)
			}
			if d := time.Since(opened); d < idle {
				t.Errorf("quiet socket closed %v after it opened (%d pings of the other), before its idle time %v", d, i, idle)
			}
			return
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("quiet socket not closed")
		}
	}
}

// --no-market-data refuses the quote socket with 404.
func TestQuoteSocketRefused(t *testing.T) {
	s := start(t, Options{NoMarketData: true})
	_, res, err := websocket.DefaultDialer.Dial(s.WSURL()+"/openapi/quote/ws/v1", nil)
	if err == nil || res == nil || res.StatusCode != http.StatusNotFound {
		t.Errorf("dial = %v, %v; want a 404 refusal", res, err)
	}
}
