package backoff

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	base, capD := 500*time.Millisecond, 30*time.Second
	tests := []struct {
		n      int
		r      float64
		lo, hi time.Duration
	}{
		{0, 0, 250 * time.Millisecond, 250 * time.Millisecond},
		{0, 0.999, 250 * time.Millisecond, 500 * time.Millisecond},
		{1, 0.5, 500 * time.Millisecond, time.Second},
		{3, 0, 2 * time.Second, 2 * time.Second},
		{20, 0.999, 15 * time.Second, 30 * time.Second},
	}
	for _, tc := range tests {
		got := Delay(tc.n, base, capD, func() float64 { return tc.r })
		if got < tc.lo || got > tc.hi {
			t.Errorf("Delay(%d, r=%v) = %v, want in [%v, %v]", tc.n, tc.r, got, tc.lo, tc.hi)
		}
	}
}
