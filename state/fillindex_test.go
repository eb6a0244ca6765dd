package state

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strconv"
	"testing"

	"bhtop/event"
)

// TestKeyIndexAgreesWithMap drives the fills' index and a Go map with the
// same random puts, swaps and conditional deletes over few home slots
// (long probe runs that wrap around the table) and compares every key.
func TestKeyIndexAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x keyIndex[int32]
	want := map[uint64]int32{}
	key := func() uint64 { // a few homes in a 1024-slot table, many keys each
		return uint64(r.IntN(4))*1023 + uint64(r.IntN(600))<<10 + 1
	}
	for op := 0; op < 200_000; op++ {
		k, v := key(), int32(r.IntN(8))
		switch r.IntN(3) {
		case 0:
			x.put(k, v)
			want[k] = v
		case 1:
			old, found := x.swap(k, v)
			w, ok := want[k]
			if found != ok || (ok && old != w) {
				t.Fatalf("op %d: swap(%d) = %d %v, want %d %v", op, k, old, found, w, ok)
			}
			want[k] = v
		case 2:
			x.dropIf(k, v)
			if w, ok := want[k]; ok && w == v {
				delete(want, k)
			}
		}
		if op%1000 == 0 || op > 199_000 {
			if x.n != len(want) {
				t.Fatalf("op %d: %d keys, want %d", op, x.n, len(want))
			}
			for range 100 {
				if k := key(); want[k] == 0 {
					if _, in := want[k]; !in {
						if v, ok := x.get(k); ok {
							t.Fatalf("op %d: get(%d) = %d, want none", op, k, v)
						}
					}
				}
			}
			for k, w := range want {
				if v, ok := x.get(k); !ok || v != w {
					t.Fatalf("op %d: get(%d) = %d %v, want %d", op, k, v, ok, w)
				}
			}
		}
	}
}

// TestPlainDecKey: the z key's bytes and the l > 0 test read the usual
// literal in one pass, exactly as through event.ParseDec, whatever its
// leading and trailing zeros; other literals take the general path.
func TestPlainDecKey(t *testing.T) {
	lits := []string{"0", "00", "0.0", "000.000", "1", "10", "100", "007", "1.5", "1.50", "01.50", "0.5", "0.05", "00.0500",
		"10.0100", "123456789.123456789000", "9", "90.09", "1.", ".5", "1e5", "-1", "1.5e-1", "", "1.2.3", "12a", "0.0001000",
		"1234567890123456789", "12345678901234567890", "1234567890.1234567890", "0.00000000001234567890123456789",
		"9999999999999999999.000", "18446744073709551615", "1e-30", "123456789012345678901e-5", "0.1.", "1.a"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b []byte
		for range 1 + r.IntN(6) {
			b = append(b, "0001239"[r.IntN(7)])
		}
		if r.IntN(2) == 0 {
			b = append(b, '.')
			for range r.IntN(6) {
				b = append(b, "0009"[r.IntN(4)])
			}
		}
		lits = append(lits, string(b))
	}
	for _, lit := range lits {
		z := []byte(lit)
		got, ok := appendPlainDec([]byte("z"), z)
		d, valid := event.ParseDec(z)
		want := []byte("z")
		if !d.IsZero() {
			want = d.Digits(appendExp(want, &d))
		}
		if ok && (!valid || string(got) != string(want)) {
			t.Errorf("appendPlainDec(%q) = %q, want %q", lit, got, want)
		}
		if plainDecimal(z) != ok {
			t.Errorf("plainDecimal(%q) = %v, appendPlainDec took it: %v", lit, !ok, ok)
		}
		// decValue: the same value as numbers, whichever way it is read.
		var wantSig uint64
		var wantExp int64
		digits := d.Digits(nil)
		if !d.IsZero() {
			wantExp = d.Exp
			for _, c := range digits {
				wantSig = wantSig*10 + uint64(c-'0')
			}
		}
		sig, exp, fits := decValue(z)
		if fits != (len(digits) <= 19) || fits && (sig != wantSig || exp != wantExp) {
			t.Errorf("decValue(%q) = %d, %d, %v; want %d, %d, %v", lit, sig, exp, fits, wantSig, wantExp, len(digits) <= 19)
		}
		if _, _, _, plain := plainDecValue(z); plain != ok {
			t.Errorf("plainDecValue(%q) plain = %v, appendPlainDec took it: %v", lit, plain, ok)
		}
		if pos := valid && !d.Neg && !d.IsZero(); positiveDecimal(z) != pos {
			t.Errorf("positiveDecimal(%q) = %v, want %v", lit, !pos, pos)
		}
	}
}

