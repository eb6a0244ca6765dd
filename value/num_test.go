package value

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// randLiteral is a decimal literal of 1 to maxDigits digits with a random
// point and sign.
func randLiteral(r *rand.Rand, maxDigits int) string {
	n := 1 + r.IntN(maxDigits)
	var b strings.Builder
	if r.IntN(3) == 0 {
		b.WriteByte('-')
	}
	point := r.IntN(n + 1)
	for i := range n {
		if i == point && i > 0 {
			b.WriteByte('.')
		}
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

// TestNumAgreesWithDecimal checks every num operation against
// decimal.Decimal on random literals, short (the 128-bit paths) and long
// (the overflow to decimals), and that decBlock makes the same decimals.
func TestNumAgreesWithDecimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var blk decBlock
	for i := range 200000 {
		maxDigits := 18
		if i%10 == 0 {
			maxDigits = 40
		}
		sa, sb := randLiteral(r, maxDigits), randLiteral(r, maxDigits)
		da, db := decimal.RequireFromString(sa), decimal.RequireFromString(sb)
		a, okA := parseNum(sa)
		b, okB := parseNum(sb)
		if !okA || !okB || !a.dec().Equal(da) || !blk.dec(b).Equal(db) {
			t.Fatalf("parseNum(%s), parseNum(%s) = %v, %v", sa, sb, a.dec(), blk.dec(b))
		}
		// Chains of operations reach 128-bit magnitudes.
		sum, prod := a.add(b), a.mul(b)
		checks := []struct {
			name string
			got  num
			want decimal.Decimal
		}{
			{"add", sum, da.Add(db)},
			{"sub", a.sub(b), da.Sub(db)},
			{"mul", prod, da.Mul(db)},
			{"mul(mul)", prod.mul(b), da.Mul(db).Mul(db)},
			{"add(mul)", prod.add(a), da.Mul(db).Add(da)},
			{"sub(mul)", b.sub(prod), db.Sub(da.Mul(db))},
		}
		if q, ok := a.quo(b); ok != !db.IsZero() {
			t.Fatalf("%s / %s: ok = %v", sa, sb, ok)
		} else if ok {
			want, _ := div(da, db)
			checks = append(checks, struct {
				name string
				got  num
				want decimal.Decimal
			}{"quo", q, want})
			q2, _ := prod.quo(b)
			want2, _ := div(da.Mul(db), db)
			checks = append(checks, struct {
				name string
				got  num
				want decimal.Decimal
			}{"quo(mul)", q2, want2})
		}
		for _, c := range checks {
			if got := blk.dec(c.got); !got.Equal(c.want) || c.got.sign() != c.want.Sign() || c.got.isZero() != c.want.IsZero() {
				t.Fatalf("%s(%s, %s) = %s, want %s", c.name, sa, sb, got, c.want)
			}
		}
	}
}

func TestDecimalLayout(t *testing.T) {
	if !layoutMatches {
		t.Errorf("decimal.Decimal is no longer laid out as decimalLayout: decBlock allocates per decimal")
	}
}
