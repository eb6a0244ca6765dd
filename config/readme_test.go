package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bhtop/internal/testkit"
)

// TestReadmeTOMLExamplesLoad: every ```toml block of README.md is a config
// file bhtop accepts as it stands (the secret files it names are made,
// under a temporary directory standing for /home/me), so the examples a
// user copies cannot drift from the keys the code reads.
func TestReadmeTOMLExamplesLoad(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)\n```toml\n(.*?)\n```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) < 3 {
		t.Fatalf("README.md has %d toml blocks, want the config, accounts and alerts examples", len(blocks))
	}
	for i, b := range blocks {
		home := t.TempDir()
		text := strings.ReplaceAll(b[1], "/home/me", home)
		for _, m := range regexp.MustCompile(`secret_file\s*=\s*"([^"]+)"`).FindAllStringSubmatch(text, -1) {
			if err := os.MkdirAll(filepath.Dir(m[1]), 0o700); err != nil {
				t.Fatal(err)
			}
			testkit.WriteFileMode(t, m[1], "readme-example-secret\n", 0o600)
		}
		f, get := parsed(t, nil, env{}, text, 0o600)
		accts, err := f.ResolveAccounts(get)
		if err != nil {
			t.Errorf("README toml block %d is refused: %v\n%s", i+1, err, b[1])
			continue
		}
		if len(accts) == 0 {
			t.Errorf("README toml block %d: no account", i+1)
		}
		if strings.Contains(text, "[[alerts]]") && len(accts[0].Conn.Alerts) != strings.Count(text, "[[alerts]]") {
			t.Errorf("README toml block %d: %d alert rules loaded, want %d", i+1, len(accts[0].Conn.Alerts), strings.Count(text, "[[alerts]]"))
		}
	}
}
