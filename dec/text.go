package dec

import "strings"

// The text helpers below read literals as they are written, for the
// dashboard's tables: they never parse into a decimal.Decimal (no
// allocation per row or per sort comparison) and they never fail. Their
// answer on text that is not a plain decimal (digits with an optional
// leading '-' and one point) is stated with each, and is not a value.

// Compare orders two literals by value, as cmp.Compare does numbers:
// -1, 0 or +1. Plain decimals compare exactly at any length ("0.1" and
// "0.10000" are equal, "-0" equals "0", leading zeros do not count). ""
// sorts before everything. Other text is compared by the same rules
// applied to its characters (integer part by length, then character by
// character): a consistent order for a sort, but not by value ("1e3" is
// not 1000 here; Parse reads it).
func Compare(a, b string) int {
	if a == b {
		return 0
	}
	if a == "" {
		return -1
	}
	if b == "" {
		return 1
	}
	na, nb := strings.HasPrefix(a, "-"), strings.HasPrefix(b, "-")
	if na != nb {
		if ZeroText(a) && ZeroText(b) {
			return 0
		}
		if na {
			return -1
		}
		return 1
	}
	c := compareAbs(strings.TrimPrefix(a, "-"), strings.TrimPrefix(b, "-"))
	if na {
		return -c
	}
	return c
}

// compareAbs compares two unsigned literals: the integer parts without
// leading zeros by length, then by text; then the fractions digit by
// digit, the shorter one padded with zeros.
func compareAbs(a, b string) int {
	ai, af, _ := strings.Cut(a, ".")
	bi, bf, _ := strings.Cut(b, ".")
	ai = strings.TrimLeft(ai, "0")
	bi = strings.TrimLeft(bi, "0")
	if len(ai) != len(bi) {
		if len(ai) < len(bi) {
			return -1
		}
		return 1
	}
	if c := strings.Compare(ai, bi); c != 0 {
		return c
	}
	for i := range max(len(af), len(bf)) {
		ca, cb := byte('0'), byte('0')
		if i < len(af) {
			ca = af[i]
		}
		if i < len(bf) {
			cb = bf[i]
		}
		if ca != cb {
			if ca < cb {
				return -1
			}
			return 1
		}
	}
	return 0
}

// ZeroText reports whether s is written as zero: nothing but '-', '0' and
// '.', so "", "0", "-0.000" are, and "0e5" is not. It does not check that
// s is a number ("0.0.0" is zero here).
func ZeroText(s string) bool { return strings.Trim(s, "-0.") == "" }

// AddOrFirst adds two literals exactly and writes the sum as
// decimal.Decimal's String does ("1.5" + "0.25" is "1.75"). When either
// is "" or malformed it returns a unchanged, so a table shows the
// literal it was sent instead of a total made up from part of it (Sum,
// which skips bad literals, is for totals over many).
func AddOrFirst(a, b string) string {
	x, ok := Parse(a)
	if !ok {
		return a
	}
	y, ok := Parse(b)
	if !ok {
		return a
	}
	return x.Add(y).String()
}
