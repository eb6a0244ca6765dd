package cli

import (
	"strings"
	"testing"

	"bhtop/sim"
)

// TestDumpFailuresSayWhy: a dump that cannot give the account's state
// exits 1 with the reason a person can act on, and prints no state JSON:
// an unreachable service, an unknown API key, and a wrong secret (the
// socket opens on the key alone, but no signed snapshot is ever taken, so
// the stream never counts as live).
func TestDumpFailuresSayWhy(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"unreachable", map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}, []string{"never went live", "connection refused"}},
		{"unknown key", map[string]string{"BHTOP_API_KEY": "nobody"}, []string{"never went live", "-2015", "BHTOP_API_KEY"}},
		{"wrong secret", map[string]string{"BHTOP_SECRET_KEY": "wrong"}, []string{"never went live", "-1022", "BHTOP_SECRET_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(orderEnv(t, s, tt.env), "dump", "--for", "1500ms")
			if code != ExitFail || out != "" {
				t.Errorf("dump = exit %d, stdout %q; want exit %d and no state", code, out, ExitFail)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("dump stderr = %q, want it to say %q", errOut, w)
				}
			}
		})
	}
}
