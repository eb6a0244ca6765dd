//go:build unix

package testkit

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user + system) the process has used; benchmarks
// report its difference per event.
func CPUTime() time.Duration { return rusage(syscall.RUSAGE_SELF) }

// rusage is the user + system CPU time getrusage reports for who; 0 when
// it fails.
func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