// TestZKeyByValue: a z written plainly (the one-pass key) and the same
// value written with an exponent, leading or trailing zeros (the general
// key) give one key: a fill's z is matched by value whatever form each
// side sent.
func TestZKeyByValue(t *testing.T) {
	b := fillBook{seed: maphash.MakeSeed()}
	for _, same := range [][]string{
		{"1.5", "1.50", "01.5", "15e-1", "0.15e1", "1.5E0", "150E-2", "0.015e+2"},
		{"0", "0.0", "00.000", "0e5", "0.0e-3"},
		{"100", "100.00", "1e2", "1E+2", "0.1e3", "10e1"},
		{"0.05", "5e-2", "0.050", "50e-3"},
		{"1234567890.123456789", "1234567890123456789e-9", "01234567890.1234567890"},      // 19 digits: by numbers
		{"1234567890.1234567891", "12345678901234567891e-10", "001234567890.12345678910"}, // 20: by bytes
	} {
		// 42 takes numKey; 042 and x42 do not (their keys are hashed bytes).
		for _, id := range []string{"42", "042", "x42", "18446744073709551615"} {
			want := b.zKey(1, []byte(id), []byte(same[0]))
			for _, z := range same[1:] {
				if b.zKey(1, []byte(id), []byte(z)) != want {
					t.Errorf("order %s: zKey(%s) differs from zKey(%s)", id, z, same[0])
				}
			}
		}
	}
	// Different identities, different keys (no collision among these).
	keys := map[uint64]string{}
	for _, id := range []string{"42", "43", "042", "x42"} {
		for _, z := range []string{"0", "1", "1.5", "15", "0.15", "1234567890.1234567891"} {
			for m := range uint8(2) {
				k := b.zKey(m, []byte(id), []byte(z))
				name := fmt.Sprint(m, "/", id, "/", z)
				if other, ok := keys[k]; ok {
					t.Errorf("zKey(%s) = zKey(%s)", name, other)
				}
				keys[k] = name
			}
		}
	}
}

// TestNumKey: reading eight digits at a time, numKey takes exactly the
// ids a byte at a time takes (digits only, 1 to 19 of them, no leading
// zero), gives the same key for the string and the bytes, and distinct
// keys to distinct numbers.
func TestNumKey(t *testing.T) {
	ref := func(id string) (uint64, bool) {
		if len(id) == 0 || len(id) > 19 || (id[0] == '0' && len(id) > 1) {
			return 0, false
		}
		var v uint64
		for _, c := range []byte(id) {
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + uint64(c-'0')
		}
		return v, true
	}
	r := rand.New(rand.NewPCG(9, 10))
	ids := []string{"", "0", "00", "1", "9999999999999999999", "10000000000000000000", "18446744073709551615", "12345678", "1234567/", "123456789", "12345678:"}
	for range 20000 {
		b := make([]byte, 1+r.IntN(21))
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
			if r.IntN(40) == 0 {
				b[i] = "/:a\xff\xc6 "[r.IntN(6)]
			}
		}
		ids = append(ids, string(b))
	}
	seen := map[uint64]uint64{}
	for _, id := range ids {
		v, ok := ref(id)
		k := numKey(id)
		if (k != 0) != ok || numKey([]byte(id)) != k {
			t.Fatalf("numKey(%q) = %d (bytes %d), want a key: %v", id, k, numKey([]byte(id)), ok)
		}
		if w, dup := seen[k]; ok && dup && w != v {
			t.Fatalf("numKey(%q) = numKey of %d", id, w)
		}
		if ok {
			seen[k] = v
		}
	}
}

