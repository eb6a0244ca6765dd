package state

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"bhtop/event"
)

// craftedExec is a spot or contract update with every field chosen.
func craftedExec(contract bool, id string, e int64, side, tif, status, l, z, n, t, T, extra string) string {
	kind, idq := "executionReport", id
	if contract {
		kind, idq = "contractExecutionReport", `"`+id+`"`
		extra += `,"C":false,"v":"10"`
	} else if !event.IsDigits([]byte(id)) || id[0] == '0' && len(id) > 1 {
		idq = `"` + id + `"`
	}
	s := fmt.Sprintf(`{"e":%q,"E":%d,"s":"ETHBTC","c":"c%s","S":%q,"o":"LIMIT","f":%q,"q":"10","p":"0.5","X":%q,"i":%s,"l":%q,"z":%q,"L":"0.5","n":%s,"N":"BTC","w":true,"m":true,"O":1,"Z":"0"`,
		kind, e, id, side, tif, status, idq, l, z, n)
	if t != "" {
		s += `,"t":` + t
	}
	if T != "" {
		s += `,"T":` + T
	}
	return s + extra + "}"
}

// foldBothWays folds frames plain (ApplyFrame) and prepared apart
// (PrepareEvents, ApplyPrepared): the dumps, the states and the stats
// must agree.
func foldBothWays(t *testing.T, name string, frames []string, opts ...Option) {
	t.Helper()
	a, b := NewStore(opts...), NewStore(opts...)
	var d event.Decoder
	for _, f := range frames {
		a.ApplyFrame([]byte(f), nil)
		applyPrepared(b, &d, []byte(f), nil)
	}
	var da, db bytes.Buffer
	a.Dump(&da)
	b.Dump(&db)
	if !bytes.Equal(da.Bytes(), db.Bytes()) {
		t.Errorf("%s: dumps differ:\nprepared %s\nplain    %s", name, db.Bytes(), da.Bytes())
	}
	if st := a.Stats(); st.Applied == 0 && !strings.Contains(name, "malformed") {
		t.Errorf("%s: nothing applied %+v", name, st)
	}
	if !reflect.DeepEqual(finalState(a), finalState(b)) || a.Stats() != b.Stats() {
		t.Errorf("%s: state differs", name)
	}
}

// TestPreparedCrafted: crafted updates, several to a frame, folded
// prepared and plain.
func TestPreparedCrafted(t *testing.T) {
	ids := []string{"1", "12345678", "123456789", "1234567890123456", "12345678901234567", "1234567890123456789",
		"12345678901234567890", "0", "007", "00000000000000001", "12a4", "1234567a", "ab", "-5", "1.0", "1e3"}
	long := strings.Repeat("x", 40)
	for _, contract := range []bool{false, true} {
		for _, id := range ids {
			idc, name := id, fmt.Sprintf("contract=%v id=%q", contract, id)
			if !event.IsDigits([]byte(id)) {
				name += " (malformed)"
			}
			e := func(e int64, side, tif, status, l, z, n, tt, T string) string {
				return craftedExec(contract, idc, e, side, tif, status, l, z, n, tt, T, "")
			}
			frames := []string{
				// created and filled in one frame, then cancelled in the next with more
				"[" + e(1, "BUY", "GTC", "NEW", "0", "0", `"0"`, "", "") + "," + e(2, "ABC", "GTX", "PARTIALLY_FILLED", "1", "1", `"0.1"`, "", "5") + "," +
					e(3, "AXC", "GTC", "PARTIALLY_FILLED", "2", "3.000", `"0.1"`, "", "") + "]",
				"[" + e(4, "A", "", "PARTIALLY_FILLED", "1e0", "4E0", `"0.1"`, "", "-1") + "," + e(5, "", "G", "CANCELED", "0", "4", `"0"`, "", "") + "," +
					e(6, "S"+long, "GT"+long, "NEW", "1", "5", `"0.1"`, "", "") + "]",
				e(7, "BUY", "GTC", "FILLED", "0.0000000001", "5.0000000001", `null`, "", ""),
				e(8, "BUY", "GTC", "FILLED", "1", "-6", `"0.1"`, "77", ""),
				e(9, "BUY", "GTC", "FILLED", "1", "1e-300", `"0.1"`, "", ""),
				e(10, "BUY", "GTC", "FILLED", "1", "123456789012345678901234567890", `"0.1"`, "", ""),
				e(11, "BUY", "GTC", "FILLED", "1", "7e2147483648", `"0.1"`, "", ""),
				// literals too long to pack (over 0xffff bytes): folded from the frame
				"[" + e(13, "BUY", "GTC", "PARTIALLY_FILLED", "1", "6", `"0.1"`, "", "") + "," + e(14, strings.Repeat("B", 70000), "GTC", "PARTIALLY_FILLED", "1", "7", `"0.1"`, "", "") + "," +
					e(15, "BUY", "GTC", "PARTIALLY_FILLED", "1", "8", `"`+strings.Repeat("1", 70000)+`"`, "", "") + "]",
				e(12, "BUY", "GTC", "FILLED", "1", "0.00000000000000000000000000001", `"0.1"`, "", ""),
			}
			foldBothWays(t, name, frames)
			foldBothWays(t, name+" retention 1", frames, WithRetention(1), WithFillRetention(1))
		}
	}
}

// TestSideDiffersInTheMiddle: a side or time in force of three bytes
// that differs from the order's only in the middle byte replaces it
// (sameTiny compares the first, middle and last).
func TestSideDiffersInTheMiddle(t *testing.T) {
	s := NewStore()
	s.ApplyFrame([]byte("["+craftedExec(false, "5", 1, "ABC", "GTC", "NEW", "0", "0", `"0"`, "", "", "")+","+
		craftedExec(false, "5", 2, "AXC", "GXC", "PARTIALLY_FILLED", "0", "0", `"0"`, "", "", "")+"]"), nil)
	var b bytes.Buffer
	s.Dump(&b)
	if !bytes.Contains(b.Bytes(), []byte(`"side": "AXC"`)) || !bytes.Contains(b.Bytes(), []byte(`"timeInForce": "GXC"`)) {
		t.Errorf("dump %s", b.Bytes())
	}
}
