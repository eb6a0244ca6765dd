package event

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// sameEvents reports how fast's events differ from generic's ("" when
// they agree): kinds, reasons, raw texts and, for an execution report,
// every field of the view (nil and empty told apart).
func sameEvents(fast, generic []Event) string {
	if len(fast) != len(generic) {
		return fmt.Sprintf("%d events, want %d", len(fast), len(generic))
	}
	for i := range fast {
		f, g := &fast[i], &generic[i]
		if f.Kind != g.Kind || f.Reason != g.Reason || !bytes.Equal(f.Raw, g.Raw) {
			return fmt.Sprintf("event %d: %v %q %q, want %v %q %q", i, f.Kind, f.Reason, f.Raw, g.Kind, g.Reason, g.Raw)
		}
		switch f.Kind {
		case KindAccount:
			if diff := sameAccounts(&f.Account, &g.Account); diff != "" {
				return fmt.Sprintf("event %d: %s", i, diff)
			}
			continue
		case KindPosition:
			a, b := positionTexts(&f.Position), positionTexts(&g.Position)
			for k := range a {
				if !bytes.Equal(a[k], b[k]) {
					return fmt.Sprintf("event %d: position field %d = %q, want %q", i, k, a[k], b[k])
				}
			}
			continue
		case KindExecution, KindContractExecution:
		default:
			continue
		}
		a, b := &f.Exec, &g.Exec
		if !idNumOK(a) || !idNumOK(b) {
			return fmt.Sprintf("event %d: IDNum %d, %d of id %q", i, a.IDNum, b.IDNum, a.OrderID)
		}
		if !zNumOK(a) || !zNumOK(b) {
			return fmt.Sprintf("event %d: ZNum %d/%d, %d/%d of z %q", i, a.ZNum, a.ZScale, b.ZNum, b.ZScale, a.CumQty)
		}
		if a.EventTime != b.EventTime || a.Created != b.Created || a.Working != b.Working || a.Maker != b.Maker || a.Close != b.Close {
			return fmt.Sprintf("event %d: E O w m C = %d %d %v %v %v, want %d %d %v %v %v", i,
				a.EventTime, a.Created, a.Working, a.Maker, a.Close, b.EventTime, b.Created, b.Working, b.Maker, b.Close)
		}
		fa, fb := execTexts(a), execTexts(b)
		for k := range fa {
			if !bytes.Equal(fa[k], fb[k]) || (fa[k] == nil) != (fb[k] == nil) {
				return fmt.Sprintf("event %d: text field %d = %q, want %q", i, k, fa[k], fb[k])
			}
		}
	}
	return ""
}

func sameAccounts(a, b *AccountView) string {
	if a.EventTime != b.EventTime || a.CanTrade != b.CanTrade || a.CanWithdraw != b.CanWithdraw || a.CanDeposit != b.CanDeposit ||
		len(a.Balances) != len(b.Balances) {
		return fmt.Sprintf("account %+v, want %+v", *a, *b)
	}
	ta := [][]byte{a.MakerCommission, a.TakerCommission, a.BuyerCommission, a.SellerCommission, a.UpdateTime}
	tb := [][]byte{b.MakerCommission, b.TakerCommission, b.BuyerCommission, b.SellerCommission, b.UpdateTime}
	for _, bal := range a.Balances {
		ta = append(ta, bal.Asset, bal.Free, bal.Locked)
	}
	for _, bal := range b.Balances {
		tb = append(tb, bal.Asset, bal.Free, bal.Locked)
	}
	for k := range ta {
		if !bytes.Equal(ta[k], tb[k]) || (ta[k] == nil) != (tb[k] == nil) {
			return fmt.Sprintf("account text %d = %q, want %q", k, ta[k], tb[k])
		}
	}
	return ""
}

func positionTexts(p *PositionView) [][]byte {
	return [][]byte{p.AccountID, p.Symbol, p.Side, p.AvgPrice, p.Total, p.Available, p.LiquidationPrice, p.Margin, p.RealizedPnl}
}

