package event

import (
	"bytes"
	stdjson "encoding/json"
	"testing"

	"bhtop/internal/testkit"
)

// FuzzDecodeFrame: decoding never panics; the verdict on JSON syntax is
// encoding/json's; every decoded event satisfies the decoding rules.
func FuzzDecodeFrame(f *testing.F) {
	testkit.SeedBytes(f, specAccount, specSpot, specContract, specPosition, `{"ping":1}`, `[]`, `[`+specSpot+`,1]`, `{"e":""}`)
	var d Decoder
	f.Fuzz(func(t *testing.T, frame []byte) {
		frame = frame[:len(frame):len(frame)] // a read past the end panics
		evs := d.Decode(frame)
		if len(evs) == 0 {
			if t := bytes.TrimSpace(frame); len(t) < 2 || t[0] != '[' {
				panic("no events for a frame that is not an array")
			}
		}
		valid := stdjson.Valid(frame) && len(frame) <= MaxFrame
		if !valid && (len(evs) != 1 || evs[0].Kind != KindMalformed) {
			t.Fatalf("invalid JSON %q decoded as %v", frame, evs[0].Kind)
		}
		for _, ev := range evs {
			switch ev.Kind {
			case KindExecution, KindContractExecution:
				x := ev.Exec
				if !IsDigits(x.OrderID) || !IsDecimal(x.CumQty) || !IsDecimal(x.CumQuote) || !IsDecimal(x.Price) || !IsDecimal(x.Quantity) {
					t.Fatalf("bad order event accepted: %q", frame)
				}
				if ev.Kind == KindContractExecution && !IsDecimal(x.Leverage) {
					t.Fatalf("bad leverage accepted: %q", frame)
				}
			case KindAccount:
				for _, b := range ev.Account.Balances {
					if !IsDecimal(b.Free) || !IsDecimal(b.Locked) {
						t.Fatalf("bad balance accepted: %q", frame)
					}
				}
			case KindPosition:
				if !IsDecimal(ev.Position.Total) {
					t.Fatalf("bad position accepted: %q", frame)
				}
			case KindMalformed:
				if ev.Reason == "" {
					t.Fatalf("malformed without a reason: %q", frame)
				}
			}
			if valid && ev.Kind != KindMalformed && !stdjson.Valid(ev.Raw) {
				t.Fatalf("raw element is not JSON: %q", ev.Raw)
			}
		}
	})
}
