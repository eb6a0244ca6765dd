package state

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestPackFill packs literals of every length up to 40, each alone in its
// array or followed by other bytes (putLit copies by words that overlap,
// by size class), into buffers reused across rounds, and reads each back.
func TestPackFill(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var slab litSlab
	var f fill
	for round := range 3000 {
		var v [nFillLits][]byte
		for k := range v {
			lit := make([]byte, r.IntN(41))
			for i := range lit {
				lit[i] = byte('0' + r.IntN(10))
			}
			if r.IntN(2) == 0 { // in a frame: bytes after it
				frame := append(append([]byte(nil), lit...), bytes.Repeat([]byte{'"'}, r.IntN(30))...)
				lit = frame[:len(lit)]
			} else {
				lit = lit[:len(lit):len(lit)]
			}
			v[k] = lit
		}
		f.lits = slab.packFill(f.lits, &f.ends, &v)
		for k := range v {
			if got := f.lit(k); !bytes.Equal(got, v[k]) {
				t.Fatalf("round %d: literal %d = %q, want %q", round, k, got, v[k])
			}
		}
		if n := int(f.ends[nFillLits-1]); len(f.lits) != n {
			t.Fatalf("round %d: %d bytes for literals ending at %d", round, len(f.lits), n)
		}
	}
}

// TestPlainPositive compares the one-pass check of l with the two passes
// it replaced (zerosAndDots, plainDecimal) on literals of digits, dots,
// signs and exponents.
func TestPlainPositive(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lits := []string{"", "0", "0.0", ".", "0.", ".5", "1", "1.5", "0.000", "0.001", "10", "1e5", "-1", "+1", "1.2.3"}
	for range 20000 {
		b := make([]byte, r.IntN(8))
		for i := range b {
			b[i] = "00012345.9-e+"[r.IntN(13)]
		}
		lits = append(lits, string(b))
	}
	for _, l := range lits {
		b := []byte(l)
		pos, plain := plainPositive(b)
		if plain != plainDecimal(b) {
			t.Fatalf("plainPositive(%q): plain = %v, plainDecimal says %v", l, plain, !plain)
		}
		if plain && pos == zerosAndDots(b) {
			t.Fatalf("plainPositive(%q) = %v, zerosAndDots says %v", l, pos, zerosAndDots(b))
		}
	}
}

// TestSameText: sameText is == for texts of the same length, whichever
// byte differs; sameTiny too where it says they are the same.
func TestSameText(t *testing.T) {
	for n := 0; n <= 20; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('A' + i)
		}
		if !sameText(string(a), a) || sameTiny(string(a), a) != (n > 0 && n < 4) {
			t.Fatalf("sameText(%q, itself) = false, or sameTiny = %v", a, sameTiny(string(a), a))
		}
		for i := range a {
			b := append([]byte(nil), a...)
			b[i] ^= 0x20
			if sameText(string(a), b) || sameTiny(string(a), b) {
				t.Fatalf("sameText(%q, %q) = true", a, b)
			}
		}
	}
}
