package config

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"http://user:s3cret@127.0.0.1:9/", "http://REDACTED@127.0.0.1:9/"},
		{"https://s3cret@h", "https://REDACTED@h"},
		{"http://a@b:s3cret@h/x?y=z@w", "http://REDACTED@h/x?y=z@w"},
		{"//user:s3cret@h", "//REDACTED@h"},
		{"user:s3cret@h", "REDACTED@h"},
		{"http://h/path@x", "http://h/path@x"},
		{"https://api.example.com", "https://api.example.com"},
		{"", ""},
	} {
		if got := redactURL(tt.in); got != tt.want {
			t.Errorf("redactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestURLCredentialsNeverEchoed: a base or WebSocket URL holding
// credentials is refused with an error that names the setting and the
// URL with its credentials redacted, whatever else is wrong with it.
func TestURLCredentialsNeverEchoed(t *testing.T) {
	const canary = "SECRETCANARY42"
	for _, tt := range []struct {
		name string
		args []string
		env  env
		file string
	}{
		{"flag", []string{"--base-url", "http://user:" + canary + "@127.0.0.1:1/"}, nil, ""},
		{"flag, user only", []string{"--base-url", "https://" + canary + "@api.example.com"}, nil, ""},
		{"flag, bad escape", []string{"--base-url", "http://user:" + canary + "@127.0.0.1:1/%zz"}, nil, ""},
		{"flag, bad port", []string{"--base-url", "http://user:" + canary + "@127.0.0.1:xx"}, nil, ""},
		{"flag, bad scheme", []string{"--base-url", "ftp://user:" + canary + "@h"}, nil, ""},
		{"ws flag", []string{"--ws-url", "wss://user:" + canary + "@h"}, nil, ""},
		{"env", nil, env{"BHTOP_BASE_URL": "http://u:" + canary + "@h"}, ""},
		{"file", nil, nil, `base_url = "http://u:` + canary + `@h"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolve(t, tt.args, tt.env, tt.file, 0o600)
			if err == nil {
				t.Fatal("Resolve accepted a URL with credentials")
			}
			if strings.Contains(err.Error(), canary) {
				t.Errorf("error echoes the credentials: %v", err)
			}
			if !strings.Contains(err.Error(), "REDACTED@") {
				t.Errorf("error %q does not name the URL (redacted)", err)
			}
		})
	}
}

// TestUnknownKeysNamedNotValued: unknown config keys are named, their
// values never; a key that looks like a pasted secret is not named either.
func TestUnknownKeysNamedNotValued(t *testing.T) {
	const canary = "SECRETCANARY42"
	const secretLike = "lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76"
	for _, tt := range []struct {
		name, file, want string
	}{
		{"misspelt key", `secretkey = "` + canary + `"`, "unknown setting(s) secretkey"},
		{"in an account", "[accounts.main]\nsecret = \"" + canary + "\"", "unknown setting(s) accounts.main.secret"},
		{"secret as the key", secretLike + ` = "x"`, "it may be a secret"},
		{"secret quoted as the key", `"` + secretLike + `" = 1`, "it may be a secret"},
		{"secret as a table", "[" + secretLike + "]\nx = 1", "it may be a secret"},
		{"mixed token key", `Ab3dE9x2Q7 = 1`, "it may be a secret"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := resolve(t, nil, nil, tt.file, 0o600)
			if err == nil {
				t.Fatal("Resolve accepted an unknown key")
			}
			msg := err.Error()
			if strings.Contains(msg, canary) || strings.Contains(msg, secretLike) || strings.Contains(msg, "Ab3dE9x2Q7") {
				t.Errorf("error shows a value or a secret-like key: %v", err)
			}
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want it to contain %q", msg, tt.want)
			}
		})
	}
}
