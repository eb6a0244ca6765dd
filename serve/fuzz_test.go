package serve

import (
	"strings"
	"testing"
	"time"
)

// FuzzAuthorizedKeys: parsing any authorized_keys text never panics; every
// line that grants something has well-formed options, and a grant with
// from= never allows an address its negated patterns exclude.
func FuzzAuthorizedKeys(f *testing.F) {
	const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH8sI5ht3CXhYFc9ZuYXn8JqkqPq4hJ6Y8Dw3Wo1lVsA"
	for _, s := range []string{
		key + " desk@pc",
		`from="10.*,!10.0.0.1",no-pty ` + key,
		`restrict,pty,environment="BHTOP_ACCOUNTS=a,b" ` + key,
		`command="ls",from="127.0.0.1" ` + key,
		`expiry-time="20300101Z" ` + key,
		`from="10.0.0.0/8" ` + key + "\n# comment\n\n" + key,
	} {
		f.Add(s, "127.0.0.1")
	}
	f.Fuzz(func(t *testing.T, text, ip string) {
		keys, _, err := parseAuthorizedKeys([]byte(text))
		if err != nil {
			return
		}
		for _, grants := range keys {
			for _, g := range grants {
				ok, why := g.allows(ip+":22", time.Unix(0, 0))
				if ok != (why == "") {
					t.Fatalf("allows = %v with reason %q", ok, why)
				}
				for _, p := range g.from {
					if neg, found := strings.CutPrefix(p, "!"); found && ok && matchOne(neg, ip) {
						t.Fatalf("%s allowed despite !%s", ip, neg)
					}
				}
			}
		}
	})
}
