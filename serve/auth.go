package serve

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// authorizedKeys is an OpenSSH authorized_keys file that is read again
// whenever it changes (another inode, size or modification time), checked
// on each authentication attempt, so that adding or removing a viewer's key
// needs no restart. Each line's options are honoured as grant describes;
// a line whose options serve cannot honour grants nothing (and is logged).
// A file writable by group or others is refused: anyone who can write it
// can let themselves in.
type authorizedKeys struct {
	path string
	// warn receives, once per read, why lines grant nothing; nil: dropped.
	warn func(msg string)

	mu   sync.Mutex
	info os.FileInfo        // of the last read; nil before the first
	keys map[string][]grant // wire form (PublicKey.Marshal) -> its lines, in file order
}

// newAuthorizedKeys reads path once, so that a missing or unreadable file
// is reported at startup rather than as refused logins.
func newAuthorizedKeys(path string, warn func(string)) (*authorizedKeys, error) {
	a := &authorizedKeys{path: path, warn: warn}
	if err := a.refresh(); err != nil {
		return nil, err
	}
	return a, nil
}

// allowed reports whether key may log in from addr at now, under the file
// as it is now: the first of its lines whose options allow it is its
// grant; otherwise why says why not (for the log, never for the client).
// When the file cannot be read or parsed no key is allowed (fail closed:
// deleting the file revokes everyone); the error says why.
func (a *authorizedKeys) allowed(key gossh.PublicKey, addr string, now time.Time) (g grant, ok bool, why string, err error) {
	err = a.refresh()
	a.mu.Lock()
	grants := a.keys[string(key.Marshal())]
	a.mu.Unlock()
	if len(grants) == 0 {
		return grant{}, false, "key not listed", err
	}
	var reasons []string
	for _, g := range grants {
		if ok, why := g.allows(addr, now); ok {
			return g, true, "", err
		} else {
			reasons = append(reasons, why)
		}
	}
	return grant{}, false, strings.Join(reasons, "; "), err
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
	keys, warnings, err := readAuthorizedKeys(a.path, err)
	if err != nil {
		a.info, a.keys = nil, nil
		return err
	}
	a.info, a.keys = info, keys
	if a.warn != nil {
		for _, w := range warnings {
			a.warn(w)
		}
	}
	return nil
}

// CheckAuthorizedKeys reads and parses the authorized keys file at path
// as serve will, so that a command can refuse a bad one before anything
// starts.
func CheckAuthorizedKeys(path string) error {
	_, _, err := readAuthorizedKeys(path, nil)
	return err
}

// readAuthorizedKeys reads and parses the file, unless statErr already
// says it cannot be read. A file writable by group or others is refused,
// and so is one that is not a regular file (opening a FIFO blocks).
func readAuthorizedKeys(path string, statErr error) (map[string][]grant, []string, error) {
	if statErr != nil {
		return nil, nil, fmt.Errorf("read authorized keys: %w", statErr)
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("authorized keys %s is not a regular file (mode %s)", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read authorized keys: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("read authorized keys: %w", err)
	}
	if runtime.GOOS != "windows" && st.Mode().Perm()&0o022 != 0 {
		return nil, nil, fmt.Errorf("authorized keys %s is writable by group or others (mode %04o): anyone who can write it can let themselves in; run chmod 600 %s",
			path, st.Mode().Perm(), path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxAuthorizedKeys+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read authorized keys: %w", err)
	}
	if len(data) > maxAuthorizedKeys {
		return nil, nil, fmt.Errorf("authorized keys %s is larger than %d bytes", path, maxAuthorizedKeys)
	}
	keys, warnings, err := parseAuthorizedKeys(data)
	if err != nil {
		return nil, nil, fmt.Errorf("parse authorized keys %s: %w", path, err)
	}
	for i, w := range warnings {
		warnings[i] = fmt.Sprintf("authorized keys %s: %s", path, w)
	}
	return keys, warnings, nil
}

// maxAuthorizedKeys bounds the file's size (OpenSSH lines are short; a
// thousand keys fit many times over).
const maxAuthorizedKeys = 4 << 20

// sameVersion reports whether two stats of the file show the same content
// version: same inode, size, modification time and mode (a chmod making
// it writable by group or others changes no content but revokes every key).
func sameVersion(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode()
}

// parseAuthorizedKeys parses every key in an authorized_keys file. Blank
// lines and comments are skipped; a line that is not a key is an error
// naming its line number, so a typo is not silently a locked-out viewer.
// A key line whose options serve cannot honour grants nothing; warnings
// say which and why.
func parseAuthorizedKeys(data []byte) (keys map[string][]grant, warnings []string, err error) {
	keys = make(map[string][]grant)
	for i, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, options, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		g, err := parseGrant(i+1, options)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("line %d (key %s) is ignored: %v", i+1, fingerprint(key), err))
			continue
		}
		k := string(key.Marshal())
		keys[k] = append(keys[k], g)
	}
	return keys, warnings, nil
}

// fingerprint is the key's OpenSSH SHA256 fingerprint, as logged.
func fingerprint(key gossh.PublicKey) string {
	if key == nil {
		return ""
	}
	return gossh.FingerprintSHA256(key)
}
