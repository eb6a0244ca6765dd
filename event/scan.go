package event

// A small JSON scanner over a byte slice. It checks syntax exactly as
// encoding/json.Valid does (UTF-8 inside strings is not checked), records
// where values are, and never allocates.

// Value kinds recorded by the scanner.
const (
	vNone uint8 = iota
	vString
	vNumber
	vTrue
	vFalse
	vNull
	vObject
	vArray
)

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// span is one scanned value: bytes [start, end) of the input. For a string
// it is the text between the quotes; esc says it holds a backslash.
type span struct {
	start, end int32
	raw        int32 // where the value's text starts (its quote for a string)
	kind       uint8
	esc        bool
}

type scanner struct {
	b   []byte
	i   int
	bad bool
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (s *scanner) ws() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

// value scans one value at s.i (after white space) and returns its span.
// On a syntax error it sets s.bad.
func (s *scanner) value(depth int) span {
	s.ws()
	if s.i >= len(s.b) {
		s.bad = true
		return span{}
	}
	start := s.i
	switch c := s.b[s.i]; {
	case c == '"':
		return s.str()
	case c == '{' || c == '[':
		if depth >= maxDepth {
			s.bad = true
			return span{}
		}
		kind := vObject
		if c == '{' {
			s.skipObject(depth + 1)
		} else {
			kind = vArray
			s.skipArray(depth + 1)
		}
		return span{start: int32(start), end: int32(s.i), kind: kind}
	case c == '-' || isDigit(c):
		s.number()
		return span{start: int32(start), end: int32(s.i), kind: vNumber}
	case c == 't' || c == 'f' || c == 'n':
		word, kind := literalOf(c)
		s.lit(word)
		return span{start: int32(start), end: int32(s.i), kind: kind}
	}
	s.bad = true
	return span{}
}

// literalOf is the JSON word that starts with c (t, f or n) and its kind.
func literalOf(c byte) (string, uint8) {
	switch c {
	case 't':
		return "true", vTrue
	case 'f':
		return "false", vFalse
	}
	return "null", vNull
}

func (s *scanner) lit(w string) {
	if len(s.b)-s.i >= len(w) && string(s.b[s.i:s.i+len(w)]) == w {
		s.i += len(w)
		return
	}
	s.bad = true
}

// str scans a string starting at the opening quote.
func (s *scanner) str() span {
	start := s.i + 1
	end, esc, ok := scanStr(s.b, start)
	if !ok {
		s.bad = true
		return span{}
	}
	s.i = end + 1
	return span{start: int32(start), end: int32(end), raw: int32(start - 1), kind: vString, esc: esc}
}

// strPlain marks the bytes a string can hold as they are: not a quote, a
// backslash or a control character.
var strPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// scanStr scans string content from i and returns the index of the closing
// quote, whether a backslash occurs, and false on a syntax error.
func scanStr(b []byte, i int) (end int, esc, ok bool) {
	for {
		for i < len(b) && strPlain[b[i]] {
			i++
		}
		if i >= len(b) {
			return i, esc, false
		}
		switch b[i] {
		case '"':
			return i, esc, true
		case '\\':
			esc = true
			if i+1 >= len(b) {
				return i, esc, false
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(b)-i < 6 || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) || !isHex(b[i+5]) {
					return i, esc, false
				}
				i += 6
			default:
				return i, esc, false
			}
		default:
			return i, esc, false // a control character
		}
	}
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber scans a JSON number at i and returns its end.
func scanNumber(b []byte, i int) (int, bool) {
	s := scanner{b: b, i: i}
	s.number()
	return s.i, !s.bad
}

// number scans a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (s *scanner) number() {
	b := s.b
	if b[s.i] == '-' {
		s.i++
	}
	if s.i >= len(b) {
		s.bad = true
		return
	}
	if b[s.i] == '0' {
		s.i++
	} else if isDigit(b[s.i]) {
		for s.i < len(b) && isDigit(b[s.i]) {
			s.i++
		}
	} else {
		s.bad = true
		return
	}
	var ok bool
	if s.i, ok = fracExp(b, s.i); !ok {
		s.bad = true
	}
}

func (s *scanner) skipObject(depth int) {
	s.i++ // {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == '}' {
		s.i++
		return
	}
	for !s.bad {
		s.ws()
		if s.i >= len(s.b) || s.b[s.i] != '"' {
			s.bad = true
			return
		}
		s.str()
		s.ws()
		if s.bad || s.i >= len(s.b) || s.b[s.i] != ':' {
			s.bad = true
			return
		}
		s.i++
		s.value(depth)
		if !s.next('}') {
			return
		}
	}
}

func (s *scanner) skipArray(depth int) {
	s.i++ // [
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return
	}
	for !s.bad {
		s.value(depth)
		if !s.next(']') {
			return
		}
	}
}

// next reads the separator after a member or element: ',' returns true,
// the closing byte returns false, anything else sets bad.
func (s *scanner) next(closing byte) bool {
	if s.bad {
		return false
	}
	s.ws()
	if s.i >= len(s.b) {
		s.bad = true
		return false
	}
	switch s.b[s.i] {
	case ',':
		s.i++
		return true
	case closing:
		s.i++
		return false
	}
	s.bad = true
	return false
}

// Valid reports whether b is exactly one JSON value (with optional white
// space around it), with the same verdict as encoding/json.Valid.
func Valid(b []byte) bool {
	s := scanner{b: b}
	s.value(0)
	s.ws()
	return !s.bad && s.i == len(b)
}

// Fields calls fn for each member of the JSON object b (key unescaped, raw
// value bytes) in order. It reports false, having called fn for a prefix
// at most, when b is not exactly one valid JSON object.
func Fields(b []byte, fn func(key, value []byte)) bool {
	s := scanner{b: b}
	s.ws()
	if s.i >= len(b) || b[s.i] != '{' {
		return false
	}
	s.i++
	s.ws()
	if s.i < len(b) && b[s.i] == '}' {
		s.i++
		s.ws()
		return s.i == len(b)
	}
	var kbuf [64]byte
	for {
		s.ws()
		if s.i >= len(b) || b[s.i] != '"' {
			return false
		}
		k := s.str()
		s.ws()
		if s.bad || s.i >= len(b) || b[s.i] != ':' {
			return false
		}
		s.i++
		s.ws()
		vs := s.i
		s.value(0)
		if s.bad {
			return false
		}
		key := b[k.start:k.end]
		if k.esc {
			key = unescape(kbuf[:0], key)
		}
		fn(key, b[vs:s.i])
		if !s.next('}') {
			if s.bad {
				return false
			}
			s.ws()
			return s.i == len(b)
		}
	}
}
