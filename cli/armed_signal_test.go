//go:build unix

package cli

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"bhtop/internal/testkit"
)

// TestArmedSignalFlushHangs: once armed with a flush (the dashboard's
// --metrics), a signal writes it before quitting; a write that never
// ends (a FIFO whose reader left, a stalled disk) made bhtop deaf to
// every signal after, SIGTERM and ctrl+c alike. A second signal during
// the flush now ends the process at once.
func TestArmedSignalFlushHangs(t *testing.T) {
	exited := make(chan int, 2)
	was := exitNow
	exitNow = func(code int) { exited <- code }
	defer func() { exitNow = was }()
	release := make(chan struct{})
	flushing := make(chan struct{})
	errOut := &testkit.Buffer{}
	run := func(ctx context.Context, arm func(flush func()), _ []string, _ IO) int {
		arm(func() { close(flushing); <-release }) // a write that hangs
		self := func() {
			if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
				t.Error(err)
			}
		}
		self()
		testkit.Recv(t, flushing, 10*time.Second, "the first signal did not start the flush")
		self()
		select {
		case code := <-exited:
			if code != 128+int(syscall.SIGUSR1) {
				t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGUSR1))
			}
		case <-time.After(10 * time.Second):
			t.Error("a second signal during a flush that hangs did not end the process within 10s")
		}
		close(release)
		return ExitOK
	}
	untilArmedSignal("bhtop", false, run, nil, IO{Err: errOut}, syscall.SIGUSR1)
	if lines := strings.Count(errOut.String(), "\n"); lines < 1 {
		t.Errorf("stderr %q, want a line saying it quits", errOut.String())
	}
}

// TestArmedSignalFlushBounded: one signal (a supervisor's SIGTERM, no
// second coming) during a flush that hangs still ends the process, once
// the flush had flushWait: it waited for the write for ever.
func TestArmedSignalFlushBounded(t *testing.T) {
	exited := make(chan int, 1)
	was, wait := exitNow, flushWait
	exitNow, flushWait = func(code int) { exited <- code }, 50*time.Millisecond
	defer func() { exitNow, flushWait = was, wait }()
	release := make(chan struct{})
	errOut := &testkit.Buffer{}
	run := func(ctx context.Context, arm func(flush func()), _ []string, _ IO) int {
		arm(func() { <-release }) // a write that hangs
		if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
			t.Error(err)
		}
		select {
		case code := <-exited:
			if code != 128+int(syscall.SIGUSR1) {
				t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGUSR1))
			}
		case <-time.After(10 * time.Second):
			t.Error("one signal during a flush that hangs did not end the process within 10s (flushWait 50ms)")
		}
		close(release)
		return ExitOK
	}
	untilArmedSignal("bhtop", false, run, nil, IO{Err: errOut}, syscall.SIGUSR1)
	if !strings.Contains(errOut.String(), "without") {
		t.Errorf("stderr %q, want a line saying it quits without the write", errOut.String())
	}
}
