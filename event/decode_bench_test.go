package event

import (
	stdjson "encoding/json"
	"testing"
)

func BenchmarkDecodeSpot(b *testing.B) {
	f := AppendExecution(nil, &ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.00000000", CumQty: "0.5", LastPrice: "0.00000000", Commission: "0", Working: true, Created: 1499405658657, CumQuote: "0.05132205"}, EncodeOptions{})
	var d Decoder
	b.SetBytes(int64(len(f)))
	b.ReportAllocs()
	for b.Loop() {
		if evs := d.Decode(f); evs[0].Kind != KindExecution {
			b.Fatal(evs[0].Reason)
		}
	}
}

func BenchmarkValid(b *testing.B) {
	f := AppendExecution(nil, &ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.00000000", CumQty: "0.5", LastPrice: "0.00000000", Commission: "0", Working: true, Created: 1499405658657, CumQuote: "0.05132205"}, EncodeOptions{})
	b.SetBytes(int64(len(f)))
	for b.Loop() {
		Valid(f)
	}
}

func BenchmarkStdValid(b *testing.B) {
	f := AppendExecution(nil, &ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.00000000", CumQty: "0.5", LastPrice: "0.00000000", Commission: "0", Working: true, Created: 1499405658657, CumQuote: "0.05132205"}, EncodeOptions{})
	b.SetBytes(int64(len(f)))
	for b.Loop() {
		stdjson.Valid(f)
	}
}
