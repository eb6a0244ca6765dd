package state

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"bhtop/event"
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
			v[k] = randLit(r, 41)
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

// randLit is a literal of digits under n bytes long, alone in its array
// or followed by other bytes (as in a frame).
func randLit(r *rand.Rand, n int) []byte {
	lit := make([]byte, r.IntN(n))
	for i := range lit {
		lit[i] = byte('0' + r.IntN(10))
	}
	if r.IntN(2) == 0 { // in a frame: bytes after it
		frame := append(append([]byte(nil), lit...), bytes.Repeat([]byte{'"'}, r.IntN(30))...)
		return frame[:len(lit)]
	}
	return lit[:len(lit):len(lit)]
}

// TestPackOrder packs an order's literals of every length up to 24 (most
// unrolled, some over 16 by packAt) into buffers reused across rounds,
// and reads each back.
func TestPackOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var slab litSlab
	var o order
	for round := range 5000 {
		n := 17
		if round%4 == 0 {
			n = 25
		}
		x := event.ExecView{Price: randLit(r, n), Quantity: randLit(r, n), ClientOrderID: randLit(r, n), CumQty: randLit(r, n), CumQuote: randLit(r, n)}
		want := [nLits][]byte{x.Price, x.Quantity, x.ClientOrderID, x.CumQty, x.CumQuote}
		slab.packOrder(&o.lits, &o.ends, &x)
		for k := range want {
			if got := o.lit(k); !bytes.Equal(got, want[k]) {
				t.Fatalf("round %d: literal %d = %q, want %q", round, k, got, want[k])
			}
		}
		if n := int(o.ends[nLits-1]); len(o.lits) != n || cap(o.lits)-n < litRoom {
			t.Fatalf("round %d: %d bytes (room %d) for literals ending at %d", round, len(o.lits), cap(o.lits)-len(o.lits), n)
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
		if !plain && pos {
			t.Fatalf("plainPositive(%q) = true, not plain", l)
		}
		if plain && pos == zerosAndDots(b) {
			t.Fatalf("plainPositive(%q) = %v, zerosAndDots says %v", l, pos, zerosAndDots(b))
		}
	}
}

// TestSameText: sameText is == for texts of the same length, whichever
// byte differs; wordsDiff (4 to 16 bytes) and shortDiff (2 to 7) are 0
// just where it says they are the same.
func TestSameText(t *testing.T) {
	for n := 0; n <= 20; n++ {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte('A' + i)
		}
		words, short := n >= 4 && n <= 16, n >= 2 && n <= 7
		if !sameText(string(a), a) || words && wordsDiff(string(a), a) != 0 || short && shortDiff(string(a), a) != 0 {
			t.Fatalf("sameText(%q, itself) = false, or wordsDiff or shortDiff nonzero", a)
		}
		for i := range a {
			b := append([]byte(nil), a...)
			b[i] ^= 0x20
			if sameText(string(a), b) || words && wordsDiff(string(a), b) == 0 || short && shortDiff(string(a), b) == 0 {
				t.Fatalf("sameText(%q, %q) = true, or wordsDiff or shortDiff 0", a, b)
			}
		}
	}
}
