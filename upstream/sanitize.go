package upstream

import (
	"strings"
	"unicode/utf8"
)

// Text that the service (or anything on the network) wrote reaches the
// dashboard through Status.Reason, Status.LastError and Notes: handshake
// bodies, close-frame reasons, REST error messages, order fields. A hostile
// or broken server could put terminal escape sequences in it, so every such
// text goes through Sanitize before it is stored.

const (
	// ServiceTextMax caps one piece of service-provided text (a handshake
	// body, a close reason, an error message) where it enters.
	ServiceTextMax = 200
	// LineMax caps a whole note or status line built around such pieces.
	LineMax = 400
)

// Sanitize makes s safe to print on a terminal as one line: C0 controls
// (ESC among them), DEL, C1 controls and bidirectional overrides are
// removed, invalid UTF-8 becomes U+FFFD, runs of white space become one
// space, the ends are trimmed, and the result is cut to maxRunes (an
// ellipsis is added after the cut). Clean text is returned as is, without
// allocating.
func Sanitize(s string, maxRunes int) string {
	if isClean(s, maxRunes) {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), 4*maxRunes+4))
	n := 0
	space := false
	for _, r := range s { // invalid bytes arrive as utf8.RuneError
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0xA0 || r == 0x2028 || r == 0x2029:
			space = n > 0
			continue
		case dropRune(r):
			continue
		}
		need := 1
		if space {
			need = 2
		}
		if n+need > maxRunes {
			b.WriteString("…")
			return b.String()
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// dropRune: control characters and bidi overrides are never printed.
func dropRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true
	}
	return false
}

// isClean: s needs no change (printable, valid, single-spaced, trimmed,
// short enough).
func isClean(s string, maxRunes int) bool {
	if len(s) == 0 {
		return true
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	n := 0
	prevSpace := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7F || (c == ' ' && prevSpace) {
				return false
			}
			prevSpace = c == ' '
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || dropRune(r) || r == 0x85 || r == 0xA0 || r == 0x2028 || r == 0x2029 {
			return false
		}
		prevSpace = false
		i += size
		n++
	}
	return n <= maxRunes
}
