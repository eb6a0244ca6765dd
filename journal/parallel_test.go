package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"bhtop/event"
	"bhtop/gen"
)

// scanned is what a scan reports of one record, to compare the two scans:
// the record and its events' fields.
func scanned(rec Record, evs []event.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "line %d recv %d bad %v bare %v long %v cut %v frame %q:", rec.Line, rec.Recv, rec.Bad, rec.Bare, rec.Long, rec.Cut, rec.Frame)
	for _, ev := range evs {
		fmt.Fprintf(&b, " [%v %q %q", ev.Kind, ev.Reason, ev.Raw)
		switch ev.Kind { // the view Kind names, every field (the others hold leftovers)
		case event.KindExecution, event.KindContractExecution:
			fmt.Fprintf(&b, " %+v]", ev.Exec)
		case event.KindAccount:
			fmt.Fprintf(&b, " %+v]", ev.Account)
		case event.KindPosition:
			fmt.Fprintf(&b, " %+v]", ev.Position)
		default:
			fmt.Fprintf(&b, " %q %q]", ev.Ping, ev.Type)
		}
	}
	return b.String()
}

// sameScans checks that ScanDecoded reports every record of text, and its
// events, as Scan and Decode do, with 1 and 3 workers and, split at every
// few bytes and lines, with 1 and 2; when fail is not nil, reading ends
// with it after text.
func sameScans(t *testing.T, text []byte, fail ...error) {
	t.Helper()
	open := func() io.Reader {
		if len(fail) > 0 {
			return io.MultiReader(bytes.NewReader(text), iotest.ErrReader(fail[0]))
		}
		return bytes.NewReader(text)
	}
	var want []string
	var dec event.Decoder
	errWant := Scan(open(), func(rec Record) {
		var evs []event.Event
		if !rec.Bad {
			evs = dec.Decode(rec.Frame)
		}
		want = append(want, scanned(rec, evs))
	})
	// With a prep, each record's Aux must be what prep made of its events,
	// or nil when the caller decoded its block.
	prepOf := func(evs []event.Event, aux []uint64) []uint64 {
		for i := range evs {
			aux = append(aux, uint64(evs[i].Kind)<<32|uint64(len(evs[i].Raw)), uint64(i))
		}
		return aux
	}
	for _, c := range []struct {
		workers, bytes, lines int
		prep                  bool
	}{{1, blockBytes, blockLines, false}, {3, blockBytes, blockLines, false}, {2, 5, 3, false}, {1, 64, 1, false},
		{1, blockBytes, blockLines, true}, {3, blockBytes, blockLines, true}, {2, 5, 3, true}} {
		var got []string
		lr := &lineReader{r: iotest.HalfReader(open()), blockBytes: c.bytes, blockLines: c.lines}
		var prep func([]event.Event, []uint64) []uint64
		if c.prep {
			prep = prepOf
		}
		errGot := scanDecoded(lr, c.workers, prep, func(d *Decoded) {
			got = append(got, scanned(d.Record, d.Events))
			// (nil for a block the caller decoded itself: every one with one worker)
			if want := prepOf(d.Events, nil); d.Aux != nil && (!c.prep || c.workers == 1 || fmt.Sprint(d.Aux) != fmt.Sprint(want)) {
				t.Fatalf("ScanDecodedPrep(%+v) line %d: Aux = %v, want %v", c, d.Line, d.Aux, want)
			}
		})
		if fmt.Sprint(errGot) != fmt.Sprint(errWant) || len(got) != len(want) {
			t.Fatalf("ScanDecoded(%+v) = %d records, %v; Scan = %d records, %v", c, len(got), errGot, len(want), errWant)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("ScanDecoded(%+v) record %d = %s, want %s", c, i, got[i], want[i])
			}
		}
	}
}

// TestScanDecodedReadError: a read error stops both scans after the same
// records, with the same line number, wherever it falls.
func TestScanDecodedReadError(t *testing.T) {
	text := "{\"recv\":1,\"frame\":{\"e\":\"x\"}}\n\n[{\"e\":\"y\"}]\r\n{\"recv\":2,"
	for n := 0; n <= len(text); n++ {
		sameScans(t, []byte(text[:n]), errors.New("disk gone"))
	}
}

func TestScanDecodedAgreesWithScan(t *testing.T) {
	lines := []string{
		`{"recv":1700000000123,"frame":{"e":"executionReport","E":1}}`,
		`{"recv":1700000000123,"frame":{"e":"outboundAccountInfo","E":2,"B":[{"a":"BTC","f":"1","l":"0"}]}}`,
		`{"recv":1,"frame":[{"e":"x"},{"e":"executionReport","s":"A\u0042C"}]}`,
		`{"recv":1,"frame":{"a":1},"e":{"b":2}}`,
		`{"recv":1,"frame":{"a":1},"b":{"c":2}}`,
		`{"recv":1,"frame":{"a":1} }`,
		`{"recv":1,"frame":{"a":tru}}`,
		`{"recv":1,"frame":}`,
		`{"recv":1,"frame":[]}`,
		`{"recv":99999999999999999999,"frame":{"e":"x"}}`,
		`{"recv":999999999999999999,"frame":{"e":"x"}}`,          // 18 digits: the longest read inline
		`{"recv":9223372036854775807,"frame":{"e":"x"}}`,         // the largest int64
		`{"recv":9223372036854775808,"frame":{"e":"x"}}`,         // one more: not a time
		`{"recv":000000000000000000000000042,"frame":{"e":"x"}}`, // long, small
		`{"recv":"5","frame":{"e":"x"}}`,
		`{"recv":1700000000123,"bad":"{\"e\":"}`,
		`{"e":"outboundAccountInfo","E":1}`,
		`[{"e":"x"}]`,
		`{"ping":1}`,
		"   ",
		"\x00\xff\xfe",
		`{"recv":1,"frame":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`,
		`{"recv":1,"frame":{"e":"x","d":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}}`,
	}
	sameScans(t, []byte(strings.Join(lines, "\n")+"\n"))
	sameScans(t, []byte(strings.Join(lines, "\r\n")))                   // cut last line
	sameScans(t, []byte("x\n"+strings.Repeat("y", MaxLine+10)+"\nz\n")) // a long line
	sameScans(t, []byte("x\n"+strings.Repeat("y", MaxLine)+"\r\r\nz"))  // long by its line break
	sameScans(t, []byte("x\n"+strings.Repeat("y", MaxLine+1)))          // long and cut
	sameScans(t, []byte(strings.Repeat(" \n\r\n", 500)+"{}\n \t"))      // blank lines

	var j bytes.Buffer
	if err := gen.Write(&j, gen.Options{Events: 30_000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	sameScans(t, j.Bytes()) // several blocks
}

// FuzzScanDecoded: any journal scans the same, decoded ahead in blocks or
// line by line.
func FuzzScanDecoded(f *testing.F) {
	for _, seed := range []string{
		"{\"recv\":1,\"frame\":{\"e\":\"executionReport\",\"E\":1}}\n{\"recv\":1,\"frame\":{\"a\":1},\"e\":{\"b\":2}}\n",
		"{\"recv\":1,\"frame\":[{\"e\":\"x\"}]}\r\n\n{\"recv\":2,\"bad\":\"x\"}",
		"[{\"e\":\"x\"}]\n{\"recv\":1,\"frame\":}",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, text []byte) { sameScans(t, text) })
}
