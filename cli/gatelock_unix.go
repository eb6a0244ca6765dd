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

// Turn takes the host's turn among the bhtop processes: an exclusive
// flock on <host>.lock beside the gate file, held while one request is in
// flight, so a request of another process waits for the answer (and the
// gate it sets) before it is sent. The lock file is empty and kept open.
// When it cannot be opened or locked the turn is given at once: the lock
// never stops a command. The kernel drops the lock of a process that
// dies.
func (f *gateFile) Turn(ctx context.Context) (func(), error) {
	fd := f.lockFD()
	if fd < 0 {
		return func() {}, nil
	}
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }, nil
		case !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR):
			return func() {}, nil
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

// lockFD is the lock file's descriptor, opened on first use; -1 when it
// cannot be.
func (f *gateFile) lockFD() int {
	f.lockOnce.Do(func() {
		f.lock = -1
		path := strings.TrimSuffix(f.path, ".json") + ".lock"
		if os.MkdirAll(filepath.Dir(path), 0o700) != nil {
			return
		}
		file, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return
		}
		f.lockFile = file // kept open (and from the collector) for the process's life
		f.lock = int(file.Fd())
	})
	return f.lock
}
