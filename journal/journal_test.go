package journal

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestWriter(t *testing.T) {
	now := func() time.Time { return time.UnixMilli(1700000000123) }
	cases := []struct{ name, frame, want string }{
		{"object", `{"e":"executionReport","E":1}`, `{"recv":1700000000123,"frame":{"e":"executionReport","E":1}}`},
		{"array", ` [{"ping":1}] `, `{"recv":1700000000123,"frame":[{"ping":1}]}`},
		{"line breaks compacted", "{\"e\":\n \"x\"}", `{"recv":1700000000123,"frame":{"e":"x"}}`},
		{"not JSON", `{"e":`, `{"recv":1700000000123,"bad":"{\"e\":"}`},
		{"empty", ``, `{"recv":1700000000123,"bad":""}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := NewWriter(&buf, now).Write([]byte(c.frame)); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != c.want+"\n" {
				t.Errorf("Write(%q) = %s, want %s", c.frame, got, c.want)
			}
		})
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		line      string
		frame     string
		bad, bare bool
		recv      int64
	}{
		{`{"recv":5,"frame":{"e":"x"}}`, `{"e":"x"}`, false, false, 5},
		{`{"frame":[1,2],"recv":"6"}`, `[1,2]`, false, false, 6},
		{`{"recv":5,"bad":"{"}`, ``, true, false, 5},
		{`{"recv":5,"frame":{"e":"x"},"e":"y"}`, `{"recv":5,"frame":{"e":"x"},"e":"y"}`, false, true, 0},
		{`{"recv":5}`, `{"recv":5}`, false, true, 0},
		{`{"frame":{}}`, `{"frame":{}}`, false, true, 0},
		{`[{"recv":5,"frame":1}]`, `[{"recv":5,"frame":1}]`, false, true, 0},
		{`{"e":"executionReport"}`, `{"e":"executionReport"}`, false, true, 0},
		{`not json`, `not json`, false, true, 0},
		{`{"recv":5,"frame":}`, `{"recv":5,"frame":}`, false, true, 0},
	}
	for _, c := range cases {
		r := Parse([]byte(c.line))
		if string(r.Frame) != c.frame || r.Bad != c.bad || r.Bare != c.bare || r.Recv != c.recv {
			t.Errorf("Parse(%s) = %+v (frame %s), want frame %s bad %v bare %v recv %d", c.line, r, r.Frame, c.frame, c.bad, c.bare, c.recv)
		}
	}
}

func TestReader(t *testing.T) {
	long := `{"e":"` + strings.Repeat("x", MaxLine) + `"}`
	in := "\n{\"recv\":1,\"frame\":{\"ping\":1}}\r\n  \n" + long + "\n[]\n{\"e\":\"a\"}"
	r := NewReader(strings.NewReader(in))
	var got []string
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rec.Bad:
			got = append(got, "bad")
		default:
			got = append(got, string(rec.Frame))
		}
	}
	want := []string{`{"ping":1}`, "bad", `[]`, `{"e":"a"}`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("records = %q, want %q", got, want)
	}
}

// TestRoundTrip: what the Writer writes, Scan reads back unchanged.
func TestRoundTrip(t *testing.T) {
	frames := []string{`{"e":"x","E":1}`, `[]`, `{"e":`, `{"ping":"é\u00e9"}`}
	var buf bytes.Buffer
	w := NewWriter(&buf, nil)
	for _, f := range frames {
		if err := w.Write([]byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	if err := Scan(&buf, func(r Record) {
		if r.Bad {
			got = append(got, "bad")
			return
		}
		got = append(got, string(r.Frame))
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{`{"e":"x","E":1}`, `[]`, "bad", `{"ping":"é\u00e9"}`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("round trip = %q, want %q", got, want)
	}
}

// failingWriter fails every write, as a full disk does.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("no space left on device")
}

// TestWriterErrorSticks: after the first failed write nothing more is
// written, every Write returns the error and Err reports it.
func TestWriterErrorSticks(t *testing.T) {
	fw := &failingWriter{}
	jw := NewWriter(fw, nil)
	if jw.Err() != nil {
		t.Fatalf("Err before any write = %v", jw.Err())
	}
	for range 3 {
		if err := jw.Write([]byte(`{"e":"x"}`)); err == nil {
			t.Fatal("Write on a full disk returned nil")
		}
	}
	if fw.n != 1 {
		t.Errorf("%d writes attempted, want 1 (the error sticks)", fw.n)
	}
	if err := jw.Err(); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("Err = %v, want the write error", err)
	}
}

// TestBOMIsSkipped: a journal saved with a UTF-8 BOM reads like one
// without: its first line is a record, not a malformed line.
func TestBOMIsSkipped(t *testing.T) {
	in := "\xef\xbb\xbf" + `{"recv":1700000000123,"frame":{"e":"executionReport","E":1}}` + "\n"
	var recs []Record
	if err := Scan(strings.NewReader(in), func(r Record) { recs = append(recs, r) }); err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Bad || recs[0].Bare {
		t.Errorf("Scan of a BOM journal = %+v, want one journal record", recs)
	}
	var ds []Record
	if err := ScanDecoded(strings.NewReader(in), 2, func(d *Decoded) { ds = append(ds, d.Record) }); err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Bad || ds[0].Bare {
		t.Errorf("ScanDecoded of a BOM journal = %+v, want one journal record", ds)
	}
	var short []Record
	_ = Scan(strings.NewReader("{}"), func(r Record) { short = append(short, r) })
	if len(short) != 1 || string(short[0].Frame) != "{}" {
		t.Errorf("Scan of a 2-byte journal = %+v, want its line kept", short)
	}
}
