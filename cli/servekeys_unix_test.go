//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"bhtop/internal/testkit"
)

// TestServeBadAuthorizedKeysRefused: an authorized keys file that does not
// parse, is a FIFO or is writable by others is refused before anything
// starts (no simulator, no upstream), in one line with exit code 2; it
// was exit 1 after the upstream had started, and a FIFO hung serve.
func TestServeBadAuthorizedKeysRefused(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}[k] }
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	open := testkit.WriteFile(t, filepath.Join(dir, "open"), "")
	if err := os.Chmod(open, 0o666); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, want string }{
		{"not keys", testkit.WriteFile(t, filepath.Join(dir, "junk"), "not a key line\n"), "line 1"},
		{"broken key", testkit.WriteFile(t, filepath.Join(dir, "broken"), "ssh-ed25519 AAAAbroken\n"), "line 1"},
		{"FIFO", fifo, "not a regular file"},
		{"writable by others", open, "chmod 600"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, errOut := runRefused(t, getenv, "serve", "--listen", "127.0.0.1:0", "--authorized-keys", tt.path, "--host-key", filepath.Join(dir, "hk"))
			line := strings.TrimRight(errOut, "\n")
			if code != ExitUsage || strings.Contains(line, "\n") || !strings.Contains(line, tt.want) || !strings.Contains(line, "--authorized-keys") {
				t.Errorf("exit %d, stderr %q; want exit %d and one line naming --authorized-keys and %q", code, errOut, ExitUsage, tt.want)
			}
		})
	}
}

// TestServeHostKeyFIFO: a host key path that is a FIFO is refused with
// one line saying so; reading it blocked serve for ever.
func TestServeHostKeyFIFO(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string { return map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}[k] }
	keys := testkit.WriteFile(t, filepath.Join(dir, "authorized_keys"), "")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	code, errOut := runRefused(t, getenv, "serve", "--listen", "127.0.0.1:0", "--authorized-keys", keys, "--host-key", fifo)
	if last := errOut[strings.LastIndex(strings.TrimRight(errOut, "\n"), "\n")+1:]; code == ExitOK || !strings.Contains(last, "host key "+fifo+" is not a regular file") {
		t.Errorf("exit %d, stderr %q; want a failure whose last line says the host key is not a regular file", code, errOut)
	}
}
