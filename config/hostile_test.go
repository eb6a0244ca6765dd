//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/signer"
)

// TestSecretFileHostile: the secret file is a regular file of one line,
// at most MaxSecretFileBytes; anything else is refused with a line
// saying why, without blocking and without a byte of the content.
func TestSecretFileHostile(t *testing.T) {
	const canary = "SECRETCANARY42"
	dir := t.TempDir()
	write := func(name, content string) string { return testkit.WriteFile(t, filepath.Join(dir, name), content) }
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	sub := filepath.Join(dir, "subdir")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"FIFO without a writer", fifo, "not a regular file"},
		{"directory", sub, "directory"},
		{"two lines", write("two", canary+"\n"+canary+"\n"), "more than one line"},
		{"CR line break inside", write("cr", canary+"\r"+canary), "more than one line"},
		{"5 MB", write("big", strings.Repeat(canary, 5<<20/len(canary))), "bytes"},
		{"empty", write("empty", ""), "empty"},
		{"only a newline", write("nl", "\n"), "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() { _, err := readSecretFile(tt.path, "--secret-file"); done <- err }()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("readSecretFile blocked for 5 s")
			}
			if err == nil {
				t.Fatalf("readSecretFile(%s) = nil error, want a refusal", tt.name)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to say %q", err, tt.want)
			}
			if strings.Contains(err.Error(), canary) || strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error = %q: want one line without the content", err)
			}
		})
	}
}

// TestSecretFileOneLine: one trailing line break (LF or CRLF) is trimmed.
func TestSecretFileOneLine(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"bare": "s3cr3t", "LF": "s3cr3t\n", "CRLF": "s3cr3t\r\n"} {
		p := testkit.WriteFile(t, filepath.Join(dir, name), content)
		s, err := readSecretFile(p, "--secret-file")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if signer.Sign(s, "x") != signer.Sign(signer.NewSecret("s3cr3t"), "x") {
			t.Errorf("%s: the secret read is not s3cr3t", name)
		}
	}
}

// TestConfigFileHostile: every kind of bad config file is refused with
// one line naming the file and the fault, never a value of it, and
// without blocking.
func TestConfigFileHostile(t *testing.T) {
	const canary = "CONFIGCANARY99"
	dir := t.TempDir()
	write := func(name, content string, mode os.FileMode) string {
		return testkit.WriteFileMode(t, filepath.Join(dir, name), content, mode)
	}
	fifo := filepath.Join(dir, "fifo.toml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.toml"), "no such file"},
		{"directory", dir, "is a directory"},
		{"FIFO", fifo, "not a regular file"},
		{"too open", write("open.toml", `api_key = "`+canary+`"`, 0o644), "chmod 600"},
		{"not TOML", write("junk.toml", "\x00\x01"+canary+"\xff", 0o600), "line 1"},
		{"wrong type", write("type.toml", `recv_window = "`+canary+`"`, 0o600), "recv_window"},
		{"wrong type bool", write("bool.toml", `read_only = "`+canary+`"`, 0o600), "read_only"},
		{"too big", write("big.toml", "# "+strings.Repeat("x", MaxConfigFileBytes)+"\n", 0o600), "bytes"},
		{"unknown key", write("unknown.toml", canary+` = "`+canary+`"`, 0o600), "unknown setting"},
		{"accounts not tables", write("accounts.toml", "accounts = 1\n", 0o600), "accounts"},
		{"accounts a string", write("accounts2.toml", `accounts = "`+canary+`"`, 0o600), "accounts"},
		{"alerts not tables", write("alerts.toml", "alerts = 1\n", 0o600), "alerts"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := resolve(t, []string{"--config", tt.path}, nil, "", 0)
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Resolve blocked for 5 s")
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Resolve(--config %s) = %v, want an error saying %q", tt.name, err, tt.want)
			}
			msg := strings.ReplaceAll(err.Error(), tt.path, "")
			if tt.name != "unknown key" && strings.Contains(msg, canary) {
				t.Errorf("error = %q holds a value of the file", err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error = %q, want one line", err)
			}
		})
	}
}

// TestKnownSecretsHostile: KnownSecrets reads the files a command line
// and the environment name as Resolve would, never blocking on a FIFO,
// and finds the secrets of those it can read, a file readable by others
// included (it is only redacted with).
func TestKnownSecretsHostile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	open := testkit.WriteFileMode(t, filepath.Join(dir, "open"), "OPENSECRET-123456\n", 0o644)
	cfg := testkit.WriteFileMode(t, filepath.Join(dir, "c.toml"),
		"secret_file = \""+fifo+"\"\n[accounts.a]\nsecret_key = \"TABLESECRET-1234\"\n[accounts.b]\nsecret_file = \""+open+"\"\nbogus = 1\n", 0o644)
	env := map[string]string{"BHTOP_SECRET_FILE": fifo, "BHTOP_CONFIG": fifo, "BHTOP_SECRET_KEY": " ENVSECRET-12345 "}
	done := make(chan []signer.Secret, 1)
	go func() {
		done <- KnownSecrets([]string{"--secret-file", fifo, "-config=" + cfg, "--for"}, func(k string) string { return env[k] })
	}()
	select {
	case got := <-done:
		text := "ENVSECRET-12345 tablesecret-1234 OPENSECRET-123456"
		for _, s := range got {
			text = s.Redact(text)
		}
		if text != "[redacted] [redacted] [redacted]" || len(got) != 3 {
			t.Errorf("%d secrets redact to %q", len(got), text)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("KnownSecrets blocked on a FIFO")
	}
}
