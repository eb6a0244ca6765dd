package state

import (
	"math/big"
	"strconv"

	"bhtop/event"
)

// avgDigits is how many significant digits of each operand take part in
// Z/z; the quotient keeps at least 20 significant digits, rounded half away
// from zero, so it is exact to well beyond the 12 digits the dump promises.
const avgDigits = 60

// AvgPrice returns Z/z as a decimal string, or nil when z is zero (or
// either is not a decimal). No float64 is involved.
func AvgPrice(cumQuote, cumQty string) *string {
	zq, ok1 := event.ParseDec([]byte(cumQuote))
	z, ok2 := event.ParseDec([]byte(cumQty))
	if !ok1 || !ok2 || z.IsZero() {
		return nil
	}
	if zq.IsZero() {
		s := "0"
		return &s
	}
	// value = 0.d1d2...dn × 10^Exp = int(digits) × 10^(Exp-n)
	var buf [avgDigits]byte
	nd, nexp := coefficient(&zq, buf[:0])
	num, _ := new(big.Int).SetString(string(nd), 10)
	dd, dexp := coefficient(&z, buf[:0])
	den, _ := new(big.Int).SetString(string(dd), 10)
	k := int64(len(dd)) + 21
	num.Mul(num, new(big.Int).Exp(big.NewInt(10), big.NewInt(k), nil))
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Lsh(r, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	s := formatDecimal(zq.Neg != z.Neg, q.String(), nexp-dexp-k)
	return &s
}

// coefficient returns up to avgDigits significant digits of d and the
// exponent that makes them an integer coefficient.
func coefficient(d *event.Dec, buf []byte) ([]byte, int64) {
	all := d.Digits(buf[:0:0])
	if len(all) > avgDigits {
		all = all[:avgDigits]
	}
	return all, d.Exp - int64(len(all))
}

// formatDecimal writes sign digits × 10^exp in plain notation, trailing
// zeros dropped; very large or small exponents use E notation.
func formatDecimal(neg bool, digits string, exp int64) string {
	for len(digits) > 1 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
		exp++
	}
	sign := ""
	if neg && digits != "0" {
		sign = "-"
	}
	n := int64(len(digits))
	switch {
	case exp >= 0 && exp <= 40:
		zeros := make([]byte, exp)
		for i := range zeros {
			zeros[i] = '0'
		}
		return sign + digits + string(zeros)
	case exp < 0 && -exp < n:
		return sign + digits[:n+exp] + "." + digits[n+exp:]
	case exp < 0 && -exp-n <= 40:
		zeros := make([]byte, -exp-n)
		for i := range zeros {
			zeros[i] = '0'
		}
		return sign + "0." + string(zeros) + digits
	}
	mant := digits[:1]
	if n > 1 {
		mant += "." + digits[1:]
	}
	return sign + mant + "E" + strconv.FormatInt(exp+n-1, 10)
}
