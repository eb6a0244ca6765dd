// Package sim is a local exchange that speaks SPEC.md's REST and user
// data stream as strictly as the real service, for demos and tests.
package sim

// Server is the simulator; see New.
type Server struct {
	opts Options
	feed feed
}
