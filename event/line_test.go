package event

import (
	"strconv"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// lineReports are reports written the usual ways: spot with c as digits
// or a string and N null or a string, contract, times of 1 to 15 digits,
// decimals with a fraction or not, values of 0 to 20 bytes.
func lineReports() []string {
	var out []string
	for n, t := range []int64{0, 7, 1_007, 12345678, 123456789, 1499405658658, 999999999999999} {
		r := ExecutionReport{EventTime: t, Symbol: "ETHBTC", ClientOrderID: "1000087761", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "1.00000000", Price: "0.10264410", Status: "PARTIALLY_FILLED", OrderID: "4293153", LastQty: "0.5", CumQty: "0.5",
			LastPrice: "0", Commission: "0", Working: n%2 == 0, Maker: n%3 == 0, Created: t / 2, CumQuote: "0.05132205"}
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		r.ClientOrderID, r.CommissionAsset, r.Symbol, r.Quantity, r.CumQuote = "bh-gjfcno", "BNB", "", "10", "123456789012.123456789"
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		r.Contract, r.Leverage, r.OrderID, r.ClientOrderID = true, strconv.Itoa(n+1), "469961015902208000", "1569232553410"
		r.Status, r.Close = "FILLED", n%2 == 1
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		r.Leverage, r.CumQuote, r.Symbol = "12.5", "0", "BTC-PERP-REV"
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
	}
	// the optional fields, with a trade id or not
	r := ExecutionReport{EventTime: 1700000000006, Symbol: "BTCUSDT", ClientOrderID: "1000087763", Side: "SELL", Type: "LIMIT",
		TimeInForce: "GTC", Quantity: "0.6800", Price: "3160.98", Status: "NEW", OrderID: "4293156", LastQty: "0.0000", CumQty: "0.0000",
		LastPrice: "3160.98", Commission: "0", Working: true, Maker: true, Created: 1700000000006, CumQuote: "0.000000"}
	for _, id := range []string{"", "12"} {
		for _, o := range []EncodeOptions{{Optional: true}, {}} {
			r.Contract, r.TradeID = false, id
			out = append(out, string(AppendExecution(nil, &r, o)))
			r.Contract, r.Leverage = true, "10"
			out = append(out, string(AppendExecution(nil, &r, o)))
		}
	}
	return append(append(out, specSpot, specContract, string(benchSpot)), shortEndReports()...)
}

// shortEndReports are reports whose last values are short, as the
// simulator writes a NEW order's (Z "0", decimal.String()'s zero) after
// a 13-digit O: Z (and a contract's v) of 1 to 6 bytes, C either way,
// with a trade id or not, N null or a string.
func shortEndReports() []string {
	var out []string
	for _, z := range []string{"0", "12", "0.5", "1.25", "12.34", "123.45", "0.000001"} {
		r := ExecutionReport{EventTime: 1499405658658, Symbol: "ETHBTC", ClientOrderID: "bh-1", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
			Quantity: "1", Price: "0.1", Status: "NEW", OrderID: "4293153", LastQty: "0", CumQty: "0", LastPrice: "0", Commission: "0",
			Working: true, Created: 1499405658657, CumQuote: z}
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		r.CommissionAsset, r.TradeID = "BNB", "7"
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{Optional: true})))
		r.Contract, r.Leverage, r.Close, r.TradeID = true, z, len(z)%2 == 0, ""
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
		r.TradeID = "7"
		out = append(out, string(AppendExecution(nil, &r, EncodeOptions{})))
	}
	return out
}

// decodeLine decodes frame with execLine, without it, and generically.
func decodeLine(frame []byte) (line, table, generic []Event) {
	return newLineDecoders().decode(frame)
}

// lineDecoders are a decoder with execLine, one without it and a generic
// one, kept across frames (a Decoder holds no state between frames but
// its buffers) so that each frame costs no new buffers.
type lineDecoders struct{ line, table, generic Decoder }

func newLineDecoders() *lineDecoders {
	d := &lineDecoders{}
	d.table.noLine, d.generic.generic = true, true
	return d
}

