//go:build linux

package event

import (
	"strings"
	"syscall"
	"testing"
)

// pageEnd is a region of two pages whose second cannot be read: a frame
// copied to the very end of the first makes any load past its end fault,
// which the bounds checks of Go do not catch for the unsafe loads.
type pageEnd struct{ mem []byte }

func newPageEnd(t testing.TB) *pageEnd {
	t.Helper()
	size := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(mem) })
	return &pageEnd{mem: mem[:size:size]}
}

// at copies f to the end of the readable page.
func (p *pageEnd) at(f []byte) []byte {
	b := p.mem[len(p.mem)-len(f):]
	copy(b, f)
	return b
}

// pageCheck decodes a frame at the end of readable memory with the
// line and without it, and fails the test when either differs from a
// heap copy decoded generically.
type pageCheck struct {
	p                    *pageEnd
	fast, table, generic Decoder
	heap                 []byte // the heap copy, kept across frames
}

func newPageCheck(tb testing.TB) *pageCheck {
	c := &pageCheck{p: newPageEnd(tb)}
	c.table.noLine, c.generic.generic = true, true
	return c
}

// check returns the events decoded with the line. (t.Helper is called
// only on failure: it costs a stack walk, and check runs millions of
// times.)
func (c *pageCheck) check(t testing.TB, f []byte) []Event {
	c.heap = append(c.heap[:0], f...)
	want := c.generic.Decode(c.heap[:len(f):len(f)])
	b := c.p.at(f)
	got := c.fast.Decode(b)
	if diff := sameEvents(got, want); diff != "" {
		t.Helper()
		t.Fatalf("%q at a page's end: %s", f, diff)
	}
	if diff := sameEvents(c.table.Decode(b), want); diff != "" {
		t.Helper()
		t.Fatalf("%q at a page's end, without the line: %s", f, diff)
	}
	return got
}

// TestDecodePageEnd: the documents' frames and the usual reports, whole,
// cut short at any byte, with any byte changed or inserted, decode at the
// very end of readable memory without reading past it, and as a copy on
// the heap does generically.
func TestDecodePageEnd(t *testing.T) {
	t.Parallel()
	c := newPageCheck(t)
	check := func(f []byte) { c.check(t, f) }
	frames := append(lineReports(), specAccount, specPosition, `{"ping":1}`)
	for _, r := range frames {
		mutations(r, check) // r itself among them
	}
}

// lineValues are values each field of a usual report is changed to: the
// other forms JSON and the decoding rules allow, and some they do not.
var lineValues = []string{`""`, `"0"`, `0`, `"00"`, `00`, `"01"`, `01`, `"-1"`, `-1`, `-0`, `"1e5"`, `1e5`, `1E+5`, `"1.5e-3"`,
	`1.5`, `"1."`, `".5"`, `"-"`, `"\u0041"`, `"a\"b"`, `"\/"`, `"é"`, "\"\xff\"", `" x"`, `"x "`, `null`, `true`, `false`, `nul`, `tru`,
	`{}`, `[]`, `{"a":1}`, `[1,"x"]`, `"1234567890123456"`, `1234567890123456`, `"123456789012345678901"`, `"BTC"`, `"NEW"`,
	`99999999999999999999999`, `"PARTIALLY_FILLED_AND_SOME_MORE"`, `"1569232553410"`}

// TestDecodePageEndValues: every field of the usual reports written
// another way (lineValues), with white space around it, or given twice,
// decodes at the end of readable memory as a heap copy does generically.
func TestDecodePageEndValues(t *testing.T) {
	c := newPageCheck(t)
	check := func(f string) { t.Helper(); c.check(t, []byte(f)) }
	for _, r := range lineReports() {
		// the fields: r is flat, its values hold no `,"`
		body := r[1 : len(r)-1]
		fields := splitFields(body)
		for n, kv := range fields {
			colon := len(`"k":`)
			key, val := kv[:colon], kv[colon:]
			with := func(s string) string {
				g := append([]string(nil), fields...)
				g[n] = s
				return "{" + strings.Join(g, ",") + "}"
			}
			for _, v := range lineValues {
				check(with(key + v))
			}
			check(with(key + " " + val))
			check(with(key + val + " "))
			check(with(" " + key + val))
			check(with(key + val + "," + key + val))
			for _, v := range lineValues[:8] {
				check(with(key + val + "," + key + v))
				check(with(key + v + "," + key + val))
			}
			check(with(kv + `,"x":1`))
			check(with(`"x":1,` + kv))
			check(with(kv + `,"e":"executionReport"`))
			// the field left out, or moved to the end
			g := append(append([]string(nil), fields[:n]...), fields[n+1:]...)
			check("{" + strings.Join(g, ",") + "}")
			check("{" + strings.Join(append(g, kv), ",") + "}")
		}
	}
}

// FuzzDecodePageEnd: any frame decodes at the very end of readable memory
// as a heap copy decodes generically (and so never reads past it).
func FuzzDecodePageEnd(f *testing.F) {
	seeds := append(lineReports(), specAccount, specPosition)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	p := newPageEnd(f)
	var fast, generic Decoder
	generic.generic = true
	f.Fuzz(func(t *testing.T, frame []byte) {
		if len(frame) > len(p.mem) {
			return
		}
		want := generic.Decode(frame)
		if diff := sameEvents(fast.Decode(p.at(frame)), want); diff != "" {
			t.Fatalf("%q at a page's end: %s", frame, diff)
		}
	})
}
