package state

import (
	"testing"

	"bhtop/event"
)

// TestOrderTextsChange: an update of a known order that changes its
// symbol, side, type, time in force or leverage shows the new text, be it
// of another length or of the same length with one byte changed in any
// bits (foldOrder compares the texts in words, all at once), and back.
func TestOrderTextsChange(t *testing.T) {
	bases := []string{"", "B", "BU", "BUY", "SELL", "LIMIT", "MARKET", "ETHBTC", "BTC-PERP", "BTC-PERP-REV",
		"ABCDEFGHIJKLMNOP", "ABCDEFGHIJKLMNOPQ", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "1", "10", "125", "1000"}
	// pairs of texts, each of a base and its every variant with a byte
	// flipped in some bits (plain JSON text only)
	var pairs [][2]string
	for k, base := range bases {
		pairs = append(pairs, [2]string{base, bases[(k+1)%len(bases)]})
		for i := range base {
			for flip := byte(1); flip < 0x80; flip++ {
				b := []byte(base)
				if b[i] ^= flip; b[i] > ' ' && b[i] < 0x7f && b[i] != '"' && b[i] != '\\' {
					pairs = append(pairs, [2]string{base, string(b)})
				}
			}
		}
	}
	s := NewStore()
	e := int64(1)
	for _, contract := range []bool{false, true} {
		r := event.ExecutionReport{Contract: contract, Symbol: "ETHBTC", ClientOrderID: "c1", Side: "BUY", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "1", Price: "0.1", Status: "NEW", OrderID: "7", LastQty: "0", CumQty: "0",
			LastPrice: "0", Commission: "0", Working: true, Created: 1, CumQuote: "0", Leverage: "10"}
		market := MarketSpot
		if contract {
			market = MarketContract
		}
		for field := range 5 {
			if field == 4 && !contract {
				continue
			}
			for _, pair := range pairs {
				for _, text := range pair {
					if field == 4 && !event.IsDigits([]byte(text)) { // a leverage is a number
						continue
					}
					e++
					r.EventTime = e
					*[]*string{&r.Symbol, &r.Side, &r.Type, &r.TimeInForce, &r.Leverage}[field] = text
					s.ApplyFrame(event.AppendExecution(nil, &r, event.EncodeOptions{}), nil)
					o := findOrder(s.Snapshot(), market, "7")
					if o == nil {
						t.Fatalf("%s order 7 missing after setting field %d to %q", market, field, text)
					}
					got := []string{o.Symbol, o.Side, o.Type, o.TimeInForce, ""}[field]
					if field == 4 {
						got = *o.Leverage
					}
					if got != text {
						t.Fatalf("%s field %d = %q, want %q", market, field, got, text)
					}
				}
			}
		}
	}
}
