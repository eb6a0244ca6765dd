// Package dec reads decimal literals — prices, quantities and balances as
// the service sends them — into exact numbers (shopspring/decimal), the one
// helper the packages share instead of each writing its own: an empty or
// malformed literal is reported, never read as zero by accident. For the
// dashboard's tables it also compares and adds literals as written
// (text.go), with a stated answer for text that is not a number.
package dec

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Parse reads a decimal literal; ok is false for "" and malformed text.
func Parse(s string) (d decimal.Decimal, ok bool) {
	if s == "" {
		return decimal.Decimal{}, false
	}
	d, err := decimal.NewFromString(s)
	return d, err == nil
}

// Positive reads a plain positive literal, as typed into an order: digits
// with an optional point, no sign, exponent or '+'. ok is false otherwise.
func Positive(s string) (d decimal.Decimal, ok bool) {
	d, ok = Parse(s)
	return d, ok && d.IsPositive() && !strings.ContainsAny(s, "eE+")
}

// Nonzero reads a literal that is present and not zero; a zero or missing
// limit (a filter the service leaves at "0") is ok false.
func Nonzero(s string) (d decimal.Decimal, ok bool) {
	d, ok = Parse(s)
	if !ok || d.IsZero() {
		return decimal.Decimal{}, false
	}
	return d, true
}

// Equal reports whether two literals are the same number ("1.50" and
// "1.5" are); false when either is not a number.
func Equal(a, b string) bool {
	x, ok1 := Parse(a)
	y, ok2 := Parse(b)
	return ok1 && ok2 && x.Equal(y)
}

// Sum adds literals exactly, skipping those that are empty or malformed.
func Sum(literals ...string) decimal.Decimal {
	var t decimal.Decimal
	for _, s := range literals {
		if d, ok := Parse(s); ok {
			t = t.Add(d)
		}
	}
	return t
}
