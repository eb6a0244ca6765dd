package signer

import (
	"fmt"
	"strings"
	"testing"
)

// TestSecretInUnexportedField: fmt cannot call Format on a value held in
// an unexported struct field (as in rest.Client), so it prints the field's
// contents by reflection. The key must not show there either: not as
// text, not as the bytes' decimal or hex values.
func TestSecretInUnexportedField(t *testing.T) {
	type holder struct {
		base   string
		secret Secret
	}
	h := holder{"u", NewSecret("abc")}
	leaks := []string{"abc", "97 98 99", "0x61, 0x62, 0x63", "616263"}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		for _, v := range []any{h, &h, []holder{h}} {
			got := fmt.Sprintf(verb, v)
			for _, l := range leaks {
				if strings.Contains(got, l) {
					t.Errorf("Sprintf(%q, %T) = %s, holds the key as %q", verb, v, got, l)
				}
			}
		}
	}
	// HMAC-SHA256 of "x" keyed with "abc": the key is still there.
	if got, want := Sign(h.secret, "x"), "eec48bdc214a89dbff08a0e2f12083a31f8e62a248a980f78c5c5a1f94a94fcf"; got != want {
		t.Errorf("Sign(secret abc, x) = %s, want %s", got, want)
	}
}

// TestSecretQuoted: a key that %q escapes is found in its quoted form.
func TestSecretQuoted(t *testing.T) {
	if q := NewSecret("plainsecret1").Quoted(); !q.Empty() {
		t.Errorf("a key %%q leaves as is has a quoted form")
	}
	k := `se"cr\et-1234`
	msg := fmt.Sprintf("invalid value %q for flag -for", k)
	if got := NewSecret(k).Quoted().Redact(msg); got != "invalid value \"[redacted]\" for flag -for" {
		t.Errorf("quoted form redacts %q to %q", msg, got)
	}
}
