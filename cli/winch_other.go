//go:build !unix

package cli

import "os"

// notifyWindowChanges: no SIGWINCH here; the window size is the one at
// start.
func notifyWindowChanges() (<-chan os.Signal, func()) { return nil, func() {} }
