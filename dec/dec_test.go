package dec

import (
	"testing"

	"github.com/shopspring/decimal"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in        string
		want      string
		ok        bool
		pos, nonz bool
	}{
		{"", "0", false, false, false},
		{"0", "0", true, false, false},
		{"0.00000000", "0", true, false, false},
		{"1.50", "1.5", true, true, true},
		{"-2", "-2", true, false, true},
		{"1e3", "1000", true, false, true},
		{"+1", "1", true, false, true},
		{"1,5", "0", false, false, false},
		{"abc", "0", false, false, false},
		{"123456789012345678901234.123456789", "123456789012345678901234.123456789", true, true, true},
	} {
		d, ok := Parse(c.in)
		if ok != c.ok || (ok && !d.Equal(decimal.RequireFromString(c.want))) {
			t.Errorf("Parse(%q) = %s, %v; want %s, %v", c.in, d, ok, c.want, c.ok)
		}
		if _, ok := Positive(c.in); ok != c.pos {
			t.Errorf("Positive(%q) ok = %v, want %v", c.in, ok, c.pos)
		}
		if _, ok := Nonzero(c.in); ok != c.nonz {
			t.Errorf("Nonzero(%q) ok = %v, want %v", c.in, ok, c.nonz)
		}
	}
}

func TestEqualSum(t *testing.T) {
	if !Equal("1.50", "1.5") || Equal("1", "2") || Equal("", "") || Equal("x", "x") {
		t.Error("Equal")
	}
	if got := Sum("1.5", "", "x", "2.25", "-0.75"); !got.Equal(decimal.RequireFromString("3")) {
		t.Errorf("Sum = %s, want 3", got)
	}
}

// FuzzParse: Parse never panics, and a literal it reads prints back to a
// literal it reads as the same number.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "0", "1.50", "-2", "1e3", "0.00000001", "12345678901234567890.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := Parse(s)
		_, _ = Positive(s)
		if !ok {
			return
		}
		if e, ok := Parse(d.String()); !ok || !e.Equal(d) {
			t.Fatalf("Parse(%q) = %s, which reads back as %s, %v", s, d, e, ok)
		}
	})
}
