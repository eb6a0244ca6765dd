package state

import (
	"strings"
	"testing"
)

// plainNumber is the number id writes, digit by digit, as numKey read
// it before it read by words; false for no plain number of at most 19
// digits.
func plainNumber(id string) (uint64, bool) {
	if len(id) == 0 || len(id) > 19 || (id[0] == '0' && len(id) > 1) {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// TestNumKeyDigitByDigit: numKey reading by words is 0 exactly for what
// is no plain number, and gives distinct numbers distinct keys, for
// ids of 1 to 21 bytes with a non-digit (or another digit) at each
// place, and leading zeros.
func TestNumKeyDigitByDigit(t *testing.T) {
	seen := map[uint64]uint64{}
	for n := 1; n <= 21; n++ {
		base := strings.Repeat("9", n)
		ids := []string{base, "1" + strings.Repeat("0", n-1), "0" + base[1:]}
		for i := 0; i < n; i++ {
			for _, c := range []byte{'/', ':', 'a', 0x80, 0xb9, 0, ' ', '0', '5'} {
				b := []byte(base)
				b[i] = c
				ids = append(ids, string(b))
			}
		}
		for _, id := range ids {
			k := numKey(id)
			v, ok := plainNumber(id)
			if k2 := numKey([]byte(id)); (k != 0) != ok || k2 != k {
				t.Errorf("numKey(%q) = %x (as bytes %x), plain number %v", id, k, k2, ok)
			}
			if w, dup := seen[k]; ok && dup && w != v {
				t.Errorf("numKey(%q) = %x, the key of %d too", id, k, w)
			}
			if ok {
				seen[k] = v
			}
		}
	}
}