// decode decodes frame with execLine, without it, and generically; the
// events are good until the next call.
func (d *lineDecoders) decode(frame []byte) (line, table, generic []Event) {
	return d.line.Decode(frame), d.table.Decode(frame), d.generic.Decode(frame)
}

// TestExecLineWholeReport: a report written the usual way is read whole
// by execLine, and decodes as without it and generically.
func TestExecLineWholeReport(t *testing.T) {
	for _, f := range lineReports() {
		var x ExecView
		i, contract, ok := execLine([]byte(f), 0, &x)
		if !ok || contract != strings.HasPrefix(f, lineHeadContract) || i != len(f)-1 {
			t.Errorf("execLine(%s) = %d, %v, %v, want %d, %v, true", f, i, contract, ok, len(f)-1, !contract)
		}
		line, table, generic := decodeLine([]byte(f))
		if diff := sameEvents(line, generic); diff != "" {
			t.Errorf("%s: line differs from generic: %s", f, diff)
		}
		if diff := sameEvents(line, table); diff != "" {
			t.Errorf("%s: line differs from table: %s", f, diff)
		}
	}
}

// lineBytes are the bytes each byte of a usual report is changed to.
const lineBytes = "\"\\ !#,.:}{[]-+eE0159aA\x00\x1f\x7f\x80\xff"

// TestExecLineMutations: every report of lineReports with any one byte
// changed, cut short at any byte, or with a byte inserted anywhere,
// decodes the same with execLine, without it and generically.
func TestExecLineMutations(t *testing.T) {
	t.Parallel()
	d := newLineDecoders()
	check := func(f []byte) {
		f = f[:len(f):len(f)]
		line, table, generic := d.decode(f)
		if diff := sameEvents(line, generic); diff != "" {
			t.Fatalf("%q: line differs from generic: %s", f, diff)
		}
		if diff := sameEvents(line, table); diff != "" {
			t.Fatalf("%q: line differs from table: %s", f, diff)
		}
	}
	for _, r := range lineReports() {
		mutations(r, check)
		check([]byte(r + ` `))
	}
}

// mutations calls check with r cut short at each byte, with each byte
// changed to each of lineBytes or one inserted before it, and twice in
// an array: each frame once (r itself, for a byte changed to itself; a
// byte inserted before its twin is the one inserted after it), in a
// buffer check must not keep, whose capacity is its length.
func mutations(r string, check func([]byte)) {
	buf := make([]byte, 0, 2*len(r)+4)
	tight := func(f []byte) []byte { return f[:len(f):len(f)] }
	check(tight(append(buf[:0], r...)))
	for i := range len(r) {
		check(tight(append(buf[:0], r[:i]...)))
		for _, c := range []byte(lineBytes) {
			if c != r[i] {
				f := append(buf[:0], r...)
				f[i] = c
				check(tight(f))
			}
			// (as before, a byte of 0x80 or more is inserted as the
			// rune's UTF-8)
			if ins := string(rune(c)); !strings.HasSuffix(r[:i], ins) {
				check(tight(append(append(append(buf[:0], r[:i]...), ins...), r[i:]...)))
			}
		}
	}
	check(tight(append(buf[:0], `[`+r+`,`+r+`]`...)))
}

// FuzzExecLine: any frame decodes the same with execLine, without it and
// generically.
func FuzzExecLine(f *testing.F) {
	seeds := lineReports()
	seeds = append(seeds, `[`+seeds[0]+`,`+seeds[2]+`]`, strings.Replace(seeds[1], `"S"`, `"P":"0","S"`, 1))
	testkit.SeedBytes(f, seeds...)
	f.Fuzz(func(t *testing.T, frame []byte) {
		frame = frame[:len(frame):len(frame)] // a read past the end panics
		line, table, generic := decodeLine(frame)
		if diff := sameEvents(line, generic); diff != "" {
			t.Fatalf("Decode(%q): line differs from generic: %s", frame, diff)
		}
		if diff := sameEvents(line, table); diff != "" {
			t.Fatalf("Decode(%q): line differs from table: %s", frame, diff)
		}
	})
}
