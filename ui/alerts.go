package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// AlertMsg is an alert firing for the dashboard (cli sends it with
// Program.Send): it shows as a toast on the message line for toastFor,
// rings the bell when Bell is set and, when Desktop is set, asks the
// terminal for a desktop notification (OSC 9). Text must already be
// clean of control characters (notify.Clean).
type AlertMsg struct {
	Text    string
	Bell    bool
	Desktop bool
}

// toastFor is how long an alert stays on the message line.
const toastFor = 15 * time.Second

// toastDoneMsg ends the toast showing text (if it still shows).
type toastDoneMsg struct{ text string }

// onAlert shows the toast and sends the bell and notification sequences.
func (m Model) onAlert(msg AlertMsg) (tea.Model, tea.Cmd) {
	text := "⚑ " + msg.Text
	m.setMsg(msgWarn, text)
	cmds := []tea.Cmd{tea.Tick(toastFor, func(time.Time) tea.Msg { return toastDoneMsg{text} })}
	if msg.Bell {
		cmds = append(cmds, m.raw("\a"))
	}
	if msg.Desktop {
		// OSC 9 ends at BEL; the text has no control characters, and ";"
		// is harmless inside it.
		cmds = append(cmds, m.raw("\x1b]9;bhtop: "+strings.ToValidUTF8(msg.Text, "?")+"\a"))
	}
	return m, tea.Batch(cmds...)
}

// onToastDone clears the message line if it still shows the toast.
func (m Model) onToastDone(msg toastDoneMsg) (tea.Model, tea.Cmd) {
	if m.msg == msg.text {
		m.setMsg(msgInfo, "")
	}
	return m, nil
}
