package ui

import (
	"bytes"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// TestAlertToast: an AlertMsg shows on the message line and sends the bell
// and the OSC 9 notification to the terminal.
func TestAlertToast(t *testing.T) {
	tm := startProgram(t, newTestBackend(testSnapshot()), nil, 120, 30)
	tm.Send(AlertMsg{Text: "BTCUSDT price 101 crossed above 100", Bell: true, Desktop: true})
	waitText(t, tm, "⚑ BTCUSDT price 101 crossed above 100")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("\x1b]9;bhtop: BTCUSDT price 101 crossed above 100\a"))
	}, teatest.WithDuration(waitLimit), teatest.WithCheckInterval(5*time.Millisecond))
	finish(t, tm)
}

// TestToastExpires: the toast leaves the message line when its time is up,
// unless another message replaced it.
func TestToastExpires(t *testing.T) {
	m := New(newTestBackend(testSnapshot()), nil, WithNow(fixedNow))
	next, cmd := m.onAlert(AlertMsg{Text: "x"})
	if cmd == nil {
		t.Fatal("no expiry command")
	}
	m = next.(Model)
	if m.msg != "⚑ x" {
		t.Fatalf("msg = %q", m.msg)
	}
	next, _ = m.onToastDone(toastDoneMsg{"⚑ x"})
	if got := next.(Model).msg; got != "" {
		t.Errorf("after expiry msg = %q, want empty", got)
	}
	m.setMsg(msgGood, "order sent")
	next, _ = m.onToastDone(toastDoneMsg{"⚑ x"})
	if got := next.(Model).msg; got != "order sent" {
		t.Errorf("expiry cleared another message: %q", got)
	}
}
