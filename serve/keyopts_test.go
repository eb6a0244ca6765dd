package serve

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// TestMatchFrom: from= patterns as sshd matches an address: wildcards,
// negation (a match refuses at once), CIDR.
func TestMatchFrom(t *testing.T) {
	cases := []struct {
		patterns, ip string
		want         bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"127.0.0.2", "127.0.0.1", false},
		{"127.0.0.*", "127.0.0.1", true},
		{"127.0.0.?", "127.0.0.1", true},
		{"127.0.0.?", "127.0.0.12", false},
		{"10.*,127.*", "127.0.0.1", true},
		{"*,!127.0.0.1", "127.0.0.1", false},
		{"!127.0.0.1,*", "127.0.0.1", false},
		{"!10.0.0.1,*", "127.0.0.1", true},
		{"!127.0.0.1", "127.0.0.1", false},
		{"!10.0.0.1", "127.0.0.1", false}, // negation alone allows nobody
		{"127.0.0.0/8", "127.1.2.3", true},
		{"10.0.0.0/8", "127.0.0.1", false},
		{"*,!127.0.0.0/8", "127.0.0.1", false},
		{"::1", "::1", true},
		{"2001:db8::/32", "2001:db8::5", true},
		{"2001:db8::/32", "127.0.0.1", false},
		{"LOCALHOST", "localhost", true},
	}
	for _, tc := range cases {
		if got := matchFrom(strings.Split(tc.patterns, ","), tc.ip); got != tc.want {
			t.Errorf("matchFrom(%q, %s) = %v, want %v", tc.patterns, tc.ip, got, tc.want)
		}
	}
}

// TestParseGrant: the options serve honours, ignores and refuses.
func TestParseGrant(t *testing.T) {
	cases := []struct {
		name    string
		options []string
		check   func(g grant) bool
		wantErr string
	}{
		{"none", nil, func(g grant) bool { return g.from == nil && !g.noPty && g.accounts == nil }, ""},
		{"from", []string{`from="10.*,!10.0.0.1"`}, func(g grant) bool { return len(g.from) == 2 && g.from[1] == "!10.0.0.1" }, ""},
		{"no-pty", []string{"no-pty"}, func(g grant) bool { return g.noPty }, ""},
		{"restrict", []string{"restrict"}, func(g grant) bool { return g.noPty }, ""},
		{"restrict,pty", []string{"restrict", "pty"}, func(g grant) bool { return !g.noPty }, ""},
		{"accounts", []string{`environment="BHTOP_ACCOUNTS=main, bot1"`}, func(g grant) bool {
			return len(g.accounts) == 2 && g.accounts[0] == "main" && g.accounts[1] == "bot1"
		}, ""},
		{"no accounts", []string{`environment="BHTOP_ACCOUNTS="`}, func(g grant) bool { return g.accounts != nil && len(g.accounts) == 0 }, ""},
		// A second BHTOP_ACCOUNTS never widens the first: the first holds, as sshd keeps the first of a name.
		{"accounts twice", []string{`environment="BHTOP_ACCOUNTS=main"`, `environment="BHTOP_ACCOUNTS=main,bot1,hidden"`}, func(g grant) bool {
			return len(g.accounts) == 1 && g.accounts[0] == "main"
		}, ""},
		{"no accounts, then some", []string{`environment="BHTOP_ACCOUNTS="`, `environment="BHTOP_ACCOUNTS=main"`}, func(g grant) bool { return g.accounts != nil && len(g.accounts) == 0 }, ""},
		{"other environment", []string{`environment="FOO=bar"`}, func(g grant) bool { return g.accounts == nil }, ""},
		{"forwarding no-ops", []string{"no-port-forwarding", "no-agent-forwarding", "no-X11-forwarding", `permitopen="h:1"`}, func(g grant) bool { return true }, ""},
		{"expiry", []string{`expiry-time="20300101"`}, func(g grant) bool { return g.expires.Year() == 2030 }, ""},
		{"command", []string{`command="rsync --server"`}, nil, "command= cannot be honoured"},
		{"cert-authority", []string{"cert-authority"}, nil, "cert-authority is not supported"},
		{"unknown", []string{"frobnicate"}, nil, "frobnicate is not supported"},
		{"bad cidr", []string{`from="10.0.0.0/99"`}, nil, "not an address/masklen"},
		{"bad expiry", []string{`expiry-time="2030"`}, nil, "YYYYMMDD"},
		{"unquoted", []string{`from=10.0.0.1`}, nil, "double quotes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := parseGrant(3, tc.options)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("parseGrant(%q) error = %v, want %q", tc.options, err, tc.wantErr)
				}
				return
			}
			if err != nil || !tc.check(g) {
				t.Errorf("parseGrant(%q) = %+v, %v", tc.options, g, err)
			}
		})
	}
}

// TestGrantAllows: from= and expiry-time decide with a reason.
func TestGrantAllows(t *testing.T) {
	now := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	g := grant{line: 4, from: []string{"10.0.0.0/8"}}
	if ok, why := g.allows("127.0.0.1:5555", now); ok || !strings.Contains(why, `line 4: address 127.0.0.1 does not match from="10.0.0.0/8"`) {
		t.Errorf("allows = %v, %q", ok, why)
	}
	if ok, _ := g.allows("10.1.2.3:5555", now); !ok {
		t.Error("10.1.2.3 refused")
	}
	exp := grant{line: 2, expires: now}
	if ok, why := exp.allows("127.0.0.1:1", now); ok || !strings.Contains(why, "expired") {
		t.Errorf("expired key: %v, %q", ok, why)
	}
	if ok, _ := exp.allows("127.0.0.1:1", now.Add(-time.Second)); !ok {
		t.Error("key refused before its expiry")
	}
}

