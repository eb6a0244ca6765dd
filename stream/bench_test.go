package stream

import (
	"strconv"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/internal/testkit"
)

// BenchmarkIngest measures frames folded per second through the session's
// writer (inbox, fold, coalesced publishing), without the network: each
// frame is one executionReport of one of 1000 orders.
func BenchmarkIngest(b *testing.B) {
	frames := make([][]byte, 4096)
	for i := range frames {
		r := event.ExecutionReport{
			EventTime: 1700000000000 + int64(i), Symbol: "ETHBTC", ClientOrderID: "c" + strconv.Itoa(i%1000),
			Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1", Price: "0.05", Status: "PARTIALLY_FILLED",
			OrderID: strconv.Itoa(1000000 + i%1000), LastQty: "0.001", CumQty: "0." + strconv.Itoa(100+i), LastPrice: "0.05",
			Commission: "0", Working: true, Created: 1700000000000, CumQuote: "0.005",
		}
		frames[i] = event.AppendExecution(nil, &r, event.EncodeOptions{})
	}
	s := writerOnly(b, "ws://127.0.0.1:1", Config{})
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		s.in <- item{frame: frames[i%len(frames)]}
	}
	s.do(func(*writer) {})
	el := time.Since(start)
	b.StopTimer()
	b.ReportMetric(float64(b.N)/el.Seconds(), "frames/s")
	close(s.stopWriter)
	testkit.Recv(b, s.writerDone, 10*time.Second, "the writer did not stop")
}
