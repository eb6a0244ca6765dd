package event

import (
	"bytes"
	"strings"
	"testing"
)

// Payloads shaped as SPEC.md and the service's docs show them.
const (
	specAccount  = `{"e":"outboundAccountInfo","E":1499405658849,"m":0,"t":0,"b":0,"s":0,"T":true,"W":true,"D":true,"u":1499405658849,"B":[{"a":"LTC","f":"17366.18538083","l":"0.00000000"},{"a":"BTC","f":"10537.85314051","l":"2.19464093"}]}`
	specSpot     = `{"e":"executionReport","E":1499405658658,"s":"ETHBTC","c":1000087761,"S":"BUY","o":"LIMIT","f":"GTC","q":"1.00000000","p":"0.10264410","X":"PARTIALLY_FILLED","i":4293153,"l":"0.50000000","z":"0.50000000","L":"0.10264410","n":"0","N":null,"u":true,"w":true,"m":false,"O":1499405658657,"Z":"0.05132205"}`
	specContract = `{"e":"contractExecutionReport","E":"1569232553541","s":"BTC-PERP-REV","c":"1569232553410","S":"BUY","o":"LIMIT","f":"IOC","q":"10","p":"8183.11","X":"FILLED","i":"469961015902208000","l":"10","z":"10","L":"8183.11","n":"0.00000122","N":"BTC","u":true,"w":true,"m":false,"O":"1569232553410","Z":"81831.1","C":false,"v":"20"}`
	specPosition = `{"e":"outboundContractPositionInfo","A":"1","s":"BTC-PERP-REV","S":"LONG","p":"8183.11","P":"1100","a":"1100","f":"7523.65","m":"0.0125","r":"-0.00006721"}`
)

func decodeOne(t *testing.T, frame string) Event {
	t.Helper()
	var d Decoder
	evs := d.Decode([]byte(frame))
	if len(evs) != 1 {
		t.Fatalf("Decode(%.60s) = %d events, want 1", frame, len(evs))
	}
	return evs[0]
}

func TestDecodeSpecPayloads(t *testing.T) {
	t.Run("account", func(t *testing.T) {
		ev := decodeOne(t, specAccount)
		a := ev.Account
		if ev.Kind != KindAccount || a.EventTime != 1499405658849 || !a.CanTrade || !a.CanWithdraw || !a.CanDeposit || len(a.Balances) != 2 {
			t.Fatalf("Decode(account) = %+v (%s)", ev, ev.Reason)
		}
		if b := a.Balances[1]; string(b.Asset) != "BTC" || string(b.Free) != "10537.85314051" || string(b.Locked) != "2.19464093" {
			t.Errorf("balance = %s %s %s", b.Asset, b.Free, b.Locked)
		}
	})
	t.Run("spot", func(t *testing.T) {
		ev := decodeOne(t, specSpot)
		x := ev.Exec
		got := strings.Join([]string{string(x.Symbol), string(x.ClientOrderID), string(x.Side), string(x.Type), string(x.TimeInForce),
			string(x.Quantity), string(x.Price), string(x.Status), string(x.OrderID), string(x.CumQty), string(x.CumQuote)}, " ")
		want := "ETHBTC 1000087761 BUY LIMIT GTC 1.00000000 0.10264410 PARTIALLY_FILLED 4293153 0.50000000 0.05132205"
		if ev.Kind != KindExecution || got != want || x.EventTime != 1499405658658 || x.Created != 1499405658657 || !x.Working || x.Maker {
			t.Errorf("Decode(spot) = %v %q %+v, want %q", ev.Kind, got, x, want)
		}
	})
	t.Run("contract all strings", func(t *testing.T) {
		ev := decodeOne(t, specContract)
		x := ev.Exec
		if ev.Kind != KindContractExecution || string(x.OrderID) != "469961015902208000" || x.EventTime != 1569232553541 ||
			x.Created != 1569232553410 || string(x.Leverage) != "20" || x.Close || string(x.ClientOrderID) != "1569232553410" {
			t.Errorf("Decode(contract) = %v %s %+v", ev.Kind, ev.Reason, x)
		}
	})
	t.Run("position", func(t *testing.T) {
		ev := decodeOne(t, specPosition)
		p := ev.Position
		if ev.Kind != KindPosition || string(p.AccountID) != "1" || string(p.Symbol) != "BTC-PERP-REV" || string(p.Side) != "LONG" ||
			string(p.AvgPrice) != "8183.11" || string(p.Total) != "1100" || string(p.Available) != "1100" ||
			string(p.LiquidationPrice) != "7523.65" || string(p.Margin) != "0.0125" || string(p.RealizedPnl) != "-0.00006721" {
			t.Errorf("Decode(position) = %v %s %+v", ev.Kind, ev.Reason, p)
		}
	})
}

