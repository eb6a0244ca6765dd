package state

import (
	"fmt"
	"runtime"
	"strconv"
	"testing"

	"bhtop/event"
)

// BenchmarkSnapshotReaders publishes a snapshot after each order update
// at 20,000 orders (10,000 open, 10,000 closed) to readers that each hold
// another version (the readers take the latest in turn, so with n of them
// they hold the last n versions, the worst case of readers of different
// speeds), and reports the heap those held snapshots keep alive per
// reader (retained-B/reader, measured after a collection): what one more
// lagging reader costs in memory. With rows shared chunk by chunk it
// stays a few kB, whatever the number of readers; a reader that is up to
// date shares the writer's snapshot and costs nothing (readers=1).
func BenchmarkSnapshotReaders(b *testing.B) {
	for _, readers := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("readers=%d", readers), func(b *testing.B) { benchReaders(b, readers) })
	}
}

func benchReaders(b *testing.B, readers int) {
	s := twentyThousandOrders()
	var hub Hub
	hub.Publish(s.Snapshot())
	var c orderChanger
	held := make([]*Snapshot, readers)
	var retained float64
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.change(s, i)
		hub.Publish(s.Snapshot())
		held[i%readers] = hub.Latest() // the others keep older versions
	}
	b.StopTimer()
	if b.N >= readers {
		with := heapInUse()
		clear(held)
		retained = float64(with-heapInUse()) / float64(readers)
	}
	runtime.KeepAlive(s)
	runtime.KeepAlive(held)
	b.ReportMetric(retained, "retained-B/reader")
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// twentyThousandOrders holds 10,000 open orders (7,500 spot, 2,500
// contract) and 10,000 closed spot ones, snapshotted once.
func twentyThousandOrders() *Store {
	s, _ := knownOrders(10_000, 0)
	for i := 0; i < 10_000; i++ {
		r := event.ExecutionReport{EventTime: 2_000, Symbol: "LTCBTC", ClientOrderID: "x", Side: "SELL", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "1", Price: "2", Status: "FILLED", OrderID: strconv.Itoa(9_000_000 + i),
			CumQty: "1", CumQuote: "2", Created: 2_000}
		s.ApplyFrame(event.AppendExecution(nil, &r, event.EncodeOptions{}), nil)
	}
	s.Snapshot()
	return s
}

// orderChanger fills the 7,500 open spot orders of twentyThousandOrders
// (4293153 + n, n%4 != 0) further, one after the other.
type orderChanger struct {
	r   event.ExecutionReport
	buf []byte
	n   int
}

// change applies the next order's update, at time 2,000 + i.
func (c *orderChanger) change(s *Store, i int) {
	if c.r.Symbol == "" {
		c.r = event.ExecutionReport{Symbol: "ETHBTC", ClientOrderID: "1", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "1000000", Price: "0.1026441", Status: "PARTIALLY_FILLED", LastQty: "1", LastPrice: "0.1",
			Commission: "0", Working: true, Created: 1_000}
	}
	k := c.n % 7_500
	c.n++
	c.r.EventTime = int64(2_000 + i)
	c.r.OrderID = strconv.Itoa(4293153 + k/3*4 + k%3 + 1)
	c.r.CumQty = strconv.Itoa(i + 1)
	c.r.CumQuote = strconv.Itoa(i+1) + ".1026441"
	c.buf = event.AppendExecution(c.buf[:0], &c.r, event.EncodeOptions{})
	s.ApplyFrame(c.buf, nil)
}