// idNumOK: x.IDNum is 0 (not known) or the number of x.OrderID written
// plainly (at most 19 digits, no leading zero) plus one.
func idNumOK(x *ExecView) bool {
	if x.IDNum == 0 {
		return true
	}
	id := x.OrderID
	if len(id) == 0 || len(id) > 19 || id[0] == '0' && len(id) > 1 {
		return false
	}
	var v uint64
	for _, c := range id {
		if c < '0' || c > '9' {
			return false
		}
		v = v*10 + uint64(c-'0')
	}
	return v+1 == x.IDNum
}

// zNumOK: x.ZScale is 0 (not known) or x.CumQty is digits with ZScale-1
// digits after a point, ZNum their number, at most eight in all.
func zNumOK(x *ExecView) bool {
	if x.ZScale == 0 {
		return true
	}
	z, f := string(x.CumQty), int(x.ZScale)-1
	if dot := strings.IndexByte(z, '.'); f > 0 {
		if dot < 1 || len(z)-dot-1 != f {
			return false
		}
		z = z[:dot] + z[dot+1:]
	} else if dot >= 0 {
		return false
	}
	v, err := strconv.ParseUint(z, 10, 64)
	return err == nil && z[0] != '+' && len(z) <= 8 && v == x.ZNum
}

// TestZNumByLine: a report in the service's forms hands over z's number
// and scale for at most seven digits of an integer, eight of a decimal's
// two runs, 0 (not known) otherwise.
func TestZNumByLine(t *testing.T) {
	r := ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "12", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1.5", Price: "0.1", Status: "NEW", OrderID: "5", LastQty: "0", LastPrice: "0",
		Commission: "0", Created: 1, CumQuote: "0"}
	for _, z := range []string{"0", "0.0", "7", "1.5", "10.50", "1234567.1234567", "12345678", "1.12345678", "12345678.5",
		"0.00000001", "1234567", "9999999.9999999", "1234567.8", "1.2345678", "123.45678", "0.0000001", "9999.9999"} {
		for _, contract := range []bool{false, true} {
			r.CumQty, r.Contract, r.Leverage = z, contract, "5"
			var d Decoder
			evs := d.Decode(AppendExecution(nil, &r, EncodeOptions{}))
			x := &evs[0].Exec
			dot := strings.IndexByte(z, '.')
			known := dot < 0 && len(z) <= 7 || dot >= 0 && len(z) <= 9
			if !zNumOK(x) || (x.ZScale != 0) != known {
				t.Errorf("z %q (contract %v): ZNum %d ZScale %d", z, contract, x.ZNum, x.ZScale)
			}
		}
	}
}

// TestIDNumByLine: a report in the service's forms hands over its id's
// number plus one for 1 to 19 digits without a leading zero, 0 (not
// known) otherwise, and 0 when another key follows the line.
func TestIDNumByLine(t *testing.T) {
	r := ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "12", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1.5", Price: "0.1", Status: "NEW", LastQty: "0", CumQty: "0", LastPrice: "0",
		Commission: "0", Created: 1, CumQuote: "0"}
	for _, id := range []string{"0", "7", "42", "1234567", "12345678", "123456789", "999999999999999", "1000000000000000",
		"1234567890123456789", "9999999999999999999", "10000000000000000000", "12345678901234567890123", "007", "00000000000000000001"} {
		for _, contract := range []bool{false, true} {
			r.OrderID, r.Contract, r.Leverage = id, contract, ""
			if contract {
				r.Leverage = "5"
			}
			frame := AppendExecution(nil, &r, EncodeOptions{})
			for _, extra := range []bool{false, true} {
				b := frame
				if extra {
					b = append(bytes.TrimSuffix(bytes.Clone(frame), []byte("}")), `,"i":"8"}`...)
				}
				var d Decoder
				evs := d.Decode(b)
				if len(evs) != 1 || (evs[0].Kind != KindExecution && evs[0].Kind != KindContractExecution) {
					if !contract && id[0] == '0' && len(id) > 1 {
						continue // no JSON integer
					}
					t.Fatalf("%s: %v", b, evs)
				}
				x := &evs[0].Exec
				var want uint64
				if v, err := strconv.ParseUint(id, 10, 64); err == nil && !extra && len(id) <= 19 && (id[0] != '0' || len(id) == 1) {
					want = v + 1
				}
				if x.IDNum != want || !idNumOK(x) {
					t.Errorf("%s: IDNum %d, want %d", b, x.IDNum, want)
				}
			}
		}
	}
}