// TestWritableAuthorizedKeysRefused: a keys file writable by group or
// others is refused at start (like the config file), and revokes every key
// when it becomes so later.
func TestWritableAuthorizedKeysRefused(t *testing.T) {
	for _, mode := range []os.FileMode{0o666, 0o620, 0o602} {
		dir := t.TempDir()
		keys := filepath.Join(dir, "authorized_keys")
		writeAuthorizedKeys(t, keys, newClientKey(t))
		if err := os.Chmod(keys, mode); err != nil {
			t.Fatal(err)
		}
		_, err := New(Config{AuthorizedKeys: keys, HostKey: filepath.Join(dir, "host"), NewModel: nil, Upstream: nil,
			Logger: slog.New(slog.DiscardHandler)})
		if err == nil {
			t.Fatalf("mode %04o: New accepted the file", mode)
		}
		_, err = newAuthorizedKeys(keys, nil)
		if err == nil || !strings.Contains(err.Error(), "writable by group or others") || !strings.Contains(err.Error(), "chmod 600") {
			t.Errorf("mode %04o: error %v", mode, err)
		}
	}
	// Readable by others is fine (sshd allows 0644).
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	k := newClientKey(t)
	writeAuthorizedKeys(t, keys, k)
	if err := os.Chmod(keys, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := newAuthorizedKeys(keys, nil)
	if err != nil {
		t.Fatalf("mode 0644: %v", err)
	}
	if _, ok, _, _ := a.allowed(k.PublicKey(), "127.0.0.1:1", time.Now()); !ok {
		t.Fatal("listed key refused")
	}
	// chmod alone (same content, same mtime) revokes too.
	if err := os.Chmod(keys, 0o620); err != nil {
		t.Fatal(err)
	}
	if _, ok, _, err := a.allowed(k.PublicKey(), "127.0.0.1:1", time.Now()); ok || err == nil {
		t.Errorf("after chmod 620 alone: allowed = %v, err %v; want refused with an error", ok, err)
	}
	if err := os.Chmod(keys, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok, _, err := a.allowed(k.PublicKey(), "127.0.0.1:1", time.Now()); !ok || err != nil {
		t.Errorf("after chmod 600 again: allowed = %v, err %v; want allowed", ok, err)
	}
	later := time.Now().Add(time.Second) // another mtime: re-read
	if err := os.Chmod(keys, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(keys, later, later); err != nil {
		t.Fatal(err)
	}
	if _, ok, _, err := a.allowed(k.PublicKey(), "127.0.0.1:1", time.Now()); ok || err == nil {
		t.Errorf("after chmod 666: allowed = %v, err %v; want refused with an error", ok, err)
	}
}

// TestKeyLinesWithOptions: lines the server cannot honour grant nothing and
// are reported; a key on several lines gets its first line that allows the
// client.
func TestKeyLinesWithOptions(t *testing.T) {
	k := newClientKey(t)
	pub := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey())))
	file := strings.Join([]string{
		`command="/usr/bin/backup" ` + pub + ` backup`,
		`from="10.0.0.0/8",environment="BHTOP_ACCOUNTS=office" ` + pub,
		`from="127.0.0.1",environment="BHTOP_ACCOUNTS=main,bot" ` + pub,
	}, "\n")
	keys, warnings, err := parseAuthorizedKeys([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "line 1") || !strings.Contains(warnings[0], "command=") {
		t.Errorf("warnings = %q", warnings)
	}
	if len(keys) != 1 || len(keys[string(k.PublicKey().Marshal())]) != 2 {
		t.Errorf("keys = %v, want one key on two lines", keys)
	}
	path := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	var warned []string
	a, err := newAuthorizedKeys(path, func(m string) { warned = append(warned, m) })
	if err != nil || len(warned) != 1 {
		t.Fatalf("newAuthorizedKeys: %v, warnings %q", err, warned)
	}
	g, ok, _, _ := a.allowed(k.PublicKey(), "127.0.0.1:22", time.Now())
	if !ok || strings.Join(g.accounts, ",") != "main,bot" || g.line != 3 {
		t.Errorf("from 127.0.0.1: %+v %v, want line 3 with main,bot", g, ok)
	}
	g, ok, _, _ = a.allowed(k.PublicKey(), "10.9.9.9:22", time.Now())
	if !ok || strings.Join(g.accounts, ",") != "office" {
		t.Errorf("from 10.9.9.9: %+v %v, want office", g, ok)
	}
	_, ok, why, _ := a.allowed(k.PublicKey(), "192.168.1.1:22", time.Now())
	if ok || !strings.Contains(why, "line 2") || !strings.Contains(why, "line 3") {
		t.Errorf("from 192.168.1.1: %v, %q", ok, why)
	}
	_, ok, why, _ = a.allowed(newClientKey(t).PublicKey(), "127.0.0.1:22", time.Now())
	if ok || why != "key not listed" {
		t.Errorf("unlisted key: %v, %q", ok, why)
	}
}
