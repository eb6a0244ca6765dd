package journal

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"bhtop/internal/testkit"
)

// FuzzParseLine: any line classifies without panicking; a record's frame
// is a part of the line.
func FuzzParseLine(f *testing.F) {
	testkit.SeedBytes(f,
		`{"recv":1700000000123,"frame":{"e":"executionReport","E":1}}`,
		`{"recv":1700000000123,"bad":"{\"e\":"}`,
		`{"e":"outboundAccountInfo","E":1}`,
		`[{"e":"x"}]`,
		`{"recv":"1","frame":[1,2]}`,
		`{"recv":1,"frame":`,
		"\x00\xff\xfe",
		``,
	)
	f.Fuzz(func(t *testing.T, line []byte) {
		rec := Parse(line)
		if rec.Frame != nil && !bytes.Contains(line, rec.Frame) {
			t.Errorf("Parse(%q).Frame = %q, not a part of the line", line, rec.Frame)
		}
	})
}

// FuzzReader: any byte stream reads to EOF without panicking, with line
// numbers that only grow, and no line longer than MaxLine returned.
func FuzzReader(f *testing.F) {
	testkit.SeedBytes(f,
		"{\"recv\":1,\"frame\":{\"e\":\"x\"}}\n{\"e\":\"y\"}\n",
		"\n\n\r\n",
		"{\"recv\":1,\"frame\":{\"e\":\"x\"",
		"\x00\x01\x02\n\xff\xfe",
		"",
	)
	f.Fuzz(func(t *testing.T, data []byte) {
		jr := NewReader(bytes.NewReader(data))
		last := 0
		for range len(data) + 1 {
			rec, err := jr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if rec.Line <= last {
				t.Fatalf("line %d after line %d", rec.Line, last)
			}
			last = rec.Line
			if len(rec.Frame) > MaxLine {
				t.Fatalf("a frame of %d bytes, over MaxLine", len(rec.Frame))
			}
		}
		t.Fatal("more records than bytes")
	})
}
