package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// LoadOrCreateHostKey returns the server's host key from path. When the
// file does not exist it generates an ed25519 key and saves it there in
// OpenSSH PEM form with mode 0600, so that clients see the same host key
// on every start; created tells which happened. The file is created only
// in an existing directory: a mistyped path is an error, not a new
// directory tree. A key file readable by group or others is refused, as sshd
// refuses one.
func LoadOrCreateHostKey(path string) (signer gossh.Signer, created bool, err error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		// Reading a FIFO would block until a writer came.
		return nil, false, fmt.Errorf("host key %s is not a regular file (mode %s)", path, st.Mode().Type())
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
		signer, err := loadHostKey(path, data)
		return signer, false, err
	case errors.Is(err, fs.ErrNotExist):
		signer, err := createHostKey(path)
		return signer, err == nil, err
	default:
		return nil, false, fmt.Errorf("read host key: %w", err)
	}
}

func loadHostKey(path string, data []byte) (gossh.Signer, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("stat host key: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("host key %s has mode %#o: it must not be readable by group or others (chmod 600 %s)", path, perm, path)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("parse host key %s: %w", path, err)
	}
	return signer, nil
}

func createHostKey(path string) (gossh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "bhtop serve host key")
	if err != nil {
		return nil, fmt.Errorf("encode host key: %w", err)
	}
	if err := existingDir(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("create host key %s: %w", path, err)
	}
	// O_EXCL: two servers starting at once must not overwrite each other's key.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create host key: %w", err)
	}
	if _, err := f.Write(pem.EncodeToMemory(block)); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write host key: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, fmt.Errorf("write host key: %w", err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return nil, fmt.Errorf("host key signer: %w", err)
	}
	return signer, nil
}

// existingDir returns nil when dir is an existing directory, else an
// error saying what is wrong.
func existingDir(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("directory %s does not exist (create it first, or name a file in an existing directory)", dir)
	case err != nil:
		return fmt.Errorf("directory %s: %w", dir, errors.Unwrap(err))
	case !st.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}
