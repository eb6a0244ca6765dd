package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"time"

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
// few bytes and lines, with 1 and 2; when tail is given, reading goes on
// with it after text (a reader failing, or never making progress).
func sameScans(t *testing.T, text []byte, tail ...io.Reader) {
	t.Helper()
	open := func() io.Reader {
		if len(tail) > 0 {
			return io.MultiReader(bytes.NewReader(text), tail[0])
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
		sameScans(t, []byte(text[:n]), iotest.ErrReader(errors.New("disk gone")))
	}
}

// stuckReader returns no data and no error, forever.
type stuckReader struct{}

func (stuckReader) Read([]byte) (int, error) { return 0, nil }

// TestScanDecodedNoProgress: a reader that returns (0, nil) forever ends
// the scan with io.ErrNoProgress after the records before it, as Scan's
// bufio does, instead of reading it forever.
func TestScanDecodedNoProgress(t *testing.T) {
	text := "{\"recv\":1,\"frame\":{\"e\":\"x\"}}\n[{\"e\":\"y\"}]\n{\"recv\":2,"
	scans := map[string]func(r io.Reader) error{
		"Scan":        func(r io.Reader) error { return Scan(r, func(Record) {}) },
		"ScanDecoded": func(r io.Reader) error { return ScanDecoded(r, 2, func(*Decoded) {}) },
	}
	for _, n := range []int{0, 2, 40, len(text)} { // before the BOM is read, within it, after
		for name, scan := range scans {
			done := make(chan error, 1)
			go func() { done <- scan(io.MultiReader(strings.NewReader(text[:n]), stuckReader{})) }()
			select {
			case err := <-done:
				if !errors.Is(err, io.ErrNoProgress) {
					t.Fatalf("%s of %d bytes, then a reader stuck at (0, nil) = %v, want io.ErrNoProgress", name, n, err)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s of %d bytes, then a reader stuck at (0, nil): still reading after 5s, want io.ErrNoProgress", name, n)
			}
		}
	}
	for n := 0; n <= len(text); n += 7 {
		sameScans(t, []byte(text[:n]), stuckReader{})
	}
}

// panicReader serves one line, then holds every read until fn runs
// (fnRuns closed): the first read held signals reading and waits for
// release, so a worker is reading when fn panics; the others serve a
// line each.
type panicReader struct {
	reads    atomic.Int32
	fnRuns   chan struct{}
	held     atomic.Bool // a read waits for release
	reading  chan struct{}
	release  chan struct{}
	inFlight atomic.Int32 // reads not returned yet
}

func (r *panicReader) Read(p []byte) (int, error) {
	r.inFlight.Add(1)
	defer r.inFlight.Add(-1)
	if r.reads.Add(1) > 1 {
		<-r.fnRuns
		if r.held.CompareAndSwap(false, true) {
			close(r.reading)
			<-r.release
			return 0, io.EOF
		}
	}
	return copy(p, "{\"recv\":1,\"frame\":{\"e\":\"x\"}}\n"), nil
}

// TestScanDecodedPanicWaitsForWorkers: a panic in fn reaches the caller
// only once the workers have stopped, so no worker fills a block after
// ScanDecoded returned it to the pool. fn panics while a worker is
// blocked in a read (every read after the first waits for fn to run);
// the read is let go only after a while (or once the panic came): the
// panic must come after it.
func TestScanDecodedPanicWaitsForWorkers(t *testing.T) {
	r := &panicReader{fnRuns: make(chan struct{}), reading: make(chan struct{}), release: make(chan struct{})}
	panicking, recovered := make(chan struct{}), make(chan int32, 1)
	go func() {
		defer func() {
			if recover() != nil {
				recovered <- r.inFlight.Load()
			}
			close(recovered)
		}()
		_ = scanDecoded(&lineReader{r: r, blockBytes: blockBytes, blockLines: 1}, 2, nil, func(*Decoded) {
			close(r.fnRuns) // (fn runs once: it panics)
			select {
			case <-r.reading:
			case <-time.After(10 * time.Second):
				close(r.release)
				panic("no read held while fn ran") // panicking stays open: the test fails
			}
			close(panicking)
			panic("fold failed")
		})
	}()
	select {
	case <-panicking:
	case <-time.After(10 * time.Second):
		t.Fatal("after 10s no read began while fn ran")
	}
	select {
	case <-recovered:
		close(r.release)
		t.Fatal("ScanDecoded panicked while a worker was still reading into a block it had returned to the pool")
	case <-time.After(100 * time.Millisecond):
		close(r.release)
	}
	select {
	case n, ok := <-recovered:
		if !ok {
			t.Fatal("ScanDecoded returned without the panic of fn")
		}
		if n != 0 {
			t.Fatalf("ScanDecoded panicked with %d reads in flight, want 0", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ScanDecoded did not panic within 10s of the worker's read returning")
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

	// Several blocks: 10,000 events are ~20 (by their 512 lines or 160 KiB),
	// so each of the 8 blocks three workers keep in flight is filled again
	// (30,000 made this test take 2 to 6 minutes under -race on a busy
	// machine, the comparison's formatting most of it).
	var j bytes.Buffer
	if err := gen.Write(&j, gen.Options{Events: 10_000, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(j.Bytes(), []byte("\n")); n < 9*blockLines && j.Len() < 9*blockBytes {
		t.Fatalf("the generated journal is %d lines, %d bytes: fewer blocks than three workers keep in flight", n, j.Len())
	}
	sameScans(t, j.Bytes())
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
