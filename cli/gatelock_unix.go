//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// turnPoll is how often a request waiting for another process's turn
// looks again.
const turnPoll = 2 * time.Millisecond

// turnMaxWait bounds the wait for another process's turn: a request is
// answered or timed out well within it (--timeout, 10 s by default), so a
// turn held longer belongs to a process that is stopped (ctrl+z) or hung,
// and the turn is then given without the lock rather than never.
var turnMaxWait = time.Minute

// Turn takes the host's turn among the bhtop processes: an exclusive
// flock on <host>.lock beside the gate file, held while one request is in
// flight, so a request of another process waits for the answer (and the
// gate it sets) before it is sent. The lock file is empty and kept open.
// When it cannot be opened or locked the turn is given at once, and when
// another process holds it past turnMaxWait it is given without the lock:
// the lock never stops a command. The kernel drops the lock of a process
// that dies. A lock file removed while this process had it open (sweepLocks)
// is left for the one now at the path. The host's requests take turns
// one at a time within the process (rest.HostLimits), so Turn is never
// called twice at once on one gateFile.
func (f *gateFile) Turn(ctx context.Context) (func(), error) {
	giveUp := time.Now().Add(turnMaxWait)
	for reopened := 0; ; {
		fd := f.lockFD()
		if fd < 0 {
			return func() {}, nil
		}
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil && !f.lockCurrent() && reopened < 3:
			// Removed while unlocked: whoever opened the new file first
			// may hold it now.
			_ = syscall.Flock(fd, syscall.LOCK_UN)
			f.closeLock()
			f.openLock()
			reopened++
			continue
		case err == nil:
			return func() {
				f.dropEnded()
				_ = syscall.Flock(fd, syscall.LOCK_UN)
			}, nil
		case !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR):
			return func() {}, nil
		case time.Now().After(giveUp):
			return func() {}, nil // held too long: a stopped or hung process
		}
		t := time.NewTimer(turnPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// lockPath is the lock file beside the gate file.
func (f *gateFile) lockPath() string { return strings.TrimSuffix(f.path, ".json") + ".lock" }

// lockFD is the lock file's descriptor, opened on first use (after the
// gate directory's long ended gate files and stale lock files are swept);
// -1 when it cannot be.
func (f *gateFile) lockFD() int {
	f.lockOnce.Do(func() {
		sweepGates(filepath.Dir(f.path), f.lockPath(), time.Now())
		sweepLocks(filepath.Dir(f.path), f.lockPath())
		f.openLock()
	})
	return f.lock
}

// openLock opens (creating) the lock file, kept open (and from the
// collector) for the process's life; f.lock is -1 when it cannot be.
func (f *gateFile) openLock() {
	f.lock = -1
	path := f.lockPath()
	if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
		return
	}
	file, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	f.lockFile, f.lock = file, int(file.Fd())
}

// closeLock closes the lock file.
func (f *gateFile) closeLock() {
	if f.lockFile != nil {
		f.lockFile.Close()
	}
	f.lockFile, f.lock = nil, -1
}

// lockCurrent reports whether the lock file open is still the one at its
// path: not removed (one fstat; lock files are never renamed or linked).
func (f *gateFile) lockCurrent() bool {
	var st syscall.Stat_t
	return syscall.Fstat(f.lock, &st) == nil && st.Nlink > 0
}

// sweepLocks removes the lock files in dir that no process holds, but
// keep: each host leaves one (each bhtop sim on a new port), and without
// this they pile up. One is removed only while this process holds its
// flock and it is still the file at its path, so no process is in a turn
// on it; a process that has it open finds, when it takes its next turn,
// that the path names another file and takes the turn there (Turn). The
// gate files are left alone. It runs once per host and process: a
// directory read and, per lock file, an open and a flock.
func sweepLocks(dir, keep string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if path := filepath.Join(dir, e.Name()); strings.HasSuffix(e.Name(), ".lock") && path != keep && e.Type().IsRegular() {
			removeFreeLock(path)
		}
	}
}

// removeFreeLock removes the lock file at path if no process holds it.
func removeFreeLock(path string) {
	file, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer file.Close() // drops the flock, after the removal
	fd := int(file.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		return // in a turn: in use
	}
	if !atPath(fd, path) {
		return // removed and made anew since it was opened: not this one
	}
	_ = os.Remove(path)
}

// atPath reports whether the open file fd is the file at path.
func atPath(fd int, path string) bool {
	var st, at syscall.Stat_t
	return syscall.Fstat(fd, &st) == nil && syscall.Stat(path, &at) == nil && st.Dev == at.Dev && st.Ino == at.Ino
}

// gateKeep is how long a gate file is kept once its gates ended. An ended
// gate holds nothing, but each host a 429 or 418 was answered for left
// its file for good (each bhtop sim on a new port one more).
const gateKeep = 24 * time.Hour

// sweepGates removes the gate files in dir whose gates all ended more
// than gateKeep before now (a corrupt one: not written for gateKeep),
// this process's host's too. Each is removed while this process holds
// its host's turn (the flock of its lock file, made if need be) and
// after reading it again: a 429 or 418 is stored (Save) within a turn,
// so no gate stored meanwhile is lost. A host whose turn another process
// holds is left for a later sweep. The other hosts' lock files go with
// their gate files; ownLock, this process's, stays. It runs once per host
// and process, beside sweepLocks: a directory read and a read per gate
// file.
func sweepGates(dir, ownLock string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	before := now.Add(-gateKeep)
	for _, e := range ents {
		path := filepath.Join(dir, e.Name())
		if !strings.HasSuffix(e.Name(), ".json") || !e.Type().IsRegular() || !gateEnded(path, before) {
			continue
		}
		lock := strings.TrimSuffix(path, ".json") + ".lock"
		removeEndedGate(path, lock, lock != ownLock, before)
	}
}

// gateEnded reports whether the gate file at path holds no gate ending
// after before (a corrupt one: was not written since).
func gateEnded(path string, before time.Time) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	g, ok := (&gateFile{path: path}).read()
	if !ok {
		return fi.ModTime().Before(before)
	}
	return max(g.RetryAfter, g.BannedUntil) < before.UnixMilli()
}

// removeEndedGate removes the gate file at path, if it still holds no
// gate ending after before, while holding its host's turn (the flock of
// lock); with dropLock the lock file goes too, as removeFreeLock does.
func removeEndedGate(path, lock string, dropLock bool, before time.Time) {
	file, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	defer file.Close() // drops the flock, after the removal
	fd := int(file.Fd())
	if syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB) != nil || !atPath(fd, lock) {
		return // in a turn, or removed meanwhile: in use
	}
	if !gateEnded(path, before) {
		return // a gate stored since
	}
	_ = os.Remove(path)
	if dropLock {
		_ = os.Remove(lock)
	}
}
