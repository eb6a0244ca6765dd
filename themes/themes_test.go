package themes

import (
	"reflect"
	"strings"
	"testing"
)

// TestPalettesComplete: every role of every palette has both variants.
func TestPalettesComplete(t *testing.T) {
	for _, name := range Names() {
		p, ok := ByName(name)
		if !ok || p.Name != name {
			t.Fatalf("ByName(%q) = %q, %v; want %q, true", name, p.Name, ok, name)
		}
		v := reflect.ValueOf(p)
		for i := range v.NumField() {
			if pr, ok := v.Field(i).Interface().(Pair); ok && (pr.Light == nil || pr.Dark == nil) {
				t.Errorf("palette %s: role %s has a nil colour", name, v.Type().Field(i).Name)
			}
		}
	}
	if _, ok := ByName("purple"); ok {
		t.Errorf("ByName(purple) ok = true, want false")
	}
}

// TestThemesDiffer: the themes render the same text differently, and the
// NO_COLOR styles render no colour codes at all.
func TestThemesDiffer(t *testing.T) {
	seen := map[string]string{}
	for _, name := range Names() {
		p, _ := ByName(name)
		for _, dark := range []bool{true, false} {
			s := NewStyles(p, dark)
			out := s.Confirm.Render("SEND?") + s.Buy.Render("BUY") + s.Sell.Render("SELL")
			if prev, dup := seen[out]; dup && prev != name {
				t.Errorf("theme %s (dark %v) renders like %s", name, dark, prev)
			}
			seen[out] = name
		}
	}
	s := NoColorStyles()
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if st, ok := v.Field(i).Interface().(interface{ Render(...string) string }); ok {
			if out := st.Render("x"); strings.Contains(out, "38;") || strings.Contains(out, "48;") {
				t.Errorf("NO_COLOR style %s renders colour: %q", v.Type().Field(i).Name, out)
			}
		}
	}
}
