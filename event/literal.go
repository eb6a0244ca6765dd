package event

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Literal checks and comparisons on exact text: integers, ids and decimals
// are never turned into float64.

// unescape appends the JSON string content src (already checked by the
// scanner) to dst with its escapes resolved. The result is never longer
// than src.
func unescape(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		c := src[i]
		if c != '\\' {
			dst = append(dst, c)
			i++
			continue
		}
		i++
		switch src[i] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r := rune(hex4(src[i+1 : i+5]))
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(src) && src[i+1] == '\\' && src[i+2] == 'u' {
					r2 := rune(hex4(src[i+3 : i+7]))
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						dst = utf8.AppendRune(dst, d)
						i += 7
						continue
					}
				}
				r = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r)
		default: // " \ /
			dst = append(dst, src[i])
		}
		i++
	}
	return dst
}

func hex4(b []byte) int {
	n := 0
	for _, c := range b[:4] {
		n <<= 4
		switch {
		case c >= '0' && c <= '9':
			n |= int(c - '0')
		case c >= 'a' && c <= 'f':
			n |= int(c-'a') + 10
		default:
			n |= int(c-'A') + 10
		}
	}
	return n
}

// ParseTime parses a time literal: an optional '-' and one or more digits
// that fit in int64.
func ParseTime(b []byte) (int64, bool) {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	if len(b) <= 18 {
		// no overflow: one check a digit (a trade's T, 13 digits, on
		// every fill of a report with the optional fields)
		var n int64
		for _, c := range b {
			if !isDigit(c) {
				return 0, false
			}
			n = n*10 + int64(c-'0')
		}
		if neg {
			n = -n
		}
		return n, true
	}
	var n uint64
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		if n > (1<<63)/10 {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
		if n > 1<<63 {
			return 0, false
		}
	}
	if neg {
		return -int64(n-1) - 1, true // handles -2^63
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}

// IsDigits reports whether b is one or more ASCII digits (an order id).
func IsDigits(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !isDigit(c) {
			return false
		}
	}
	return true
}

// isIntLiteral reports whether b is an optional '-' and digits.
func isIntLiteral(b []byte) bool {
	if len(b) > 0 && b[0] == '-' {
		b = b[1:]
	}
	return IsDigits(b)
}

// IsDecimal reports whether b is a decimal literal of DESIGN.md: an
// optional '-', digits, an optional fraction ('.' digits) and an optional
// exponent ('e' or 'E', optional sign, digits).
func IsDecimal(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	i, ok := digitsAt(b, i)
	if ok {
		i, ok = fracExp(b, i)
	}
	return ok && i == len(b)
}

