//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"
)

// notifyWindowChanges delivers SIGWINCH on the channel until stop.
func notifyWindowChanges() (<-chan os.Signal, func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGWINCH)
	return c, func() { signal.Stop(c) }
}
