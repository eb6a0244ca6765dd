package ui

import (
	"strings"
	"testing"
	"time"
)

// TestStatusMustShowNarrow: the status line's items that DESIGN.md says
// always show (events per second, lag, clock offset, request weight
// against its limit, a ban, the error count) are whole at 40×15, 60×20
// and 80×24; below 60 columns the status line takes two lines, and the
// items it need not show give way, least important first: the last
// error (cut with "…" while 16 cells of it fit), the snapshot's age, the
// silence, never cut.
func TestStatusMustShowNarrow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		banned bool
		w, h   int
	}{
		{"40x15", false, 40, 15}, {"60x20", false, 60, 20}, {"80x24", false, 80, 24},
		{"40x15-banned", true, 40, 15}, {"60x20-banned", true, 60, 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newTestBackend(testSnapshot())
			st := liveStatus()
			st.Errors, st.LastError = 3, "POST /openapi/v1/order: HTTP 503 service unavailable"
			want := []string{"4.2", "ev/s", "lag 150ms", "+3ms", "12/1500", "err 3"}
			if tc.banned {
				st.BannedUntil = t0.Add(90 * time.Second)
				want = append(want, "BANNED 1m30s")
			}
			b.setStatus(st)
			m := sized(New(b, nil, WithNow(fixedNow), WithNoColor(true)), tc.w, tc.h)
			out := plainGolden(t, m, tc.w, tc.h)
			lines := strings.Split(out, "\n")
			n := 1
			if tc.w < 60 {
				n = 2
			}
			status := strings.Join(lines[len(lines)-n:], "\n")
			for _, w := range want {
				if !strings.Contains(status, w) {
					t.Errorf("status %q lacks %q", status, w)
				}
			}
			if items, _, _ := strings.Cut(status, "POST"); strings.Contains(items, "…") {
				t.Errorf("status %q cuts an item other than the last error", status)
			}
		})
	}
}
