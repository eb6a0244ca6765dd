package event

import (
	stdjson "encoding/json"
	"testing"

	"bhtop/internal/testkit"
)

var benchSpot = AppendExecution(nil, &ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.00000000", CumQty: "0.5", LastPrice: "0.00000000", Commission: "0", Working: true, Created: 1499405658657, CumQuote: "0.05132205"}, EncodeOptions{})

// benchDecode decodes frame once per op with the fast path on or off,
// reporting the process CPU time per op besides wall time (the machine
// is shared).
func benchDecode(b *testing.B, frame string, generic bool) {
	f := []byte(frame)
	d := Decoder{generic: generic}
	b.SetBytes(int64(len(f)))
	b.ReportAllocs()
	c0 := testkit.CPUTime()
	for b.Loop() {
		if evs := d.Decode(f); evs[0].Kind == KindMalformed {
			b.Fatal(evs[0].Reason)
		}
	}
	b.ReportMetric(float64(testkit.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkDecode decodes the docs' payloads; /generic is the path every
// object took before the fast paths.
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct{ name, frame string }{
		{"spot", string(benchSpot)}, {"contract", specContract}, {"account", specAccount}, {"position", specPosition},
	} {
		b.Run(c.name, func(b *testing.B) { benchDecode(b, c.frame, false) })
		b.Run(c.name+"/generic", func(b *testing.B) { benchDecode(b, c.frame, true) })
	}
}

func BenchmarkValid(b *testing.B) {
	b.SetBytes(int64(len(benchSpot)))
	for b.Loop() {
		Valid(benchSpot)
	}
}

func BenchmarkStdValid(b *testing.B) {
	b.SetBytes(int64(len(benchSpot)))
	for b.Loop() {
		stdjson.Valid(benchSpot)
	}
}
