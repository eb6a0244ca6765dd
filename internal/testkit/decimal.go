package testkit

import "github.com/shopspring/decimal"

// DecEqual reports whether two decimal strings are the same number
// ("1.50" and "1.5" are); false when either is not a number.
func DecEqual(a, b string) bool {
	x, err1 := decimal.NewFromString(a)
	y, err2 := decimal.NewFromString(b)
	return err1 == nil && err2 == nil && x.Equal(y)
}
