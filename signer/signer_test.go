package signer

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const (
	docSecret = "lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76"
	allParams = "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000"
)

// TestSignKnownAnswers checks the three worked examples of API-FACTS.md.
func TestSignKnownAnswers(t *testing.T) {
	s := NewSecret(docSecret)
	tests := []struct {
		name, query, body, want string
	}{
		{"query", allParams, "", "5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6"},
		{"body", "", allParams, "5f2750ad7589d1d40757a55342e621a44037dad23b5128cc70e18ec1d1c3f4c6"},
		{"split", "symbol=ETHBTC&side=BUY&type=LIMIT&timeInForce=GTC", "quantity=1&price=0.1&recvWindow=5000&timestamp=1538323200000",
			"885c9e3dd89ccd13408b25e6d54c2330703759d7494bea6dd5a3d1fd16ba3afa"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SignRequest(s, tt.query, tt.body); got != tt.want {
				t.Errorf("SignRequest(%q, %q) = %s, want %s", tt.query, tt.body, got, tt.want)
			}
			if !Verify(s, Text(tt.query, tt.body), strings.ToUpper(tt.want)) {
				t.Errorf("Verify rejected the upper-case form of %s", tt.want)
			}
		})
	}
}

// TestSplitDiffersFromJoined: for any split point inside the parameters,
// the split signature differs from the joined one, because the '&' at the
// split point is not part of the signed text.
func TestSplitDiffersFromJoined(t *testing.T) {
	s := NewSecret(docSecret)
	joined := SignRequest(s, allParams, "")
	for i, c := range allParams {
		if c != '&' {
			continue
		}
		q, b := allParams[:i], allParams[i+1:]
		if got := SignRequest(s, q, b); got == joined {
			t.Errorf("split at %d signs like the joined form", i)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	s := NewSecret(docSecret)
	sig := Sign(s, allParams)
	tests := []struct{ name, text, sig string }{
		{"changed text", strings.Replace(allParams, "quantity=1", "quantity=2", 1), sig},
		{"changed sig", allParams, "0" + sig[1:]},
		{"not hex", allParams, "zz" + sig[2:]},
		{"short", allParams, sig[:10]},
		{"empty", allParams, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if Verify(s, tt.text, tt.sig) {
				t.Errorf("Verify(%q, %q) = true, want false", tt.text, tt.sig)
			}
		})
	}
	if Verify(NewSecret("other"), allParams, sig) {
		t.Error("Verify with another secret = true, want false")
	}
}

func TestStripSignature(t *testing.T) {
	tests := []struct{ in, rest, sig string }{
		{"", "", ""},
		{"a=1&signature=ff&b=2", "a=1&b=2", "ff"},
		{"signature=ab", "", "ab"},
		{"a=1&b=2", "a=1&b=2", ""},
		{"xsignature=1&a=2", "xsignature=1&a=2", ""},
	}
	for _, tt := range tests {
		rest, sig := StripSignature(tt.in)
		if rest != tt.rest || sig != tt.sig {
			t.Errorf("StripSignature(%q) = %q, %q, want %q, %q", tt.in, rest, sig, tt.rest, tt.sig)
		}
	}
}

func TestSecretNeverPrints(t *testing.T) {
	s := NewSecret(docSecret)
	for _, out := range []string{
		fmt.Sprint(s), fmt.Sprintf("%v %+v %#v %s %q %x", s, s, s, s, s, s),
		fmt.Sprintf("%v", struct{ S Secret }{s}), fmt.Sprintf("%+v", &struct{ S Secret }{s}),
	} {
		if strings.Contains(out, docSecret) || strings.Contains(out, "lH3E") {
			t.Fatalf("secret printed: %s", out)
		}
	}
	b, _ := json.Marshal(struct{ S Secret }{s})
	if strings.Contains(string(b), "lH3E") {
		t.Fatalf("secret in JSON: %s", b)
	}
}

func BenchmarkSign(b *testing.B) {
	s := NewSecret(docSecret)
	for b.Loop() {
		Sign(s, allParams)
	}
}

func TestSecretWithin(t *testing.T) {
	s := NewSecret("AbCdEfGh12")
	for text, want := range map[string]bool{"AbCdEfGh12": true, "--symbol=ABCDEFGH12": true, "xabcdefgh12y": true,
		"AbCdEfGh1": false, "": false, "BUY": false} {
		if got := s.Within(text); got != want {
			t.Errorf("Within(%q) = %v, want %v", text, got, want)
		}
	}
	if NewSecret("short").Within("short") || (Secret{}).Within("anything") {
		t.Error("a key under 8 bytes, or none, was looked for")
	}
}

func TestSecretRedact(t *testing.T) {
	s := NewSecret("AbCdEfGh12")
	for in, want := range map[string]string{
		"x abcdefgh12 y ABCDEFGH12": "x [redacted] y [redacted]", "nothing": "nothing", "": "",
	} {
		if got := s.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if got := NewSecret("short").Redact("short"); got != "short" {
		t.Errorf("a key under 8 bytes was redacted: %q", got)
	}
}
