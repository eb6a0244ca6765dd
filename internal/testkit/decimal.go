package testkit

import "bhtop/dec"

// DecEqual reports whether two decimal strings are the same number
// ("1.50" and "1.5" are); false when either is not a number.
func DecEqual(a, b string) bool { return dec.Equal(a, b) }
