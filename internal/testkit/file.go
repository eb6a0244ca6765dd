package testkit

import (
	"os"
	"testing"
)

// WriteFile writes a test's input file (a config, a secret, a journal):
// content at path, mode 0600 (what bhtop wants of a file that may hold a
// secret), failing the test when it cannot. It returns path.
func WriteFile(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
