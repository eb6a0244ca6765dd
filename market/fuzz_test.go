package market

import (
	"testing"
	"time"
)

// FuzzDecodeFrame: any bytes decode or fail with ErrMalformed, never
// panic, and whatever decodes applies to a store without panicking.
func FuzzDecodeFrame(f *testing.F) {
	f.Add([]byte(`{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"1","t":1,"p":"1.5","q":"2","m":true}],"f":true}`))
	f.Add([]byte(`{"symbol":"BTCUSDT","topic":"depth","data":[{"s":"BTCUSDT","t":1,"v":"1","b":[["1","2"]],"a":[["3","4"]]}]}`))
	f.Add([]byte(`{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":1,"s":"BTCUSDT","c":"1","h":"1","l":"1","o":"1","v":"1"}]}`))
	f.Add([]byte(`{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1,"s":"BTCUSDT","c":"1","h":"1","l":"1","o":"1","v":"1","qv":"1"}]}`))
	f.Add([]byte(`{"ping":1}`))
	s := NewStore(nil, func() time.Time { return time.UnixMilli(1) })
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Push
		if err := DecodeFrame(b, &p); err != nil {
			return
		}
		s.ApplyPush(&p)
		s.Publish()
	})
}
