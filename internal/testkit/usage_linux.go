//go:build linux

package testkit

import (
	"syscall"
	"time"
)

// ThreadCPUTime is the CPU time (user + system) the calling OS thread has
// used; a benchmark that locks its goroutine to its thread
// (runtime.LockOSThread) reads one goroutine's CPU time with it. 0 where
// it cannot be read.
func ThreadCPUTime() time.Duration { return rusage(syscall.RUSAGE_THREAD) }