// TestShortDecValue: every literal of 1 to 8 bytes over digits and '.'
// has, through decValue (the short path), the value event.ParseDec reads
// when it is plain.
func TestShortDecValue(t *testing.T) {
	const alphabet = "0150."
	lit := make([]byte, 8)
	for n := 1; n <= 8; n++ {
		total := 1
		for range n {
			total *= len(alphabet)
		}
		for k := range total {
			for i, j := 0, k; i < n; i, j = i+1, j/len(alphabet) {
				lit[i] = alphabet[j%len(alphabet)]
			}
			z := lit[:n:n]
			sig, exp, ok, plain := plainDecValue(z)
			if plain != plainDecimal(z) {
				t.Fatalf("plainDecValue(%q) plain = %v, plainDecimal says %v", z, plain, plainDecimal(z))
			}
			if !plain {
				continue
			}
			wantSig, wantExp, _ := decValueRef(z)
			if !ok || sig != wantSig || exp != wantExp {
				t.Fatalf("plainDecValue(%q) = %d, %d, %v; want %d, %d", z, sig, exp, ok, wantSig, wantExp)
			}
		}
	}
}

// TestDecDigits: decDigits at each power of ten and next to it.
func TestDecDigits(t *testing.T) {
	p := uint64(1)
	for want := 1; want <= 20; want++ {
		for _, v := range []uint64{p, p + 1, p*2 - 1, p * 5} {
			if v/p >= 10 || v < p {
				continue
			}
			if got := decDigits(v); got != want {
				t.Errorf("decDigits(%d) = %d, want %d", v, got, want)
			}
		}
		if want < 20 {
			if got := decDigits(p*10 - 1); got != want {
				t.Errorf("decDigits(%d) = %d, want %d", p*10-1, got, want)
			}
			p *= 10
		}
	}
	if got := decDigits(^uint64(0)); got != 20 {
		t.Errorf("decDigits(max) = %d, want 20", got)
	}
}

// decValueRef is decValue of a plain literal as event.ParseDec reads
// it, and the number of its significant digits (sig means nothing past
// 19).
func decValueRef(z []byte) (sig uint64, exp int64, nd int) {
	d, _ := event.ParseDec(z)
	if d.IsZero() {
		return 0, 0, 0
	}
	digits := d.Digits(nil)
	for _, c := range digits {
		sig = sig*10 + uint64(c-'0')
	}
	return sig, d.Exp, len(digits)
}

// TestDecValueLong: literals of 9 to 24 bytes (where aef67ae's table
// stops at 8), many digits, leading and trailing zeros, 19-digit ones
// past 2^63, read by decValue and zKeyOf's short path as event.ParseDec
// reads them.
func TestDecValueLong(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	fixed := []string{"0.00000000", "00000000000000000000", "9999999999999999999", "18446744073709551615",
		"1844674407370955161.5", "0.000000000000000001", "1000000000000000000", "10000000000000000000",
		"000000000000000012.0", "1.000000000000000000", "9223372036854775808", "0000000000000000001"}
	for range 200000 {
		n := 9 + r.IntN(16)
		b := make([]byte, n)
		for i := range b {
			switch r.IntN(4) {
			case 0:
				b[i] = '0'
			case 1:
				b[i] = '9'
			default:
				b[i] = byte('0' + r.IntN(10))
			}
		}
		if r.IntN(3) > 0 {
			b[r.IntN(n)] = '.'
		}
		fixed = append(fixed, string(b))
	}
	for _, s := range fixed {
		z := []byte(s)
		if !plainDecimal(z) {
			continue
		}
		wantSig, wantExp, nd := decValueRef(z)
		sig, exp, ok := decValue(z)
		if nd > 19 {
			if ok {
				t.Fatalf("decValue(%q) ok with %d digits", s, nd)
			}
			continue
		}
		if !ok || sig != wantSig || exp != wantExp {
			t.Fatalf("decValue(%q) = %d, %d, %v; want %d, %d (%d digits)", s, sig, exp, ok, wantSig, wantExp, nd)
		}
		if len(z) <= 19 {
			if sig2, exp2, ok2, plain := shortDecValue(z); !plain || !ok2 || sig2 != sig || exp2 != exp {
				t.Fatalf("shortDecValue(%q) = %d, %d, %v, %v; decValue %d, %d", s, sig2, exp2, ok2, plain, sig, exp)
			}
		}
	}
	for k := 1; k < 64; k++ {
		for _, v := range []uint64{1<<k - 1, 1 << k, 1<<k + 1} {
			if got, want := decDigits(v), len(strconv.FormatUint(v, 10)); got != want {
				t.Errorf("decDigits(%d) = %d, want %d", v, got, want)
			}
		}
	}
}
