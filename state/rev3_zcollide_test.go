package state

import (
	"strconv"
	"strings"
	"testing"
)

// zLiteral writes the decimal whose significant digits are sig and
// adjusted exponent exp (value 0.sig × 10^exp).
func zLiteral(sig uint64, exp int) string {
	d := strconv.FormatUint(sig, 10)
	switch {
	case exp >= len(d):
		return d + strings.Repeat("0", exp-len(d))
	case exp > 0:
		return d[:exp] + "." + d[exp:]
	default:
		return "0." + strings.Repeat("0", -exp) + d
	}
}

// TestZKeyCollisionNotFromConstants: a z key collision must not be
// constructible from the mix's constants alone (whatever the salt): a
// fill whose key another fill of its order holds is added again on each
// repeat (z 1 and 0.007657787315756208897 of one order shared a key when
// the three parts were mixed once by fixed odd multiples).
func TestZKeyCollisionNotFromConstants(t *testing.T) {
	const c1, c2 = 0x9e3779b97f4a7c15, 0xc2b2ae3d27d4eb4f
	inv := uint64(c1) // Newton: inverse of c1 modulo 2^64
	for range 6 {
		inv *= 2 - c1*inv
	}
	var b fillBook
	b.salt = 12345
	z1 := "1"
	sig1, exp1, _ := decValue([]byte(z1))
	var z2 string
	for e := -3; e < 19 && z2 == ""; e++ {
		if int64(e) == exp1 {
			continue
		}
		x := sig1*c1 ^ (uint64(exp1)<<8|uint64(mSpot))*c2 ^ (uint64(int64(e))<<8|uint64(mSpot))*c2
		sig2 := x * inv
		if sig2 == 0 || sig2 >= 1e19 || sig2%10 == 0 {
			continue
		}
		z2 = zLiteral(sig2, e)
	}
	if z2 == "" {
		t.Skip("no colliding z found")
	}
	if b.zKey(mSpot, []byte("7"), []byte(z1)) == b.zKey(mSpot, []byte("7"), []byte(z2)) {
		t.Errorf("z %s and %s share a key", z1, z2)
	}
	a := execFill(MarketSpot, "7", 10, "1", "0.05", z1, "")
	c := execFill(MarketSpot, "7", 11, "1", "0.05", z2, "")
	s := fold(NewStore(), a, c, a, c, a)
	if fills := fillsOf(s); len(fills) != 2 {
		t.Fatalf("fills = %d, want 2: %+v", len(fills), fills)
	}
}
