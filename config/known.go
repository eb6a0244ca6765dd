package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"

	"github.com/BurntSushi/toml"

	"bhtop/signer"
)

// KnownSecrets returns every secret key a run of args (a command line
// that may not parse) with getenv could use: BHTOP_SECRET_KEY, the files
// of --secret-file and BHTOP_SECRET_FILE, and the secret_key and
// secret_file of the config files --config, BHTOP_CONFIG and the default
// path name, top level and every [accounts.NAME] table. It is for
// redacting what a command writes, even a refusal written before the
// settings resolve (a secret typed into --for): it reports no error, and
// reads a file only as Resolve would (regular, non-blocking, size
// limited), though one readable by others too, since none of it is used.
func KnownSecrets(args []string, getenv func(string) string) []signer.Secret {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	var keys []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			keys = append(keys, s)
		}
	}
	var secretFiles []string
	addFile := func(path string) {
		if path != "" {
			secretFiles = append(secretFiles, path)
		}
	}
	add(getenv("BHTOP_SECRET_KEY"))
	addFile(getenv("BHTOP_SECRET_FILE"))
	configs := []string{getenv("BHTOP_CONFIG"), DefaultPath(getenv)}
	configs = append(configs, ArgValues(args, "config")...)
	for _, path := range ArgValues(args, "secret-file") {
		addFile(path)
	}
	for _, path := range configs {
		if path == "" {
			continue
		}
		b, err := readRegular(path, "config file", MaxConfigFileBytes)
		if err != nil {
			continue
		}
		var c struct {
			SecretKey  string `toml:"secret_key"`
			SecretFile string `toml:"secret_file"`
			Accounts   map[string]struct {
				SecretKey  string `toml:"secret_key"`
				SecretFile string `toml:"secret_file"`
			} `toml:"accounts"`
		}
		_, _ = toml.Decode(string(b), &c) // what decodes is used, the rest is another command's error
		add(c.SecretKey)
		addFile(c.SecretFile)
		for _, t := range c.Accounts {
			add(t.SecretKey)
			addFile(t.SecretFile)
		}
	}
	for _, path := range secretFiles {
		b, err := readRegular(path, "secret file", MaxSecretFileBytes)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			add(line)
		}
	}
	out := make([]signer.Secret, 0, len(keys))
	for _, k := range keys {
		out = append(out, signer.NewSecret(k))
	}
	return out
}

// ArgValues are the values given to the flag name in args, a command
// line that may not parse: -name V, --name V, -name=V and --name=V, up to
// "--".
func ArgValues(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args) && args[i] != "--"; i++ {
		a := args[i]
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		n, v, hasVal := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if n != name {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				break
			}
			i++
			v = args[i]
		}
		out = append(out, v)
	}
	return out
}

// readRegular reads a regular file of at most limit bytes. It never
// blocks on a FIFO or device: the file is opened non-blocking and refused
// unless regular.
func readRegular(path, what string, limit int64) ([]byte, error) {
	b, _, err := readFile(path, what, limit, false)
	return b, err
}

// errNotPrivate marks a file readable by group or others.
var errNotPrivate = errors.New("accessible by group or others")

// readFile reads a regular file of at most limit bytes; private refuses
// one accessible by group or others. It returns the file's mode.
func readFile(path, what string, limit int64, private bool) ([]byte, os.FileMode, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", what, path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", what, path, err)
	}
	switch {
	case st.IsDir():
		return nil, 0, fmt.Errorf("%s %s is a directory", what, path)
	case !st.Mode().IsRegular():
		return nil, 0, fmt.Errorf("%s %s is not a regular file (it is a %s)", what, path, fileKind(st.Mode()))
	case private && isShared(st.Mode()):
		return nil, st.Mode(), errNotPrivate
	case st.Size() > limit:
		return nil, 0, fmt.Errorf("%s %s is %d bytes; at most %d are read", what, path, st.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", what, path, err)
	}
	if int64(len(b)) > limit {
		return nil, 0, fmt.Errorf("%s %s is over %d bytes; at most %d are read", what, path, limit, limit)
	}
	return b, st.Mode(), nil
}
