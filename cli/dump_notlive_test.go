package cli

import (
	"strings"
	"testing"
	"time"

	"bhtop/stream"
)

// TestNotLiveReasonSaysWhy: dump's "never went live" line says what the
// dashboard says in the same case: the wait's end, and, for a stream
// still taking its snapshots, the host's request weight spent.
func TestNotLiveReasonSaysWhy(t *testing.T) {
	at := time.Date(2026, 11, 25, 1, 2, 3, 0, time.UTC)
	for _, tc := range []struct {
		st   stream.Status
		want []string
	}{
		{stream.Status{State: stream.StateResyncing, Reason: "waiting for request weight", RetryAt: at},
			[]string{"waiting for request weight until 01:02:03 UTC"}},
		{stream.Status{State: stream.StateConnecting, Reason: "waiting for request weight until 01:02:03 UTC", RetryAt: at},
			[]string{"waiting for request weight until 01:02:03 UTC"}},
		{stream.Status{State: stream.StateResyncing, WeightUsed: 1190, WeightLimit: 1200},
			[]string{"resyncing", "REST snapshots not finished", "request weight 1190/1200 used this minute"}},
	} {
		got := notLiveReason(tc.st)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("notLiveReason(%s %q) = %q, want it to say %q", tc.st.State, tc.st.Reason, got, w)
			}
		}
		if strings.Count(got, "until") > 1 {
			t.Errorf("notLiveReason = %q says until twice", got)
		}
	}
}
