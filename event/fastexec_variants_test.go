package event

import (
	"strings"
	"testing"
)

// TestFastExecVariants: the fast path (execInOrder, then the keys by
// key) decodes exactly as the generic path every variation of the docs'
// reports that a fuzzer reaches rarely: each field's value replaced by an
// odd one (huge, negative, exponent, escaped, leading zeros, the wrong
// type), each field repeated at the end with a good or a bad value,
// removed, or swapped with its neighbour, and every truncation.
func TestFastExecVariants(t *testing.T) {
	values := []string{`0`, `-0`, `-1`, `"-1"`, `1e999`, `"1e999"`, `1E+5`, `"1E-5"`, `-0.000`, `"-0.000"`, `1.`, `"1."`, `".5"`,
		`00012`, `"00012"`, `12345678901234567890123`, `"12345678901234567890123"`, `9223372036854775807`, `"9223372036854775808"`,
		`999999999999999999`, `"999999999999999999"`, `1000000000000000000`, `"\u0045THBTC"`, `"ET\"H"`, `"\\"`, `""`, `"\u0000"`,
		`null`, `true`, `false`, `{}`, `[]`, `{"a":[1,{"b":"\""}]}`, `"x\ty"`, "\"\xff\xfe\"", `"ETHBTC"`, `"LIMIT"`, `3`, `"3"`}
	var frames []string
	for _, base := range []string{specSpot, specContract} {
		body := base[1 : len(base)-1]
		fields := splitFields(body)
		join := func(fs []string) string { return "{" + strings.Join(fs, ",") + "}" }
		for i, f := range fields {
			k := f[:strings.Index(f, ":")+1]
			for _, v := range values {
				fs := append([]string(nil), fields...)
				fs[i] = k + v
				frames = append(frames, join(fs))
				frames = append(frames, join(append(append([]string(nil), fields...), k+v)))     // repeated last
				frames = append(frames, join(append([]string{fields[0], k + v}, fields[1:]...))) // repeated first
			}
			fs := append(append([]string(nil), fields[:i]...), fields[i+1:]...)
			frames = append(frames, join(fs))
			if i+1 < len(fields) {
				fs := append([]string(nil), fields...)
				fs[i], fs[i+1] = fs[i+1], fs[i]
				frames = append(frames, join(fs))
			}
		}
		for n := range len(base) {
			frames = append(frames, base[:n], "["+base[:n]+"]", "["+base[:n]+","+specSpot+"]")
		}
	}
	for _, frame := range frames {
		fast, generic := decodeBoth([]byte(frame))
		if diff := sameEvents(fast, generic); diff != "" {
			t.Errorf("Decode(%s): fast path differs: %s", frame, diff)
		}
	}
}

// splitFields splits a flat object's body at its top-level commas.
func splitFields(body string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, body[start:i])
			start = i + 1
		}
	}
	return append(out, body[start:])
}
