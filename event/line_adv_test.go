//go:build linux

package event

import (
	stdjson "encoding/json"
	"hash/maphash"
	"strings"
	"testing"
)

// advValues are values each field of a usual report is changed to, on
// top of lineValues: escapes, leading zeros, signs, exponents, times
// around 15 digits and int64's range, bytes JSON or UTF-8 reject.
var advValues = []string{`"\""`, `"\\"`, `"\u0000"`, `"a\u0022b"`, `"\\\""`, `"a\\"`, `-0`, `"-0"`, `0e0`, `"1E5"`, `"0.0e+1"`,
	`"0.0"`, `"00.5"`, `"-1.5"`, `1.0`, `-1.5e-7`, `"999999999999999"`, `999999999999999`, `"1000000000000000"`, `1000000000000000`,
	`"9223372036854775807"`, `9223372036854775807`, `"9223372036854775808"`, `9223372036854775808`, `-9223372036854775808`,
	`"-9223372036854775809"`, `"0000000000000001"`, `"000000000000001"`, `0001`, "\"a\x00b\"", "\"a\x1fb\"", "\"a\x7fb\"",
	"\"a\x80b\"", "\"\xc3\xa9\"", "\"\xed\xa0\x80\"", `"#"`, `"!"`, `true `, `falsee`, `truefalse`, `nulll`, `"12345678901234567"`}

// TestExecLineBoundaries: every field of the usual reports written as
// lineValues or advValues, while the report's last value (Z, or v in a
// contract report) takes 1 to 20 digits so that each value ends at every
// place around the scans' stop sixteen bytes before the frame's end,
// decodes at the end of readable memory as a heap copy does
// generically, and without the line; a report the line takes is JSON.
func TestExecLineBoundaries(t *testing.T) {
	t.Parallel()
	c := newPageCheck(t)
	// a frame made twice (reports that differ in one field, a value
	// given as it is) is checked once: known by two 64-bit hashes and
	// its length, which different frames share with odds of 2^-128
	done := map[[3]uint64]bool{}
	seeds := [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	check := func(f []byte) {
		k := [3]uint64{maphash.Bytes(seeds[0], f), maphash.Bytes(seeds[1], f), uint64(len(f))}
		if done[k] {
			return
		}
		done[k] = true
		if got := c.check(t, f); got[0].Kind != KindMalformed && !stdjson.Valid(f) {
			t.Fatalf("%q: not JSON, decoded as %v", f, got[0].Kind)
		}
	}
	var buf []byte // the frame, built anew in place for each value
	values := append(append([]string(nil), lineValues...), advValues...)
	seen := map[string]bool{}
	for _, r := range lineReports() {
		fields := splitFields(r[1 : len(r)-1])
		last := len(fields) - 1
		lk := fields[last][:len(`"k":`)]
		for digits := 1; digits <= 20; digits++ {
			g := append([]string(nil), fields...)
			g[last] = lk + `"` + strings.Repeat("7", digits) + `"`
			// one report of each shape and length
			if key := strings.Join(keysOf(g), ",") + string(rune('a'+digits)); seen[key] {
				continue
			} else {
				seen[key] = true
			}
			check([]byte("{" + strings.Join(g, ",") + "}"))
			for n, kv := range g {
				// a field far from the end (more than the stop and the
				// longest value) ends at one place whatever the last
				// value's length
				if len(strings.Join(g[n:], ",")) > 96 && digits > 2 {
					continue
				}
				// the frame is before, g[n] changed, after
				before, after := "{", "}"
				if n > 0 {
					before += strings.Join(g[:n], ",") + ","
				}
				if n < last {
					after = "," + strings.Join(g[n+1:], ",") + after
				}
				with := func(parts ...string) []byte {
					buf = append(buf[:0], before...)
					for _, p := range parts {
						buf = append(buf, p...)
					}
					return append(buf, after...)
				}
				key := kv[:len(`"k":`)]
				for _, v := range values {
					check(with(key, v))
				}
				// the value one byte longer, one shorter
				if v := kv[len(key):]; len(v) > 2 && v[0] == '"' {
					check(with(key, v[:len(v)-2], `"`))
					check(with(key, v[:len(v)-1], v[len(v)-2:]))
				}
			}
		}
	}
}

// keysOf is the keys of fields, with the forms of their values (a quote
// or not).
func keysOf(fields []string) []string {
	out := make([]string, len(fields))
	for n, kv := range fields {
		out[n] = kv[:len(`"k":`)+1]
	}
	return out
}

// TestExecLineShapes: the usual reports with white space of each kind
// anywhere, two neighbouring fields swapped, in an array, with bytes
// after them, decode the same with the line, without it and
// generically, at the end of readable memory.
func TestExecLineShapes(t *testing.T) {
	c := newPageCheck(t)
	check := func(f string) { t.Helper(); c.check(t, []byte(f)) }
	for _, r := range lineReports() {
		for i := range len(r) + 1 {
			for _, ws := range []string{"\t", "\n", "\r", "\u00a0", "\x0b"} {
				check(r[:i] + ws + r[i:])
			}
		}
		fields := splitFields(r[1 : len(r)-1])
		for n := range len(fields) - 1 {
			g := append([]string(nil), fields...)
			g[n], g[n+1] = g[n+1], g[n]
			check("{" + strings.Join(g, ",") + "}")
		}
		for _, f := range []string{"[" + r + "]", "[" + r + "," + r + "]", "[" + r + ",1]", "[1," + r + "]", "[" + r + "," + specPosition + "]",
			r + "}", r + ",", r + "x", r + "\x00", r + r, r + "]", "[" + r, " " + r, r + " \n", "[" + r + " ]", r[:len(r)-1] + ",}",
			r[:len(r)-1] + `,"Z":"1"}`, r[:len(r)-1] + `,"E":1}`, r[:len(r)-1] + `,"e":"executionReport"}`, r[:len(r)-1] + `,"v":"x"}`} {
			check(f)
		}
	}
}

// FuzzExecLineFields: a usual report (any of lineReports) with one field's
// value replaced by any bytes, a second field's by any bytes, and its last
// value given 1 to 32 digits (each value ending anywhere around the
// scans' stop), decodes at the end of readable memory as a heap copy
// does generically, and without the line.
func FuzzExecLineFields(f *testing.F) {
	reports := lineReports()
	f.Add(uint8(0), uint8(3), uint8(5), uint8(8), []byte(`"\""`), []byte(`1`))
	f.Add(uint8(2), uint8(22), uint8(1), uint8(20), []byte(`"9223372036854775808"`), []byte(`true`))
	f.Add(uint8(5), uint8(1), uint8(24), uint8(9), []byte(`01`), []byte(`"1e5"`))
	c := newPageCheck(f)
	f.Fuzz(func(t *testing.T, r, n, m, digits uint8, v, w []byte) {
		fields := splitFields(reports[int(r)%len(reports)][1 : len(reports[int(r)%len(reports)])-1])
		last := len(fields) - 1
		fields[last] = fields[last][:len(`"k":`)] + `"` + strings.Repeat("7", 1+int(digits)%32) + `"`
		k := int(n) % len(fields)
		fields[k] = fields[k][:len(`"k":`)] + string(v)
		k = int(m) % len(fields)
		fields[k] = fields[k][:len(`"k":`)] + string(w)
		frame := []byte("{" + strings.Join(fields, ",") + "}")
		if len(frame) <= len(c.p.mem) {
			c.check(t, frame)
		}
	})
}
