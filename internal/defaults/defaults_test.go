package defaults

import (
	"testing"
	"time"
)

func TestFill(t *testing.T) {
	unset, negative, set := time.Duration(0), -1, 2.5
	Fill(&unset, time.Second)
	Fill(&negative, 7)
	Fill(&set, 9)
	if unset != time.Second || negative != 7 || set != 2.5 {
		t.Errorf("Fill: %v, %v, %v; want 1s, 7, 2.5 (a set value is kept)", unset, negative, set)
	}
}
