package market

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// benchFrames are quote-socket pushes as the service sends them: one
// trade, a 24 h ticker, the current 1m bar, and a book of levels a side.
func benchFrames(levels int) map[string][]byte {
	var b, a strings.Builder
	for i := range levels {
		if i > 0 {
			b.WriteByte(',')
			a.WriteByte(',')
		}
		fmt.Fprintf(&b, `["%d.%02d","0.%04d"]`, 61000-i, i, i+1)
		fmt.Fprintf(&a, `["%d.%02d","1.%04d"]`, 61001+i, i, i+1)
	}
	return map[string][]byte{
		"trade":     []byte(`{"symbol":"BTCUSDT","topic":"trade","data":[{"v":"564159282018951168","t":1565592960000,"p":"61234.56","q":"0.0018","m":true}],"f":false}`),
		"realtimes": []byte(`{"symbol":"BTCUSDT","topic":"realtimes","data":[{"t":1565592960014,"s":"BTCUSDT","c":"61234.56","h":"61500.5","l":"60300","o":"61381.89","v":"16.3306","qv":"1000820.99"}],"f":false}`),
		"kline":     []byte(`{"symbol":"BTCUSDT","topic":"kline","params":{"klineType":"1m"},"data":[{"t":1565595900000,"s":"BTCUSDT","c":"61234.56","h":"61237","l":"61181.89","o":"61181.89","v":"16.3306"}],"f":false}`),
		"depth":     []byte(`{"symbol":"BTCUSDT","topic":"depth","data":[{"s":"BTCUSDT","t":1565600357643,"v":"112801745_18","b":[` + b.String() + `],"a":[` + a.String() + `]}],"f":false}`),
	}
}

// BenchmarkIngest decodes quote pushes and applies them to a store, as
// the client's loop does (publishing is coalesced: every 1,000 pushes
// here, every 100 ms in the client). Goal: >= 200k pushes/s on one core.
func BenchmarkIngest(b *testing.B) {
	fr := benchFrames(20)
	mix := [][]byte{fr["trade"], fr["realtimes"], fr["trade"], fr["kline"], fr["depth"]}
	cases := []struct {
		name   string
		frames [][]byte
	}{
		{"mix", mix},
		{"trade", [][]byte{fr["trade"]}},
		{"realtimes", [][]byte{fr["realtimes"]}},
		{"kline", [][]byte{fr["kline"]}},
		{"depth20", [][]byte{fr["depth"]}},
		{"depth300", [][]byte{benchFrames(300)["depth"]}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := NewStore(nil, func() time.Time { return time.UnixMilli(1) })
			var p Push
			b.ReportAllocs()
			start, cpu0 := time.Now(), testkit.CPUTime()
			n := 0
			for b.Loop() {
				if err := DecodeFrame(c.frames[n%len(c.frames)], &p); err != nil {
					b.Fatal(err)
				}
				s.ApplyPush(&p)
				if n++; n%1000 == 0 {
					s.Publish()
				}
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "pushes/s")
			// CPU time per push: what other processes on a shared machine
			// do not inflate (GC workers included).
			if cpu := testkit.CPUTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(n)/cpu.Seconds(), "cpu-pushes/s")
			}
		})
	}
}