func execTexts(x *ExecView) [][]byte {
	return [][]byte{x.Symbol, x.ClientOrderID, x.Side, x.Type, x.TimeInForce, x.Quantity, x.Price, x.Status, x.OrderID,
		x.CumQty, x.CumQuote, x.Leverage, x.LastQty, x.LastPrice, x.Commission, x.CommissionAsset, x.ExecType,
		x.RejectReason, x.TradeTime, x.TradeID, x.StopPrice, x.IcebergQty}
}

// decodeBoth decodes frame with and without the fast path.
func decodeBoth(frame []byte) (fast, generic []Event) {
	var f, g Decoder
	g.generic = true
	return f.Decode(frame), g.Decode(frame)
}

// TestFastExecAgrees: the docs' payloads, and variations of them
// that the fast path must take or must hand to the generic path, decode
// the same either way; the usual forms take the fast path.
func TestFastExecAgrees(t *testing.T) {
	opt := ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "bh-1", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1", Price: "1", Status: "CANCELED", OrderID: "3", LastQty: "0", CumQty: "0", LastPrice: "0",
		Commission: "0", CommissionAsset: "BNB", Created: 1, CumQuote: "0", TradeID: "12"}
	optSpot := string(AppendExecution(nil, &opt, EncodeOptions{Optional: true}))
	opt.Contract, opt.Leverage = true, "5"
	optContract := string(AppendExecution(nil, &opt, EncodeOptions{Optional: true}))
	cases := []struct {
		name, frame string
		fast        bool // the fast path takes it
	}{
		{"spot", specSpot, true},
		{"contract", specContract, true},
		{"spot optional fields", optSpot, true},
		{"contract optional fields", optContract, true},
		{"spot with C and v", strings.Replace(specSpot, `"Z"`, `"C":1,"v":"x","Z"`, 1), true},
		{"contract with x r P F", strings.Replace(specContract, `"Z"`, `"x":1,"r":[],"P":{},"F":null,"Z"`, 1), true},
		{"nested unknown", strings.Replace(specSpot, `"u":true`, `"u":{"a":[1,{"b":null}],"c":[]}`, 1), true},
		{"raw fields of every type", strings.Replace(specSpot, `"l":"0.50000000","z"`, `"l":[1,"a"],"L":{"x":2},"n":-1.5e3,"N":false,"T":true,"t":-1,"z"`, 1), true},
		{"duplicate key last wins", strings.Replace(specSpot, `"X":"PARTIALLY_FILLED"`, `"X":"NEW","X":"FILLED"`, 1), true},
		{"numbers as strings", strings.NewReplacer(`"E":1499405658658`, `"E":"0001499405658658"`, `"i":4293153`, `"i":"004293153"`).Replace(specSpot), true},
		{"decimals as numbers", strings.NewReplacer(`"q":"1.00000000"`, `"q":1.0e-3`, `"z":"0.50000000"`, `"z":-0`).Replace(specSpot), true},
		{"E zero", strings.Replace(specSpot, `"E":1499405658658`, `"E":0`, 1), true},
		{"strings starting with #", strings.NewReplacer(`"s":"ETHBTC"`, `"s":"#ETH"`, `"c":1000087761`, `"c":"#1"`).Replace(specSpot), true},
		{"empty strings", strings.NewReplacer(`"s":"ETHBTC"`, `"s":""`, `"c":1000087761`, `"c":""`).Replace(specSpot), true},
		{"escaped unused key", strings.Replace(specSpot, `"u":true`, `"\u0075":"\n"`, 1), false},
		{"escaped symbol", strings.Replace(specSpot, `"ETHBTC"`, `"ETH\u0042TC"`, 1), false},
		{"escaped decimal", strings.Replace(specSpot, `"p":"0.10264410"`, `"p":"\u0030.1"`, 1), false},
		{"white space", strings.ReplaceAll(specSpot, `,`, `, `), false},
		{"a second e", strings.Replace(specSpot, `"u":true`, `"e":"outboundAccountInfo"`, 1), false},
		{"quote as key", strings.Replace(specSpot, `"u":true`, `""":true`, 1), false},
		{"backslash as key", strings.Replace(specSpot, `"u":true`, `"\":true`, 1), false},
		{"long key", strings.Replace(specSpot, `"u":true`, `"ping":1`, 1), false},
		{"E negative", strings.Replace(specSpot, `"E":1499405658658`, `"E":-5`, 1), false},
		{"E 19 digits", strings.Replace(specSpot, `"E":1499405658658`, `"E":1000000000000000000`, 1), false},
		{"E leading zero", strings.Replace(specSpot, `"E":1499405658658`, `"E":01`, 1), false},
		{"E fraction", strings.Replace(specSpot, `"E":1499405658658`, `"E":1.5`, 1), false},
		{"id leading zero", strings.Replace(specSpot, `"i":4293153`, `"i":04293153`, 1), false},
		{"id negative", strings.Replace(specSpot, `"i":4293153`, `"i":-4293153`, 1), false},
		{"id not digits", strings.Replace(specSpot, `"i":4293153`, `"i":"42a"`, 1), false},
		{"c negative", strings.Replace(specSpot, `"c":1000087761`, `"c":-1`, 1), false},
		{"c float", strings.Replace(specSpot, `"c":1000087761`, `"c":1.5`, 1), false},
		{"decimal bad", strings.Replace(specSpot, `"z":"0.50000000"`, `"z":"0.5.0"`, 1), false},
		{"decimal bad number", strings.Replace(specSpot, `"z":"0.50000000"`, `"z":0.`, 1), false},
		{"bool as string", strings.Replace(specSpot, `"w":true`, `"w":"true"`, 1), false},
		{"bool cut", strings.Replace(specSpot, `"w":true`, `"w":tru`, 1), false},
		{"missing m", strings.Replace(specSpot, `"m":false,`, ``, 1), false},
		{"contract missing v", strings.Replace(specContract, `,"v":"20"`, ``, 1), false},
		{"control character", strings.Replace(specSpot, `"BUY"`, "\"B\x01Y\"", 1), false},
		{"bad escape in unused", strings.Replace(specSpot, `"u":true`, `"u":"\q"`, 1), false},
		{"cut", specSpot[:len(specSpot)-3], false},
		{"trailing comma", strings.Replace(specSpot, `}`, `,}`, 1), false},
		{"no fields", `{"e":"executionReport"}`, false},
		{"only e and a comma", `{"e":"executionReport",`, false},
		{"in order, then a key again", strings.Replace(specSpot, `}`, `,"s":"LTCBTC","E":5}`, 1), true},
		{"in order, a bad value", strings.Replace(specSpot, `"S":"BUY"`, `"S":1`, 1), false},
		{"in order, cut after a key", specSpot[:strings.Index(specSpot, `"X":`)+4], false},
		{"in order, keys swapped", strings.Replace(specSpot, `"S":"BUY","o":"LIMIT"`, `"o":"LIMIT","S":"BUY"`, 1), true},
		{"contract in order, then a key", strings.Replace(specContract, `}`, `,"x":1}`, 1), true},
		{"contract in order, bad C", strings.Replace(specContract, `"C":false`, `"C":"no"`, 1), false},
		{"contract in order, bad v", strings.Replace(specContract, `"v":"20"`, `"v":"2x"`, 1), false},
		{"contract in order, v before C", strings.Replace(specContract, `"C":false,"v":"20"`, `"v":"20","C":false`, 1), true},
		{"in an array", `[` + specSpot + `,` + specContract + `]`, true},
		{"position", specPosition, true},
		{"position A number", strings.Replace(specPosition, `"A":"1"`, `"A":12`, 1), true},
		{"position A negative", strings.Replace(specPosition, `"A":"1"`, `"A":-12`, 1), false},
		{"position decimal as number", strings.Replace(specPosition, `"P":"1100"`, `"P":1.1e3,"x":[1]`, 1), true},
		{"position bad decimal", strings.Replace(specPosition, `"P":"1100"`, `"P":"11a"`, 1), false},
		{"position missing r", strings.Replace(specPosition, `,"r":"-0.00006721"`, ``, 1), false},
		{"position second e", strings.Replace(specPosition, `"A":"1"`, `"A":"1","e":"x"`, 1), false},
		{"account", specAccount, true},
		{"account empty B", strings.Replace(specAccount, specAccount[strings.Index(specAccount, `"B":`):len(specAccount)-1], `"B":[]`, 1), true},
		{"account two B", strings.Replace(specAccount, `"u":`, `"B":[{"a":"X","f":"1","l":"2"}],"u":`, 1), true},
		{"account balance numbers", strings.Replace(specAccount, `"f":"17366.18538083"`, `"f":17366.18538083`, 1), true},
		{"account balance extra key", strings.Replace(specAccount, `"l":"0.00000000"`, `"l":"0.00000000","x":1`, 1), false},
		{"account balance keys reordered", strings.Replace(specAccount, `{"a":"LTC","f":"17366.18538083"`, `{"f":"17366.18538083","a":"LTC"`, 1), false},
		{"account balance bad", strings.Replace(specAccount, `"f":"17366.18538083"`, `"f":"1x"`, 1), false},
		{"account balance not object", strings.Replace(specAccount, `"B":[`, `"B":[1,`, 1), false},
		{"account B not array", strings.Replace(specAccount, specAccount[strings.Index(specAccount, `"B":`):len(specAccount)-1], `"B":{}`, 1), false},
		{"account missing D", strings.Replace(specAccount, `"D":true,`, ``, 1), false},
		{"account cut balance", `{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":[{"a":`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			frame := []byte(c.frame)
			fast, generic := decodeBoth(frame)
			if diff := sameEvents(fast, generic); diff != "" {
				t.Fatalf("Decode(%s): fast path differs: %s", frame, diff)
			}
			var d Decoder
			s := scanner{b: frame, i: bytes.IndexByte(frame, '{')}
			if took := d.tryFast(&s, 1, true); took != c.fast {
				t.Errorf("tryFast(%s) took = %v, want %v", frame, took, c.fast)
			}
		})
	}
}

