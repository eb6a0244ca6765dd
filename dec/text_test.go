package dec

import "testing"

func TestCompare(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       int
	}{
		{"same", "1", "1", 0},
		{"trailing zeros", "1.0", "1", 0},
		{"longer fraction", "0.1", "0.10000", 0},
		{"shorter integer", "9.5", "10", -1},
		{"many decimals", "10", "9.99999999", 1},
		{"smallest step", "0.00000001", "0", 1},
		{"negative first", "-1", "0.5", -1},
		{"both negative", "-2", "-1", -1},
		{"minus zero", "-0", "0", 0},
		{"minus zero point", "-0.00", "0", 0},
		{"empty first", "", "0", -1},
		{"empty before negative", "", "-5", -1},
		{"leading zeros", "007", "7", 0},
		{"past int64", "123456789012345678901234567890", "123456789012345678901234567891", -1},
		// Not plain decimals: ordered by the same rules on the text, not by value.
		{"exponent is text", "1e3", "999", -1},
		{"letters by length", "abc", "ab", 1},
		{"letters by text", "abd", "abc", 1},
		{"plus is text", "+1", "2", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Compare(tc.a, tc.b); got != tc.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
			}
			if got := Compare(tc.b, tc.a); got != -tc.want {
				t.Errorf("Compare(%q, %q) = %d, want %d", tc.b, tc.a, got, -tc.want)
			}
		})
	}
}

func TestZeroText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"", true}, {"0", true}, {"-0.000", true}, {"0.00000001", false},
		{"0e5", false}, {"0.0.0", true}, {"x", false},
	} {
		if got := ZeroText(tc.in); got != tc.want {
			t.Errorf("ZeroText(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestAddOrFirst(t *testing.T) {
	for _, tc := range []struct {
		name, a, b, want string
	}{
		{"exact", "1.5", "0.25", "1.75"},
		{"normalized", "1.50000000", "0.50000000", "2"},
		{"negative", "1", "-3.5", "-2.5"},
		{"past float64", "12345678901234567890.1", "0.00000000000000000001", "12345678901234567890.10000000000000000001"},
		{"exponent is a number", "1e3", "1", "1001"},
		{"bad second: first as sent", "1.50", "x", "1.50"},
		{"empty second: first as sent", "1.50", "", "1.50"},
		{"bad first", "1,5", "2", "1,5"},
		{"empty first", "", "2", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := AddOrFirst(tc.a, tc.b); got != tc.want {
				t.Errorf("AddOrFirst(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
