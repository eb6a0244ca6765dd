package testkit

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes a test's input file (a config, a secret, a journal):
// content at path, mode 0600 (what bhtop wants of a file that may hold a
// secret), failing the test when it cannot. It returns path.
func WriteFile(t testing.TB, path, content string) string {
	t.Helper()
	return WriteFileMode(t, path, content, 0o600)
}

// WriteFileMode is WriteFile with the given mode, set exactly (the
// umask does not narrow it), for tests of files too open or unreadable.
func WriteFileMode(t testing.TB, path, content string, mode os.FileMode) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
	return path
}

// ConfigFile writes text as bhtop's config file for the config home dir
// (what XDG_CONFIG_HOME names): dir/bhtop/config.toml with mode, in a
// folder of mode 0700 made when missing. It returns the file's path.
func ConfigFile(t testing.TB, dir, text string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "bhtop"), 0o700); err != nil {
		t.Fatal(err)
	}
	return WriteFileMode(t, filepath.Join(dir, "bhtop", "config.toml"), text, mode)
}