// TestQuotedEnd: the eight-byte scan finds the closing quote, and stops
// at escapes and control characters, wherever they fall in a word.
func TestQuotedEnd(t *testing.T) {
	for n := 0; n < 20; n++ {
		text := strings.Repeat("a", n)
		for _, tail := range []string{``, `,"x":1}`, `123456789`} {
			b := []byte(`"` + text + `"` + tail)
			if got, ok := quotedEnd(b, 0); !ok || got != n+1 {
				t.Errorf("quotedEnd(%q) = %d, %v, want %d", b, got, ok, n+1)
			}
			if _, ok := quotedEnd(b[1:], 0); ok && n > 0 {
				t.Errorf("quotedEnd(%q) ok: no quote there", b[1:])
			}
			for _, stop := range []byte{'\\', 0x00, 0x1f, '\n'} {
				s := []byte(`"` + text + string(stop) + `"` + tail)
				if _, ok := quotedEnd(s, 0); ok {
					t.Errorf("quotedEnd(%q) ok, want a stop at %d", s, n+1)
				}
			}
		}
		b := []byte(`"` + text + "\xff\x80\x7f" + `"`)
		if got, ok := quotedEnd(b, 0); !ok || got != n+4 {
			t.Errorf("quotedEnd(%q) = %d, %v, want %d", b, got, ok, n+4)
		}
	}
	// Any plain first byte, '#' (the quote's successor) included: the
	// opening quote lends no borrow to the lane after it.
	for c := 0x20; c < 0x100; c++ {
		if c == '"' || c == '\\' {
			continue
		}
		b := []byte{'"', byte(c), 'a', '"', ','}
		if got, ok := quotedEnd(b, 0); !ok || got != 3 {
			t.Errorf("quotedEnd(%q) = %d, %v, want 3", b, got, ok)
		}
	}
}

