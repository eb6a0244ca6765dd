package market

import (
	"errors"
	"reflect"
	"testing"
)

func TestDecodeFrame(t *testing.T) {
	tests := []struct {
		name  string
		frame string
		want  Push
	}{
		{
			name:  "realtimes (API-FACTS)",
			frame: `{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1565592960014,"s":"BTCUSDT","c":"11436.14","h":"11500.5","l":"11300","o":"11381.89","v":"16.3306","qv":"186820.99"}],"f":true}`,
			want: Push{Kind: FramePush, Symbol: "BTCUSDT", Topic: "realtimes", First: true,
				Tickers: []Ticker{{Time: 1565592960014, Close: "11436.14", High: "11500.5", Low: "11300", Open: "11381.89", Volume: "16.3306", QuoteVol: "186820.99"}},
				Symbols: []string{"BTCUSDT"}},
		},
		{
			name:  "trade with an id beyond 2^53",
			frame: `{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"564159282018951168","t":1565592960000,"p":"11436.14","q":"0.0018","m":true},{"v":"564159282018951169","t":"1565592960001","p":11436.15,"q":"0.5","m":false}],"f":false}`,
			want: Push{Kind: FramePush, Symbol: "BTCUSDT", Topic: "trade",
				Trades: []Trade{
					{ID: "564159282018951168", Time: 1565592960000, Price: "11436.14", Qty: "0.0018", BuyerMaker: true},
					{ID: "564159282018951169", Time: 1565592960001, Price: "11436.15", Qty: "0.5"},
				},
				Symbols: []string{"", ""}},
		},
		{
			name:  "kline with klineType",
			frame: `{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m","binary":"false"},"data":[{"t":1565595900000,"s":"BTCUSDT","c":"11436.14","h":"11437","l":"11381.89","o":"11381.89","v":"16.3306"}],"f":false}`,
			want: Push{Kind: FramePush, Symbol: "BTCUSDT", Topic: "kline", Interval: "1m",
				Candles: []Candle{{OpenTime: 1565595900000, Open: "11381.89", High: "11437", Low: "11381.89", Close: "11436.14", Volume: "16.3306"}},
				Symbols: []string{"BTCUSDT"}},
		},
		{
			name:  "kline topic with its interval",
			frame: `{"symbol":"ETHBTC","topic":"kline_5m","data":[{"t":1,"c":"0.05","h":"0.06","l":"0.04","o":"0.05","v":"1"}]}`,
			want: Push{Kind: FramePush, Symbol: "ETHBTC", Topic: "kline", Interval: "5m",
				Candles: []Candle{{OpenTime: 1, Open: "0.05", High: "0.06", Low: "0.04", Close: "0.05", Volume: "1"}},
				Symbols: []string{""}},
		},
		{
			name:  "depth",
			frame: `{"symbol":"BTCUSDT","topic":"depth","data":[{"s":"BTCUSDT","t":1565600357643,"v":"112801745_18","b":[["11371.49","0.0014"],["11371.12","0.2"]],"a":[["11372.41","0.004"]]}],"f":true}`,
			want: Push{Kind: FramePush, Symbol: "BTCUSDT", Topic: "depth", First: true,
				Books: []Book{{Time: 1565600357643, Version: "112801745_18",
					Bids: []Level{{"11371.49", "0.0014"}, {"11371.12", "0.2"}}, Asks: []Level{{"11372.41", "0.004"}}}},
				Symbols: []string{"BTCUSDT"}},
		},
		{
			name:  "a bad element is skipped, its neighbours kept",
			frame: `{"symbol":"X","topic":"trade","data":[{"v":"1","t":1,"p":"x1","q":"1"},7,{"v":"2","t":2,"p":"1.5","q":"2"}]}`,
			want: Push{Kind: FramePush, Symbol: "X", Topic: "trade", Skipped: 2,
				Trades: []Trade{{ID: "2", Time: 2, Price: "1.5", Qty: "2"}}, Symbols: []string{""}},
		},
		{
			name:  "pong",
			frame: `{"pong":1535975085052}`,
			want:  Push{Kind: FramePong, Ping: 1535975085052},
		},
		{
			name:  "ping from the service",
			frame: `{"ping":"123456789012345678901"}`,
			want:  Push{Kind: FramePing, PingText: "123456789012345678901"},
		},
		{
			name:  "subscription acknowledgement",
			frame: `{"symbol":"BTCUSDT","topic":"trade","event":"sub","params":{"binary":false},"code":"0","msg":"Success"}`,
			want:  Push{Kind: FrameOther, Symbol: "BTCUSDT", Topic: "trade", Code: "0", Msg: "Success"},
		},
		{
			name:  "error reply",
			frame: `{"code":-1121,"msg":"Invalid symbol."}`,
			want:  Push{Kind: FrameOther, Code: "-1121", Msg: "Invalid symbol."},
		},
		{
			name:  "unknown topic",
			frame: `{"symbol":"X","topic":"diffDepth","data":[]}`,
			want:  Push{Kind: FrameOther, Symbol: "X", Topic: "diffDepth"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p Push
			if err := DecodeFrame([]byte(tt.frame), &p); err != nil {
				t.Fatalf("DecodeFrame: %v", err)
			}
			norm(&p)
			norm(&tt.want)
			if !reflect.DeepEqual(p, tt.want) {
				t.Errorf("DecodeFrame(%s)\n got %+v\nwant %+v", tt.frame, p, tt.want)
			}
		})
	}
}

// norm makes empty slices nil so DeepEqual compares contents, and drops
// the scratch space.
func norm(p *Push) {
	p.levels = nil
	if len(p.Tickers) == 0 {
		p.Tickers = nil
	}
	if len(p.Trades) == 0 {
		p.Trades = nil
	}
	if len(p.Candles) == 0 {
		p.Candles = nil
	}
	if len(p.Books) == 0 {
		p.Books = nil
	}
	if len(p.Symbols) == 0 {
		p.Symbols = nil
	}
}

func TestDecodeFrameMalformed(t *testing.T) {
	for _, f := range []string{``, `[]`, `{"topic":"trade","data":{}}`, `{"topic":"trade","data":[1}`, `not json`, `{"a":1}x`} {
		var p Push
		if err := DecodeFrame([]byte(f), &p); !errors.Is(err, ErrMalformed) {
			t.Errorf("DecodeFrame(%q) = %v, want ErrMalformed", f, err)
		}
	}
}

func TestDecodeFrameReusesPush(t *testing.T) {
	var p Push
	trade := []byte(`{"symbol":"X","topic":"trade","data":[{"v":"1","t":1,"p":"1","q":"1"}]}`)
	depth := []byte(`{"symbol":"X","topic":"depth","data":[{"t":1,"b":[],"a":[]}]}`)
	for range 3 {
		if err := DecodeFrame(trade, &p); err != nil || len(p.Trades) != 1 || len(p.Books) != 0 {
			t.Fatalf("trade after reuse: %+v, %v", p, err)
		}
		if err := DecodeFrame(depth, &p); err != nil || len(p.Trades) != 0 || len(p.Books) != 1 || p.First {
			t.Fatalf("depth after reuse: %+v, %v", p, err)
		}
	}
}
