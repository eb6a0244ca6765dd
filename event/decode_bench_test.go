package event

import (
	stdjson "encoding/json"
	"strconv"
	"testing"

	"bhtop/internal/testkit"
)

var benchSpot = AppendExecution(nil, &ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.00000000", CumQty: "0.5", LastPrice: "0.00000000", Commission: "0", Working: true, Created: 1499405658657, CumQuote: "0.05132205"}, EncodeOptions{})

// benchSpotNew is a NEW order's report as the simulator writes it: Z
// "0" after a 13-digit O.
var benchSpotNew = shortEndReports()[0]

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
		{"spot", string(benchSpot)}, {"spot-new", benchSpotNew}, {"contract", specContract}, {"account", specAccount}, {"position", specPosition},
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

// BenchmarkDecodeColdReports decodes 200,000 distinct order updates (the
// frames of state's BenchmarkIngestKnownOrders: 10,000 orders, a quarter
// contract, 20 partial fills each, every fifth round with the optional
// fields), one per op, so each frame comes cold from memory as in ingest.
func BenchmarkDecodeColdReports(b *testing.B) {
	const orders, rounds = 10_000, 20
	var frames [][]byte
	for k := 1; k <= rounds; k++ {
		for i := range orders {
			r := ExecutionReport{EventTime: 1_000 + 7*int64(k), Symbol: "ETHBTC", ClientOrderID: strconv.Itoa(1000 + i), Side: "BUY",
				Type: "LIMIT", TimeInForce: "GTC", Quantity: "1000000", Price: "0.1026441", Status: "PARTIALLY_FILLED",
				OrderID: strconv.Itoa(4293153 + i), LastQty: "1.5", CumQty: strconv.Itoa(k) + ".5", LastPrice: "0", Commission: "0",
				Working: true, Created: 1_000, CumQuote: strconv.Itoa(k) + ".15396615"}
			if i%4 == 0 {
				r.Contract, r.Symbol, r.OrderID, r.Leverage, r.CommissionAsset = true, "BTC-PERP-REV", strconv.FormatUint(469961015902208000+uint64(i), 10), "10", "USDT"
			}
			frames = append(frames, AppendExecution(nil, &r, EncodeOptions{Optional: k%5 == 0}))
		}
	}
	var d Decoder
	b.ReportAllocs()
	k := 0
	c0 := testkit.CPUTime()
	for b.Loop() {
		if evs := d.Decode(frames[k]); evs[0].Kind == KindMalformed {
			b.Fatal(evs[0].Reason)
		}
		if k++; k == len(frames) {
			k = 0
		}
	}
	b.ReportMetric(float64(testkit.CPUTime()-c0)/float64(b.N), "cpu-ns/op")
}
