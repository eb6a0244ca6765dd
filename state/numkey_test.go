package state

import (
	"bhtop/event"
	"strings"
	"testing"
)

// plainNumber is the number id writes, digit by digit, as numKey read
// it before it read by words; false for no plain number of at most 19
// digits.
func plainNumber(id string) (uint64, bool) {
	if len(id) == 0 || len(id) > 19 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// TestNumKeyDigitByDigit: numKey reading by words is 0 exactly for what
// is no plain number, and gives distinct numbers distinct keys, for
// ids of 1 to 21 bytes with a non-digit (or another digit) at each
// place, and leading zeros.
func TestNumKeyDigitByDigit(t *testing.T) {
	seen := map[uint64]uint64{}
	for n := 1; n <= 21; n++ {
		base := strings.Repeat("9", n)
		ids := []string{base, "1" + strings.Repeat("0", n-1), "0" + base[1:]}
		for i := 0; i < n; i++ {
			for _, c := range []byte{'/', ':', 'a', 0x80, 0xb9, 0, ' ', '0', '5'} {
				b := []byte(base)
				b[i] = c
				ids = append(ids, string(b))
			}
		}
		for _, id := range ids {
			k := numKey(id)
			v, ok := plainNumber(id)
			if k2 := numKey([]byte(id)); (k != 0) != ok || k2 != k {
				t.Errorf("numKey(%q) = %x (as bytes %x), plain number %v", id, k, k2, ok)
			}
			if w, dup := seen[k]; ok && dup && w != v {
				t.Errorf("numKey(%q) = %x, the key of %d too", id, k, w)
			}
			if ok {
				seen[k] = v
			}
		}
	}
}

// decodedUpdate is the view of an order update with id and z, written as
// the service writes it and decoded; nil when it is no order update.
func decodedUpdate(id, z string, contract bool) *event.ExecView {
	r := event.ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "12", Side: "SELL", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "1.5", Price: "0.1", Status: "NEW", OrderID: id, LastQty: "0", CumQty: z,
		LastPrice: "0", Commission: "0", Created: 1, CumQuote: "0", Contract: contract, Leverage: "5"}
	var d event.Decoder
	evs := d.Decode(event.AppendExecution(nil, &r, event.EncodeOptions{}))
	if evs[0].Kind != event.KindExecution && evs[0].Kind != event.KindContractExecution {
		return nil
	}
	return &evs[0].Exec
}

// TestIDKeyDecoded: the key of a decoded update (the decoder's number
// when it handed one over) is numKey of its id, for ids of 1 to 21
// digits in spot and contract reports.
func TestIDKeyDecoded(t *testing.T) {
	known := 0
	for n := 1; n <= 21; n++ {
		for _, id := range []string{strings.Repeat("9", n), "1" + strings.Repeat("0", n-1), "0" + strings.Repeat("3", n-1)} {
			for _, contract := range []bool{false, true} {
				x := decodedUpdate(id, "0", contract)
				if x == nil {
					continue // a spot id with a leading zero: no JSON integer
				}
				if x.IDNum != 0 {
					known++
				}
				if k := idKey(x); k != numKey(id) {
					t.Errorf("idKey of %q (IDNum %d) = %x, numKey %x", id, x.IDNum, k, numKey(id))
				}
			}
		}
	}
	if known == 0 {
		t.Error("no decoded update handed its id's number over")
	}
}

// TestZValueDecoded: z's value from the decoder's number (scaledDec) is
// decValue of its literal, which the z key takes otherwise.
func TestZValueDecoded(t *testing.T) {
	known := 0
	for _, z := range []string{"0", "0.0", "00.000", "7", "70", "1.5", "10.50", "1234567.1234567", "1000000.1000000",
		"0.0000001", "0.00000001", "12345678", "9999999.9999999", "007.50", "1234.5678", "0.1234567"} {
		for _, contract := range []bool{false, true} {
			x := decodedUpdate("5", z, contract)
			if x == nil || x.ZScale == 0 {
				continue
			}
			known++
			sig, exp := scaledDec(x.ZNum, int(x.ZScale)-1)
			if wsig, wexp, ok := decValue([]byte(z)); !ok || sig != wsig || exp != wexp {
				t.Errorf("z %q: scaledDec %d %d, decValue %d %d", z, sig, exp, wsig, wexp)
			}
		}
	}
	if known == 0 {
		t.Error("no decoded update handed z's number over")
	}
}

// TestOrderKeysSpreadStrided: the ids of one account's orders are often
// an arithmetic sequence with a step other than 1 (the exchange numbers
// every account's orders in one sequence; a bot, or accounts served in
// turn, take every k-th); the order index (keyIndex, linear probing homed
// by the key's low bits) must still find each in a few probes. A mix that
// is one multiply (bits.RotateLeft64(v*0x9e3779b97f4a7c15, 32)) took 160
// probes on average for 10,000 ids of step 227, and 467 for 500,000 of
// step 248 (splitmix64's finalizer: at most 1.3 and 1.5 for every step).
func TestOrderKeysSpreadStrided(t *testing.T) {
	const n = 10000
	ks := make([]uint64, n)
	for step := uint64(1); step <= 300; step++ {
		var x keyIndex[int32]
		for i := range ks {
			ks[i] = mixID(8000000000 + uint64(i)*step + 1)
			x.put(ks[i], int32(i))
		}
		mask := uint64(len(x.tab) - 1)
		probes := 0
		for _, k := range ks {
			probes++
			for j := k & mask; x.tab[j].key != k; j = (j + 1) & mask {
				probes++
			}
		}
		if avg := float64(probes) / n; avg > 2 {
			t.Errorf("step %d: %.1f probes on average to find one of %d ids (keyIndex of %d slots)", step, avg, n, len(x.tab))
		}
	}
}
