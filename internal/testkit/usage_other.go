//go:build !unix

package testkit

import "time"

// CPUTime is 0 where getrusage does not exist: the benchmarks that report
// CPU time per event then report 0 for it, and their wall time still holds.
func CPUTime() time.Duration { return 0 }
