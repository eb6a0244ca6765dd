package state

import (
	"strings"
	"testing"
)

// numKeyRef is numKey as it was before it read ids by words: digit by
// digit.
func numKeyRef(id string) uint64 {
	if len(id) == 0 || len(id) > 19 || (id[0] == '0' && len(id) > 1) {
		return 0
	}
	var v uint64
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0
		}
		v = v*10 + uint64(c-'0')
	}
	v++
	v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
	v = (v ^ v>>27) * 0x94d049bb133111eb
	return v ^ v>>31
}

// TestNumKeyDigitByDigit: numKey reading by words gives the key the
// digit-by-digit loop gave, for ids of 1 to 21 bytes with a non-digit
// (or a digit) at each place, and leading zeros.
func TestNumKeyDigitByDigit(t *testing.T) {
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
			if g, w := numKey(id), numKeyRef(id); g != w {
				t.Errorf("numKey(%q) = %x, want %x", id, g, w)
			}
			if g, w := numKey([]byte(id)), numKeyRef(id); g != w {
				t.Errorf("numKey([]byte %q) = %x, want %x", id, g, w)
			}
		}
	}
}
