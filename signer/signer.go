// Package signer computes and checks the HMAC-SHA256 request signatures of SPEC.md.
//
// The signed text is the raw query string immediately followed by the raw
// request body, with no separator and without the signature parameter. The
// package does no I/O; the REST client and the simulator both use it, so the
// two can never disagree about what is signed.
package signer

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// Secret holds a secret key. Its zero value is an empty secret. It never
// prints: every fmt verb, %v and %#v included, and JSON encoding show
// "[redacted]", so a Secret that slips into a log line or an error leaks
// nothing. The key sits behind a func: fmt prints a Secret held in an
// unexported struct field by reflection, without calling Format, and a
// func prints there as an address, never as the key's bytes.
type Secret struct{ key func() []byte }

// NewSecret wraps the secret key text.
func NewSecret(s string) Secret {
	if s == "" {
		return Secret{}
	}
	b := []byte(s)
	return Secret{key: func() []byte { return b }}
}

// Empty reports whether no secret was given.
func (s Secret) Empty() bool { return s.key == nil }

// bytes is the key (nil for an empty secret).
func (s Secret) bytes() []byte {
	if s.key == nil {
		return nil
	}
	return s.key()
}

// String returns "[redacted]", never the key.
func (s Secret) String() string { return "[redacted]" }

// GoString returns "[redacted]", never the key.
func (s Secret) GoString() string { return "[redacted]" }

// Format makes every fmt verb print "[redacted]".
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte("[redacted]")) }

// minWithin is the shortest key Within looks for: a shorter one would be
// found in innocent text (a symbol, a side).
const minWithin = 8

// Within reports whether text holds the key, in any letter case (a symbol
// argument is upper-cased before it is checked or sent), so that a secret
// typed into the wrong argument can be refused instead of printed or
// sent. A key shorter than 8 bytes is never looked for.
func (s Secret) Within(text string) bool {
	k := s.bytes()
	if len(k) < minWithin || len(text) < len(k) {
		return false
	}
	return strings.Contains(strings.ToLower(text), strings.ToLower(string(k)))
}

// Redact returns text with every occurrence of the key, in any letter
// case, replaced by "[redacted]" (text as is for a key under 8 bytes,
// which Within never looks for).
func (s Secret) Redact(text string) string {
	if !s.Within(text) {
		return text
	}
	k := strings.ToLower(string(s.bytes()))
	lower := strings.ToLower(text)
	if len(lower) != len(text) { // a letter whose case changes its length: all of it goes
		return "[redacted]"
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, k)
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		b.WriteString("[redacted]")
		text, lower = text[i+len(k):], lower[i+len(k):]
	}
}

// Quoted is the key as a message quoting it with %q holds it: escaped
// (a quote, a backslash, a control character), without the quotes; the
// zero Secret when quoting leaves it as is. Redact with it too, so that
// "invalid value \"...\"" does not show a key holding a quote.
func (s Secret) Quoted() Secret {
	k := string(s.bytes())
	q := strconv.Quote(k)
	if q = q[1 : len(q)-1]; q == k {
		return Secret{}
	}
	return NewSecret(q)
}

// MarshalText encodes as "[redacted]".
func (s Secret) MarshalText() ([]byte, error) { return []byte("[redacted]"), nil }

// Text is the signed text for a request: the raw query (without a leading
// '?') immediately followed by the raw body. Neither may contain the
// signature parameter; use StripSignature first when verifying.
func Text(rawQuery, rawBody string) string { return rawQuery + rawBody }

// Sign returns the lowercase hex HMAC-SHA256 of text keyed with the secret.
func Sign(s Secret, text string) string {
	mac := hmac.New(sha256.New, s.bytes())
	mac.Write([]byte(text))
	return hex.EncodeToString(mac.Sum(nil))
}

// SignRequest signs a request whose parameters are split between the raw
// query string and the raw form body (either may be empty).
func SignRequest(s Secret, rawQuery, rawBody string) string {
	return Sign(s, Text(rawQuery, rawBody))
}

// Verify reports whether sig (hex, any case) is the signature of text. The
// comparison takes constant time in the length of the expected signature.
func Verify(s Secret, text, sig string) bool {
	got, err := hex.DecodeString(strings.ToLower(sig))
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, s.bytes())
	mac.Write([]byte(text))
	return hmac.Equal(mac.Sum(nil), got)
}

// StripSignature removes every signature=... parameter from a raw
// urlencoded parameter string, keeping the other parameters byte for byte
// and in order, and returns the remaining text and the last signature value
// found (empty when none). It is what a verifier signs: SPEC.md excludes
// the signature parameter from the signed text.
func StripSignature(raw string) (rest, sig string) {
	if raw == "" {
		return "", ""
	}
	parts := strings.Split(raw, "&")
	kept := parts[:0]
	for _, p := range parts {
		if v, ok := strings.CutPrefix(p, "signature="); ok {
			sig = v
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, "&"), sig
}
