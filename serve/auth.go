package serve

import (
	"bytes"
	"fmt"
	"os"
	"sync"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedKeys is an OpenSSH authorized_keys file that is read again
// whenever it changes (another inode, size or modification time), checked
// on each authentication attempt, so that adding or removing a viewer's key
// needs no restart. Key options (from=, command=, restrict, …) are not
// honoured: every listed key gets the same read-only dashboard.
type authorizedKeys struct {
	path string

	mu   sync.Mutex
	info os.FileInfo         // of the last read; nil before the first
	keys map[string]struct{} // wire form (PublicKey.Marshal) of each key
}

// newAuthorizedKeys reads path once, so that a missing or unreadable file
// is reported at startup rather than as refused logins.
func newAuthorizedKeys(path string) (*authorizedKeys, error) {
	a := &authorizedKeys{path: path}
	if err := a.refresh(); err != nil {
		return nil, err
	}
	return a, nil
}

// allowed reports whether key is listed in the file as it is now. When the
// file cannot be read or parsed no key is allowed (fail closed: deleting
// the file revokes everyone); the error says why, for the log.
func (a *authorizedKeys) allowed(key gossh.PublicKey) (bool, error) {
	err := a.refresh()
	a.mu.Lock()
	_, ok := a.keys[string(key.Marshal())]
	a.mu.Unlock()
	return ok, err
}

// count returns how many keys are in force.
func (a *authorizedKeys) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.keys)
}

// refresh re-reads the file if it changed since the last read. On an
// error the list is emptied, and the next call reads the file again.
func (a *authorizedKeys) refresh() error {
	info, err := os.Stat(a.path)
	a.mu.Lock()
	defer a.mu.Unlock()
	if err == nil && a.info != nil && sameVersion(a.info, info) {
		return nil
	}
	keys, err := readAuthorizedKeys(a.path, err)
	if err != nil {
		a.info, a.keys = nil, nil
		return err
	}
	a.info, a.keys = info, keys
	return nil
}

// readAuthorizedKeys reads and parses the file, unless statErr already
// says it cannot be read.
func readAuthorizedKeys(path string, statErr error) (map[string]struct{}, error) {
	if statErr != nil {
		return nil, fmt.Errorf("read authorized keys: %w", statErr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read authorized keys: %w", err)
	}
	keys, err := parseAuthorizedKeys(data)
	if err != nil {
		return nil, fmt.Errorf("parse authorized keys %s: %w", path, err)
	}
	return keys, nil
}

// sameVersion reports whether two stats of the file show the same content
// version: same inode, size and modification time.
func sameVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// parseAuthorizedKeys parses every key in an authorized_keys file. Blank
// lines and comments are skipped; a line that is not a key is an error
// naming its line number, so a typo is not silently a locked-out viewer.
func parseAuthorizedKeys(data []byte) (map[string]struct{}, error) {
	keys := make(map[string]struct{})
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		keys[string(key.Marshal())] = struct{}{}
	}
	return keys, nil
}

// fingerprint is the key's OpenSSH SHA256 fingerprint, as logged.
func fingerprint(key gossh.PublicKey) string {
	if key == nil {
		return ""
	}
	return gossh.FingerprintSHA256(key)
}