// TestDecodeCaseSensitive: optional fields differing only in case from
// used ones, placed after them, must not disturb them.
func TestDecodeCaseSensitive(t *testing.T) {
	for _, opt := range []EncodeOptions{{}, {Optional: true}} {
		r := ExecutionReport{EventTime: 5, Symbol: "ETHBTC", ClientOrderID: "7", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "2", Price: "3", Status: "NEW", OrderID: "9", CumQty: "0", Maker: true, Working: true, Created: 4, CumQuote: "0"}
		ev := decodeOne(t, string(AppendExecution(nil, &r, opt)))
		if ev.Kind != KindExecution || !ev.Exec.Maker || ev.Exec.EventTime != 5 || string(ev.Exec.Status) != "NEW" {
			t.Errorf("optional=%v: maker=%v E=%d X=%s", opt.Optional, ev.Exec.Maker, ev.Exec.EventTime, ev.Exec.Status)
		}
	}
	cases := []struct{ name, frame string }{
		{"M after m", `{"e":"executionReport","E":1,"s":"A","c":1,"S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"1","X":"NEW","i":1,"z":"0","w":true,"m":true,"O":1,"Z":"0","M":false}`},
		{"T and t after", `{"e":"executionReport","E":1,"s":"A","c":1,"S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"1","X":"NEW","i":1,"z":"0","w":true,"m":true,"O":1,"Z":"0","T":99,"t":-1}`},
		{"x before X", `{"e":"executionReport","x":"CANCELED","E":1,"s":"A","c":1,"S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"1","X":"NEW","i":1,"z":"0","w":true,"m":true,"O":1,"Z":"0","I":5,"P":"9","F":"8"}`},
		{"x after X", `{"e":"executionReport","E":1,"s":"A","c":1,"S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"1","X":"NEW","x":"CANCELED","i":1,"z":"0","w":true,"m":true,"O":1,"Z":"0"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := decodeOne(t, c.frame)
			if ev.Kind != KindExecution || !ev.Exec.Maker || string(ev.Exec.Status) != "NEW" || ev.Exec.EventTime != 1 || string(ev.Exec.Price) != "1" {
				t.Errorf("Decode = %v %s maker=%v X=%s E=%d", ev.Kind, ev.Reason, ev.Exec.Maker, ev.Exec.Status, ev.Exec.EventTime)
			}
		})
	}
	t.Run("account m t b s u", func(t *testing.T) {
		ev := decodeOne(t, `{"e":"outboundAccountInfo","E":7,"m":10,"t":10,"b":0,"s":0,"T":false,"W":true,"D":false,"u":3,"B":[]}`)
		if ev.Kind != KindAccount || ev.Account.CanTrade || !ev.Account.CanWithdraw || ev.Account.EventTime != 7 {
			t.Errorf("Decode = %+v %s", ev.Account, ev.Reason)
		}
	})
}

func TestDecodeValues(t *testing.T) {
	base := func(repl ...string) string {
		f := `{"e":"executionReport","E":1,"s":"A","c":1,"S":"BUY","o":"LIMIT","f":"GTC","q":"1","p":"1","X":"NEW","i":1,"z":"0","w":true,"m":true,"O":1,"Z":"0"}`
		return strings.NewReplacer(repl...).Replace(f)
	}
	cases := []struct {
		name, frame string
		ok          bool
		check       func(x *ExecView) bool
	}{
		{"id beyond 2^53 as number", base(`"i":1`, `"i":469961015902208000123`), true, func(x *ExecView) bool { return string(x.OrderID) == "469961015902208000123" }},
		{"id as string", base(`"i":1`, `"i":"9007199254740993"`), true, func(x *ExecView) bool { return string(x.OrderID) == "9007199254740993" }},
		{"id negative", base(`"i":1`, `"i":-1`), false, nil},
		{"id fraction", base(`"i":1`, `"i":1.0`), false, nil},
		{"id empty string", base(`"i":1`, `"i":""`), false, nil},
		{"E as string", base(`"E":1`, `"E":"-12"`), true, func(x *ExecView) bool { return x.EventTime == -12 }},
		{"E exponent", base(`"E":1`, `"E":1e3`), false, nil},
		{"E fraction", base(`"E":1`, `"E":1.5`), false, nil},
		{"E overflow", base(`"E":1`, `"E":9223372036854775808`), false, nil},
		{"E max", base(`"E":1`, `"E":9223372036854775807`), true, func(x *ExecView) bool { return x.EventTime == 9223372036854775807 }},
		{"E min as string", base(`"E":1`, `"E":"-9223372036854775808"`), true, func(x *ExecView) bool { return x.EventTime == -9223372036854775808 }},
		{"E string with plus", base(`"E":1`, `"E":"+1"`), false, nil},
		{"E null", base(`"E":1`, `"E":null`), false, nil},
		{"c integer kept exactly", base(`"c":1`, `"c":-00`), false, nil},
		{"c big integer", base(`"c":1`, `"c":123456789012345678901234567890`), true, func(x *ExecView) bool { return string(x.ClientOrderID) == "123456789012345678901234567890" }},
		{"c float", base(`"c":1`, `"c":1.5`), false, nil},
		{"c string", base(`"c":1`, `"c":"bh-1a2b"`), true, func(x *ExecView) bool { return string(x.ClientOrderID) == "bh-1a2b" }},
		{"decimal as number", base(`"p":"1"`, `"p":0.1026441e-2`), true, func(x *ExecView) bool { return string(x.Price) == "0.1026441e-2" }},
		{"decimal exponent in string", base(`"p":"1"`, `"p":"1E+5"`), true, func(x *ExecView) bool { return string(x.Price) == "1E+5" }},
		{"decimal leading dot", base(`"p":"1"`, `"p":".5"`), false, nil},
		{"decimal trailing dot", base(`"p":"1"`, `"p":"5."`), false, nil},
		{"decimal plus", base(`"p":"1"`, `"p":"+5"`), false, nil},
		{"decimal empty", base(`"p":"1"`, `"p":""`), false, nil},
		{"decimal NaN", base(`"p":"1"`, `"p":"NaN"`), false, nil},
		{"decimal escaped", base(`"p":"1"`, `"p":"\u0031.5"`), true, func(x *ExecView) bool { return string(x.Price) == "1.5" }},
		{"bool as string", base(`"w":true`, `"w":"true"`), false, nil},
		{"missing Z", base(`,"Z":"0"`, ``), false, nil},
		{"duplicate key last wins", base(`"X":"NEW"`, `"X":"NEW","X":"FILLED"`), true, func(x *ExecView) bool { return string(x.Status) == "FILLED" }},
		{"escaped symbol", base(`"s":"A"`, `"s":"ETH\u0042TC\n"`), true, func(x *ExecView) bool { return string(x.Symbol) == "ETHBTC\n" }},
		{"escaped key", base(`"X":"NEW"`, `"\u0058":"FILLED","X":"NEW"`), true, func(x *ExecView) bool { return string(x.Status) == "NEW" }},
		{"escaped key last", base(`"X":"NEW"`, `"X":"NEW","\u0058":"FILLED"`), true, func(x *ExecView) bool { return string(x.Status) == "FILLED" }},
		{"bad UTF-8 in unused field", base(`"o":"LIMIT"`, "\"o\":\"LIMIT\",\"zz\":\"\xff\xfe\"") + "", true, nil},
		{"nested unknown", base(`"o":"LIMIT"`, `"o":"LIMIT","xx":{"a":[1,{"b":null}],"c":[]}`), true, nil},
		{"whitespace", strings.ReplaceAll(base(), ":", " :\n\t"), true, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := decodeOne(t, c.frame)
			if got := ev.Kind == KindExecution; got != c.ok {
				t.Fatalf("Decode(%s) kind = %v (%s), want ok=%v", c.frame, ev.Kind, ev.Reason, c.ok)
			}
			if c.check != nil && !c.check(&ev.Exec) {
				t.Errorf("Decode(%s) = %+v", c.frame, ev.Exec)
			}
		})
	}
}

func TestDecodeFrames(t *testing.T) {
	huge := `{"e":"x","pad":"` + strings.Repeat("a", MaxFrame) + `"}`
	cases := []struct {
		name, frame string
		want        []Kind
	}{
		{"empty", ``, []Kind{KindMalformed}},
		{"blank", " \n", []Kind{KindMalformed}},
		{"not JSON", `{"e":`, []Kind{KindMalformed}},
		{"trailing garbage", specPosition + `x`, []Kind{KindMalformed}},
		{"two objects", specPosition + specPosition, []Kind{KindMalformed}},
		{"scalar", `42`, []Kind{KindMalformed}},
		{"string", `"executionReport"`, []Kind{KindMalformed}},
		{"empty array", `[]`, nil},
		{"array", `[` + specSpot + `,` + specPosition + `]`, []Kind{KindExecution, KindPosition}},
		{"array with bad elements", `[1,` + specSpot + `,{"e":"executionReport"},[],null,{"ping":1}]`,
			[]Kind{KindMalformed, KindExecution, KindMalformed, KindMalformed, KindMalformed, KindPing}},
		{"broken array", `[` + specSpot + `,`, []Kind{KindMalformed}},
		{"ping", `{"ping":1535975085052}`, []Kind{KindPing}},
		{"no e", `{"E":1}`, []Kind{KindMalformed}},
		{"empty object", `{}`, []Kind{KindMalformed}},
		{"e not a string", `{"e":5,"ping":1}`, []Kind{KindMalformed}},
		{"e null", `{"e":null}`, []Kind{KindMalformed}},
		{"e empty", `{"e":""}`, []Kind{KindUnknown}},
		{"e unknown", `{"e":"balanceUpdate","E":1}`, []Kind{KindUnknown}},
		{"E instead of e", `{"E":"executionReport"}`, []Kind{KindMalformed}},
		{"ping with e", `{"e":"nope","ping":1}`, []Kind{KindUnknown}},
		{"too large", huge, []Kind{KindMalformed}},
		{"control char in string", "{\"e\":\"a\x01\"}", []Kind{KindMalformed}},
		{"bad escape", `{"e":"a\q"}`, []Kind{KindMalformed}},
		{"leading zero number", `{"e":"x","n":01}`, []Kind{KindMalformed}},
		{"balance not object", `{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":[1]}`, []Kind{KindMalformed}},
		{"balance missing l", `{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":[{"a":"X","f":"1"}]}`, []Kind{KindMalformed}},
		{"balance numbers", `{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":[{"a":"X","f":1.5,"l":0,"A":"Y"}]}`, []Kind{KindAccount}},
		{"B not array", `{"e":"outboundAccountInfo","E":1,"T":true,"W":true,"D":true,"B":{}}`, []Kind{KindMalformed}},
		{"position A integer", `{"e":"outboundContractPositionInfo","A":12,"s":"X","S":"LONG","p":"1","P":"1","a":"1","f":"1","m":"1","r":"1"}`, []Kind{KindPosition}},
		{"position missing r", `{"e":"outboundContractPositionInfo","A":"1","s":"X","S":"LONG","p":"1","P":"1","a":"1","f":"1","m":"1"}`, []Kind{KindMalformed}},
		{"contract missing v", strings.Replace(specContract, `,"v":"20"`, ``, 1), []Kind{KindMalformed}},
		{"contract missing C", strings.Replace(specContract, `"C":false,`, ``, 1), []Kind{KindMalformed}},
		{"spot without C v", specSpot, []Kind{KindExecution}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d Decoder
			evs := d.Decode([]byte(c.frame))
			var got []Kind
			for _, ev := range evs {
				got = append(got, ev.Kind)
			}
			if !equalKinds(got, c.want) {
				t.Errorf("Decode(%.80q) kinds = %v, want %v (%v)", c.frame, got, c.want, reasons(evs))
			}
		})
	}
}

func reasons(evs []Event) []string {
	var r []string
	for _, ev := range evs {
		r = append(r, ev.Reason)
	}
	return r
}

func equalKinds(a, b []Kind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDecodePing(t *testing.T) {
	for _, n := range []string{`1535975085052`, `"abc"`, `1.5e3`, `null`, `{"x":1}`} {
		ev := decodeOne(t, `{"ping": `+n+` }`)
		if ev.Kind != KindPing || string(ev.Ping) != n {
			t.Errorf("Decode(ping %s) = %v %q, want the raw %s", n, ev.Kind, ev.Ping, n)
		}
	}
}

// TestDecodeReuse: slices of one Decode stay intact until the next one,
// and a later decode does not reallocate once warm.
func TestDecodeReuse(t *testing.T) {
	var d Decoder
	frame := []byte(`[` + specAccount + `,` + strings.Replace(specSpot, `"ETHBTC"`, `"ETH\u0042TC"`, 1) + `]`)
	evs := d.Decode(frame)
	if len(evs) != 2 || string(evs[1].Exec.Symbol) != "ETHBTC" || string(evs[0].Account.Balances[0].Asset) != "LTC" {
		t.Fatalf("Decode = %+v", evs)
	}
	allocs := testing.AllocsPerRun(100, func() { d.Decode(frame) })
	if allocs != 0 {
		t.Errorf("Decode allocs = %v, want 0", allocs)
	}
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{``, ` `, `{}`, `[]`, `[1,]`, `{"a":1,}`, `"\u12"`, `"\ud800"`, "\"\xff\"", `-`, `-0`, `01`, `1.`, `1e`, `1e+`, `tru`, `nul`, `[[[]]]`, `{"a" 1}`, ` 1 `, `1 2`} {
		if got, want := Valid([]byte(s)), stdValid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestFields(t *testing.T) {
	var keys []string
	ok := Fields([]byte(` {"recv":1,"fr\u0061me":{"e":"x"},"bad":"a"} `), func(k, v []byte) { keys = append(keys, string(k)+"="+string(v)) })
	if !ok || strings.Join(keys, " ") != `recv=1 frame={"e":"x"} bad="a"` {
		t.Errorf("Fields = %v %q", ok, keys)
	}
	if Fields([]byte(`[1]`), func(k, v []byte) {}) || Fields([]byte(`{"a":1} x`), func(k, v []byte) {}) {
		t.Error("Fields accepted a non-object")
	}
	if !bytes.Equal(unescape(nil, []byte(`\ud83d\ude00\u00e9\/`)), []byte("😀é/")) {
		t.Error("unescape surrogate pair")
	}
}

// TestDecodeUnusedFields: fields the state does not use come back as
// written, the optional ones included.
func TestDecodeUnusedFields(t *testing.T) {
	x := decodeOne(t, specSpot).Exec
	got := strings.Join([]string{string(x.LastQty), string(x.LastPrice), string(x.Commission), string(x.CommissionAsset)}, " ")
	if got != "0.50000000 0.10264410 0 null" || x.ExecType != nil || x.TradeTime != nil {
		t.Errorf("spot l L n N = %q x=%q T=%q", got, x.ExecType, x.TradeTime)
	}
	r := ExecutionReport{EventTime: 7, Symbol: "ETHBTC", ClientOrderID: "1", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "1", Price: "1", Status: "CANCELED", OrderID: "3", LastQty: "0", CumQty: "0", LastPrice: "0",
		Commission: "0", CommissionAsset: "BNB", Created: 1, CumQuote: "0"}
	x = decodeOne(t, string(AppendExecution(nil, &r, EncodeOptions{Optional: true}))).Exec
	got = strings.Join([]string{string(x.ExecType), string(x.RejectReason), string(x.TradeTime), string(x.TradeID),
		string(x.StopPrice), string(x.IcebergQty), string(x.CommissionAsset)}, " ")
	if got != "CANCELED NONE 7 -1 0 0 BNB" {
		t.Errorf("spot optional x r T t P F N = %q", got)
	}
	c := decodeOne(t, specContract).Exec
	if string(c.CommissionAsset) != "BTC" || string(c.Commission) != "0.00000122" || c.TradeTime != nil {
		t.Errorf("contract n N = %q %q", c.Commission, c.CommissionAsset)
	}
	a := decodeOne(t, specAccount).Account
	if string(a.MakerCommission) != "0" || string(a.UpdateTime) != "1499405658849" || a.TakerCommission == nil {
		t.Errorf("account optional m t u = %q %q %q", a.MakerCommission, a.TakerCommission, a.UpdateTime)
	}
}