// TestParseEight: eight digits at a time read what strconv reads, and
// anything else is not eight digits.
func TestParseEight(t *testing.T) {
	for _, s := range []string{"00000000", "12345678", "99999999", "10000000", "00000001", "17000000", "50505050"} {
		v := binary.LittleEndian.Uint64([]byte(s))
		want, _ := strconv.ParseUint(s, 10, 64)
		if !eightDigits(v) || parseEight(v) != want {
			t.Errorf("parseEight(%s) = %v %d, want %d", s, eightDigits(v), parseEight(v), want)
		}
	}
	for _, s := range []string{"1234567/", "1234567:", "/2345678", "123 5678", "1234567\x00", "\xb0\xb0\xb0\xb0\xb0\xb0\xb0\xb0", "12345.78"} {
		if eightDigits(binary.LittleEndian.Uint64([]byte(s))) {
			t.Errorf("eightDigits(%q) = true", s)
		}
	}
}

// FuzzFastExec: any frame decodes the same with the fast path as with
// the generic one.
func FuzzFastExec(f *testing.F) {
	r := ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "12", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1.5", Price: "0.1", Status: "PARTIALLY_FILLED", OrderID: "3", LastQty: "0.5", CumQty: "0.5", LastPrice: "0.1",
		Commission: "0", Created: 1, CumQuote: "0.05"}
	spot, spotOpt := AppendExecution(nil, &r, EncodeOptions{}), AppendExecution(nil, &r, EncodeOptions{Optional: true})
	r.Contract, r.Leverage, r.TradeID = true, "5", "99"
	contract := AppendExecution(nil, &r, EncodeOptions{})
	testkit.SeedBytes(f, specSpot, specContract, `[`+specSpot+`,`+specContract+`]`, specPosition, specAccount,
		strings.Replace(specSpot, `"u":true`, `"u":{"a":[1]},"t":-1,"x":"NEW","P":"0"`, 1),
		string(spot), string(spotOpt), string(contract))
	f.Fuzz(func(t *testing.T, frame []byte) {
		frame = frame[:len(frame):len(frame)] // a read past the end panics
		fast, generic := decodeBoth(frame)
		if diff := sameEvents(fast, generic); diff != "" {
			t.Fatalf("Decode(%q): fast path differs: %s", frame, diff)
		}
	})
}