// fracExp skips the optional fraction ('.' digits) and exponent ('e' or
// 'E', an optional sign, digits) of a number at b[i:]: the index after
// them, and false when one is begun without a digit.
func fracExp(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '.' {
		var ok bool
		if i, ok = digitsAt(b, i+1); !ok {
			return i, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		return digitsAt(b, i)
	}
	return i, true
}

// digitsAt skips the digits of b from i: the index after them, and false
// when there is none.
func digitsAt(b []byte, i int) (int, bool) {
	j := i
	for j < len(b) && isDigit(b[j]) {
		j++
	}
	return j, j > i
}

// expLimit clamps exponents so that arithmetic on them cannot overflow;
// literals beyond it are compared as if at the limit.
const expLimit = 1 << 40

// Dec is a decimal literal split into parts, without allocation: value =
// sign × 0.d1d2d3... × 10^Exp where the digits are Int then Frac with
// leading zeros dropped. A zero value has no significant digits.
type Dec struct {
	Neg       bool
	Int, Frac []byte // digit runs as written
	lead      int    // significant digits start at this index of Int+Frac
	n         int    // number of digits in Int+Frac after lead, trailing zeros dropped
	Exp       int64  // adjusted exponent: position of the first significant digit
}

// ParseDec splits a literal checked by IsDecimal. ok is false for text
// that is not a decimal literal.
//
// The usual literal (digits, an optional fraction, no sign or exponent:
// every quantity and price of the wire) is checked and split in one pass;
// any other goes through parseDec (TestParseDecFast: both agree).
func ParseDec(b []byte) (d Dec, ok bool) {
	i, k := 0, 0
	first, last := -1, -1 // first and last nonzero digit of Int+Frac
	i, k, first, last = digitRun(b, i, k, first, last)
	nInt := i
	if nInt == 0 {
		return parseDec(b)
	}
	if i < len(b) && b[i] == '.' {
		i++
		j := i
		i, k, first, last = digitRun(b, i, k, first, last)
		if i == j {
			return parseDec(b)
		}
		d.Frac = b[j:i]
	}
	if i != len(b) {
		return parseDec(b)
	}
	d.Int = b[:nInt]
	if first < 0 {
		d.lead = k
	} else {
		d.lead, d.n = first, last+1-first
	}
	d.Exp = int64(nInt - d.lead)
	return d, true
}

// digitRun passes over the digits of b from i, k being the index of b[i]
// in Int+Frac, and notes the first and last nonzero ones (first < 0: none
// yet): the index after the digits, k there, first and last.
func digitRun(b []byte, i, k, first, last int) (int, int, int, int) {
	for ; i < len(b) && isDigit(b[i]); i++ {
		if b[i] != '0' {
			if first < 0 {
				first = k
			}
			last = k
		}
		k++
	}
	return i, k, first, last
}

// parseDec is ParseDec for any literal.
func parseDec(b []byte) (d Dec, ok bool) {
	if !IsDecimal(b) {
		return d, false
	}
	i := 0
	if b[0] == '-' {
		d.Neg = true
		i++
	}
	j := i
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	d.Int = b[j:i]
	if i < len(b) && b[i] == '.' {
		i++
		j = i
		for i < len(b) && isDigit(b[i]) {
			i++
		}
		d.Frac = b[j:i]
	}
	var exp int64
	if i < len(b) {
		i++ // e or E
		neg := false
		if b[i] == '+' || b[i] == '-' {
			neg = b[i] == '-'
			i++
		}
		for ; i < len(b); i++ {
			if exp < expLimit {
				exp = exp*10 + int64(b[i]-'0')
			}
		}
		if exp > expLimit {
			exp = expLimit
		}
		if neg {
			exp = -exp
		}
	}
	total := len(d.Int) + len(d.Frac)
	for d.lead < total && d.digit(d.lead) == '0' {
		d.lead++
	}
	last := total
	for last > d.lead && d.digit(last-1) == '0' {
		last--
	}
	d.n = last - d.lead
	// The first significant digit at index lead of Int+Frac has weight
	// 10^(len(Int)-1-lead); as 0.d1... the exponent is one more.
	d.Exp = int64(len(d.Int)-d.lead) + exp
	return d, true
}

func (d *Dec) digit(k int) byte {
	if k < len(d.Int) {
		return d.Int[k]
	}
	return d.Frac[k-len(d.Int)]
}

// IsZero reports whether the value is zero ("0.000", "-0", "0e5").
func (d *Dec) IsZero() bool { return d.n == 0 }

// Cmp compares two decimals by value: -1, 0 or +1.
func (d *Dec) Cmp(e *Dec) int {
	ds, es := d.sign(), e.sign()
	if ds != es {
		if ds < es {
			return -1
		}
		return 1
	}
	if ds == 0 {
		return 0
	}
	m := d.cmpAbs(e)
	if ds < 0 {
		return -m
	}
	return m
}

func (d *Dec) sign() int {
	switch {
	case d.n == 0:
		return 0
	case d.Neg:
		return -1
	}
	return 1
}

func (d *Dec) cmpAbs(e *Dec) int {
	if d.Exp != e.Exp {
		if d.Exp < e.Exp {
			return -1
		}
		return 1
	}
	for k := 0; k < d.n || k < e.n; k++ {
		var a, b byte = '0', '0'
		if k < d.n {
			a = d.digit(d.lead + k)
		}
		if k < e.n {
			b = e.digit(e.lead + k)
		}
		if a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Digits appends the significant digits of d (no leading or trailing
// zeros) to dst.
func (d *Dec) Digits(dst []byte) []byte {
	for k := 0; k < d.n; k++ {
		dst = append(dst, d.digit(d.lead+k))
	}
	return dst
}

// CompareDecimal compares two decimal literals by value; text that is not
// a decimal sorts as zero.
func CompareDecimal(a, b []byte) int {
	x, _ := ParseDec(a)
	y, _ := ParseDec(b)
	return x.Cmp(&y)
}

// IsZeroDecimal reports whether the literal is a decimal equal to zero.
func IsZeroDecimal(b []byte) bool {
	d, ok := ParseDec(b)
	return ok && d.IsZero()
}

// CompareIDs orders order ids (ASCII digits of any length) by numeric value,
// then by text so that distinct literals ("07", "7") never compare equal.
func CompareIDs(a, b string) int {
	ta, tb := trimZeros(a), trimZeros(b)
	switch {
	case len(ta) != len(tb):
		if len(ta) < len(tb) {
			return -1
		}
		return 1
	case ta != tb:
		if ta < tb {
			return -1
		}
		return 1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func trimZeros(s string) string {
	i := 0
	for i < len(s)-1 && s[i] == '0' {
		i++
	}
	return s[i:]
}
