package ui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestSqueezeReasonKeepsTime: a stream reason too long for the room left
// is shortened so that its time survives ("weight until 01:02:03 UTC"),
// and a reason that fits is left as it is.
func TestSqueezeReasonKeepsTime(t *testing.T) {
	long := "○ connecting (waiting for request weight until 01:02:03 UTC)"
	if got := squeezeReason(long, 80); got != long {
		t.Errorf("squeezeReason with room = %q, want it unchanged", got)
	}
	got := squeezeReason(long, 40)
	if !strings.Contains(got, "weight until 01:02:03") || ansi.StringWidth(got) > 40 {
		t.Errorf("squeezeReason(40) = %q (%d wide), want the time kept within 40", got, ansi.StringWidth(got))
	}
	turn := "● live (rotating, waiting for turn: another account is connecting or resyncing)"
	if got := squeezeReason(turn, 40); ansi.StringWidth(got) > 40 || !strings.Contains(got, "turn") {
		t.Errorf("squeezeReason(turn, 40) = %q", got)
	}
}

// TestHeaderLongNameKeepsEquity (desk QA): a 40-character account name
// at 80 columns is cut (with …) before the equity gives way.
func TestHeaderLongNameKeepsEquity(t *testing.T) {
	accts := twoAccounts()
	accts[0].Name = strings.Repeat("n", 36) + "-bot"
	m := sized(NewDesk(accts, WithNow(fixedNow), WithNoColor(true)), 80, 24)
	header, _, _ := strings.Cut(ansi.Strip(m.View().Content), "\n")
	if !regexp.MustCompile(`[0-9.]+ USDT`).MatchString(header) || !strings.Contains(header, "…") {
		t.Errorf("header %q: want the name cut with … and the equity kept", header)
	}
}
