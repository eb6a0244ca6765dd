package event

import (
	stdjson "encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func stdValid(b []byte) bool { return stdjson.Valid(b) }

func TestCompareDecimal(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1", "1.000", 0},
		{"0.000", "-0", 0},
		{"0e5", "0", 0},
		{"1e2", "100", 0},
		{"1E+2", "99.9999", 1},
		{"-1", "0", -1},
		{"-1", "-2", 1},
		{"0.5", "0.50000001", -1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"12e-1", "1.2", 0},
		{"0.0001", "1e-4", 0},
		{"10", "9", 1},
		{"1e99999999999999999999", "1e40", 1},
	}
	for _, c := range cases {
		if got := CompareDecimal([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("CompareDecimal(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := CompareDecimal([]byte(c.b), []byte(c.a)); got != -c.want {
			t.Errorf("CompareDecimal(%s, %s) = %d, want %d", c.b, c.a, got, -c.want)
		}
	}
	for _, z := range []string{"0", "0.000", "-0", "0e9", "-0.0E-3", "000"} {
		if !IsZeroDecimal([]byte(z)) {
			t.Errorf("IsZeroDecimal(%s) = false, want true", z)
		}
	}
	for _, z := range []string{"0.0001", "1", "x", ""} {
		if IsZeroDecimal([]byte(z)) {
			t.Errorf("IsZeroDecimal(%s) = true, want false", z)
		}
	}
}

func TestCompareIDs(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"469961015902208000", "9007199254740993", 1},
		{"007", "7", -1},
		{"7", "7", 0},
		{"123456789012345678901234567890", "123456789012345678901234567889", 1},
	}
	for _, c := range cases {
		if got := CompareIDs(c.a, c.b); got != c.want {
			t.Errorf("CompareIDs(%s, %s) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestParseDecFast checks ParseDec's one-pass path against parseDec.
func TestParseDecFast(t *testing.T) {
	lits := []string{"", "0", "00", "0.", ".5", "1.", "1.5", "0.000", "000.0100", "10", "1000.000",
		"123456789.987654321", "0.00000001", "5e3", "-1.5", "1.5e-3", "+1", "1.2.3", "1a", "01.10", "9", "0.0e0", "1..2"}
	for _, a := range []string{"0", "1", "09", "90"} {
		for _, b := range []string{"", ".", ".0", ".90", ".09", "e1", "x"} {
			lits = append(lits, a+b)
		}
	}
	for _, s := range lits {
		checkParseDec(t, s)
	}
}

// FuzzParseDec: ParseDec's one-pass path agrees with parseDec on any text.
func FuzzParseDec(f *testing.F) {
	for _, s := range []string{"0", "1.5", "0.000", "000.0100", "-1.5e3", "1.", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkParseDec(t, s)
	})
}

// checkParseDec fails t when ParseDec's one-pass path and parseDec do
// not agree on s.
func checkParseDec(t *testing.T, s string) {
	t.Helper()
	got, gok := ParseDec([]byte(s))
	want, wok := parseDec([]byte(s))
	if gok != wok || got.Neg != want.Neg || string(got.Int) != string(want.Int) || string(got.Frac) != string(want.Frac) ||
		got.lead != want.lead || got.n != want.n || got.Exp != want.Exp || (got.Frac == nil) != (want.Frac == nil) {
		t.Errorf("ParseDec(%q) = %+v %v, want %+v %v", s, got, gok, want, wok)
	}
}

// TestParseTime checks ParseTime against strconv.ParseInt on boundaries
// and on random numbers of 0 to 22 digits, some with a byte changed (the
// short path of 18 digits or fewer, and the checked one past it).
func TestParseTime(t *testing.T) {
	cases := []string{"", "-", "0", "-0", "007", "+1", "1a", "a1", "--1", "1-",
		"999999999999999999", "-999999999999999999", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"00000000000000000000001", "18446744073709551616"}
	r := rand.New(rand.NewPCG(13, 13))
	for range 20_000 {
		// 0 to 22 digits, signed or not, a quarter with one byte changed
		s := strconv.FormatUint(r.Uint64(), 10) + strconv.FormatUint(r.Uint64(), 10)
		s = "-"[:r.IntN(2)] + s[:min(r.IntN(23), len(s))]
		if i := r.IntN(4 * max(len(s), 1)); i < len(s) {
			s = s[:i] + "-+a0"[i%4:i%4+1] + s[i+1:]
		}
		cases = append(cases, s)
	}
	for _, c := range cases {
		got, ok := ParseTime([]byte(c))
		want, err := strconv.ParseInt(c, 10, 64)
		if wantOK := err == nil && !strings.HasPrefix(c, "+"); ok != wantOK || ok && got != want {
			t.Fatalf("ParseTime(%q) = %d, %v; want %d, %v", c, got, ok, want, wantOK)
		}
	}
}
