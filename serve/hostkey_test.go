package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

func TestHostKeyCreatedThenReused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ssh_host_ed25519")
	first, created, err := LoadOrCreateHostKey(path)
	if err != nil || !created {
		t.Fatalf("LoadOrCreateHostKey(missing) = created %v, err %v; want created", created, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("host key mode = %#o, want 0600", perm)
	}
	if first.PublicKey().Type() != "ssh-ed25519" {
		t.Errorf("host key type = %s, want ssh-ed25519", first.PublicKey().Type())
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "-----BEGIN OPENSSH PRIVATE KEY-----") {
		t.Errorf("host key file starts %q, want OpenSSH PEM", data[:min(len(data), 40)])
	}

	again, created, err := LoadOrCreateHostKey(path)
	if err != nil || created {
		t.Fatalf("LoadOrCreateHostKey(existing) = created %v, err %v; want loaded", created, err)
	}
	if !bytes.Equal(again.PublicKey().Marshal(), first.PublicKey().Marshal()) {
		t.Error("second start has another host key, want the saved one")
	}
}

func TestHostKeyRefused(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if _, _, err := LoadOrCreateHostKey(good); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(good)
	tests := []struct {
		name    string
		content []byte
		mode    os.FileMode
		want    string
	}{
		{"group readable", data, 0o640, "must not be readable by group or others"},
		{"not a key", []byte("hello\n"), 0o600, "parse host key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(path, tt.content, tt.mode); err != nil {
				t.Fatal(err)
			}
			os.Chmod(path, tt.mode)
			_, _, err := LoadOrCreateHostKey(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadOrCreateHostKey(%s) = %v, want error containing %q", tt.name, err, tt.want)
			}
		})
	}
}

func TestParseAuthorizedKeys(t *testing.T) {
	k := newClientKey(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(k.PublicKey())))
	tests := []struct {
		name    string
		in      string
		want    int
		wantErr string
	}{
		{"empty", "", 0, ""},
		{"comments and blanks", "# nobody\n\n   \n", 0, ""},
		{"one key with comment", line + " desk@pc\n", 1, ""},
		{"options are accepted", `no-pty,from="10.0.0.1" ` + line + "\n", 1, ""},
		{"duplicate", line + "\n" + line + "\n", 1, ""},
		{"garbage line", "# ok\nssh-ed25519 notbase64\n", 0, "line 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := parseAuthorizedKeys([]byte(tt.in))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("parseAuthorizedKeys(%q) error = %v, want %q", tt.in, err, tt.wantErr)
				}
				return
			}
			if err != nil || len(got) != tt.want {
				t.Errorf("parseAuthorizedKeys(%q) = %d keys, %v; want %d", tt.in, len(got), err, tt.want)
			}
		})
	}
}

// TestHostKeyOnlyInExistingDirectory: a host key under a directory that
// does not exist is an error naming that directory, and nothing is
// created.
func TestHostKeyOnlyInExistingDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, path, want string }{
		{"missing directories", filepath.Join(dir, "no", "such", "dir", "hk"), "does not exist"},
		{"under a file", filepath.Join(file, "hk"), "not a directory"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, created, err := LoadOrCreateHostKey(tt.path)
			if err == nil || created || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadOrCreateHostKey(%s) = created %v, %v; want an error containing %q", tt.path, created, err, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("LoadOrCreateHostKey created the missing directories")
	}
}
