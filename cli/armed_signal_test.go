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
// every signal after, SIGTERM and ctrl+c alike, and a lone signal (a
// supervisor's SIGTERM) waited for it for ever. A second signal during
// the flush now ends the process at once, and one alone does once the
// flush had flushWait.
func TestArmedSignalFlushHangs(t *testing.T) {
	for _, c := range []struct {
		name    string
		signals int
		wait    time.Duration // flushWait
		says    string
	}{
		{"a second signal", 2, time.Hour, "interrupted again"},
		{"one signal, flushWait", 1, 50 * time.Millisecond, "did not end within 50ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			exited := make(chan int, 2)
			was, wait := exitNow, flushWait
			exitNow, flushWait = func(code int) { exited <- code }, c.wait
			defer func() { exitNow, flushWait = was, wait }()
			release, flushing := make(chan struct{}), make(chan struct{})
			errOut := &testkit.Buffer{}
			run := func(ctx context.Context, arm func(flush func()), _ []string, _ IO) int {
				defer close(release)
				arm(func() { close(flushing); <-release }) // a write that hangs
				for i := range c.signals {
					if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
						t.Error(err)
					}
					if i == 0 {
						testkit.Recv(t, flushing, 10*time.Second, "the first signal did not start the flush")
					}
				}
				select {
				case code := <-exited:
					if code != 128+int(syscall.SIGUSR1) {
						t.Errorf("exit %d, want %d", code, 128+int(syscall.SIGUSR1))
					}
				case <-time.After(10 * time.Second):
					t.Errorf("%d signal(s) during a flush that hangs did not end the process within 10s", c.signals)
				}
				return ExitOK
			}
			untilArmedSignal("bhtop", false, run, nil, IO{Err: errOut}, syscall.SIGUSR1)
			if !strings.Contains(errOut.String(), c.says) {
				t.Errorf("stderr %q, want a line saying %q", errOut.String(), c.says)
			}
		})
	}
}
