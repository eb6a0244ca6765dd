package ui

import (
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	declit "bhtop/dec"
)

// Numbers are shown exactly as the service sent them (decimal literals) and
// aligned on the decimal point by padding their integer and fraction parts;
// nothing here goes through float64.

// decParts returns the widths of s's integer part (sign included) and
// fraction part (without the point).
func decParts(s string) (intW, fracW int) {
	i := strings.IndexByte(s, '.')
	if i < 0 {
		return utf8.RuneCountInString(s), 0 // a word in its place ("—") too
	}
	return i, len(s) - i - 1
}

// decWidth is the width of a column whose widest parts are intW and fracW.
func decWidth(intW, fracW int) int {
	if fracW > 0 {
		return intW + 1 + fracW
	}
	return intW
}

// padDec writes s aligned on its point in a column of intW.fracW.
func padDec(b *strings.Builder, s string, intW, fracW int) {
	iw, fw := decParts(s)
	writeSpaces(b, intW-iw)
	b.WriteString(s)
	if fracW > 0 {
		if fw == 0 {
			writeSpaces(b, 1+fracW) // no point: keep the column's point position free
		} else {
			writeSpaces(b, fracW-fw)
		}
	}
}

const spaces = "                                                                                                                                "

func writeSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

// compareDec is dec.Compare: the order of the panes' numeric sort keys.
func compareDec(a, b string) int { return declit.Compare(a, b) }

var hundred = decimal.NewFromInt(100)

// fillPct is executed/quantity as a percentage with one decimal, "" when
// either is missing or the quantity is zero.
func fillPct(executed, quantity string) string {
	if executed == "" || quantity == "" {
		return ""
	}
	q, err := decimal.NewFromString(quantity)
	if err != nil || q.IsZero() {
		return ""
	}
	z, err := decimal.NewFromString(executed)
	if err != nil {
		return ""
	}
	return z.Mul(hundred).DivRound(q, 1).StringFixed(1)
}

// isZeroAmount reports whether a balance literal is written as zero (or
// is empty): dec.ZeroText.
func isZeroAmount(s string) bool { return declit.ZeroText(s) }

// compactAge formats a duration in its largest unit: 45s, 12m, 3h, 5d.
func compactAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return ageText(int(d/time.Second), 0)
	case d < time.Hour:
		return ageText(int(d/time.Minute), 1)
	case d < 48*time.Hour:
		return ageText(int(d/time.Hour), 2)
	}
	return ageText(int(d/(24*time.Hour)), 3)
}

// ageUnits are compactAge's units; ageTexts its texts below 100 of each,
// made once so that drawing an age allocates nothing.
const ageUnits = "smhd"

var ageTexts = func() (t [len(ageUnits)][100]string) {
	for u := range t {
		for n := range t[u] {
			t[u][n] = strconv.Itoa(n) + ageUnits[u:u+1]
		}
	}
	return t
}()

func ageText(n, unit int) string {
	if n < len(ageTexts[unit]) {
		return ageTexts[unit][n]
	}
	return strconv.Itoa(n) + ageUnits[unit:unit+1]
}

// twoUnitAge formats a duration as 1h02m, 3m05s or 42s.
func twoUnitAge(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	switch {
	case h > 0:
		return strconv.Itoa(h) + "h" + pad2(m) + "m"
	case m > 0:
		return strconv.Itoa(m) + "m" + pad2(s) + "s"
	}
	return strconv.Itoa(s) + "s"
}

func pad2(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
