//go:build !linux

package testkit

import "time"

// ThreadCPUTime is 0 where a thread's CPU time is not read: benchmarks
// then report 0 for a goroutine's CPU time.
func ThreadCPUTime() time.Duration { return 0 }