// TestDigitsEnd: eight bytes at a time, the run of digits ends where a
// byte at a time says, whatever follows it (any byte, carries and
// borrows in the lanes after the first non-digit included).
func TestDigitsEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	alphabet := []byte("0123456789/:.\"-e\x00\xff\xb9\xba\x2f\x3a\xc6")
	for range 20000 {
		b := make([]byte, r.IntN(30))
		for i := range b {
			if r.IntN(4) == 0 {
				b[i] = alphabet[r.IntN(len(alphabet))]
			} else {
				b[i] = byte('0' + r.IntN(10))
			}
		}
		from := r.IntN(len(b) + 1)
		want := from
		for want < len(b) && isDigit(b[want]) {
			want++
		}
		if got := digitsEnd(b, from); got != want {
			t.Fatalf("digitsEnd(%q, %d) = %d, want %d", b, from, got, want)
		}
	}
}

// TestCutInAnExactBuffer: every cut of the docs' frames (with null in
// fields kept as written, where a cut "null" must be refused without
// looking past it), each in a buffer with no room after it, and again
// with other bytes in the room after it, decodes as the generic path
// decodes it: never a read or a slice past the frame's end.
func TestCutInAnExactBuffer(t *testing.T) {
	frames := []string{specSpot, specContract, specPosition, specAccount,
		strings.Replace(specContract, `"N":"BTC"`, `"N":null`, 1),
		strings.Replace(specAccount, `"u":1499405658849`, `"u":null`, 1),
		strings.Replace(specSpot, `"u":true`, `"u":null,"T":null`, 1)}
	for _, frame := range frames {
		for n := range len(frame) + 1 {
			exact := []byte(frame[:n])
			exact = exact[:n:n]
			roomy := append(append(make([]byte, 0, n+16), frame[:n]...), `null,"0123456"`...)[:n]
			for _, b := range [][]byte{exact, roomy} {
				fast, generic := decodeBoth(b)
				if diff := sameEvents(fast, generic); diff != "" {
					t.Errorf("Decode(%s) (cap %d): fast path differs: %s", b, cap(b), diff)
				}
			}
		}
	}
}
