//go:build unix

package cli

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputToFIFOWithoutReader: --record or --log naming a FIFO nobody
// reads hung in open for ever, deaf to --for and SIGTERM. It is refused
// at once (exit 2) saying why.
func TestOutputToFIFOWithoutReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	env := deskEnv(t, "")
	for _, args := range [][]string{
		{"dump", "--for", "1s", "--record", fifo},
		{"dump", "--for", "1s", "--log", fifo},
		{"sim", "--log-requests", fifo},
	} {
		code, errOut := runRefused(t, env, args...)
		if code != ExitUsage || !strings.Contains(errOut, "no reader") {
			t.Errorf("bhtop %q: exit %d, stderr %q; want %d and 'no reader'", args, code, errOut, ExitUsage)
		}
	}
}
