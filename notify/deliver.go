// Package notify runs alert rules on live accounts and delivers their
// firings: the log, the --alert-cmd command, the dashboard, and a record
// for the dump.
package notify

import (
	"log/slog"
	"strings"
	"sync"
	"unicode"

	"bhtop/alert"
)

// Record is one firing as the dump lists it (DESIGN.md: "alerts":
// [{"time","rule","account","message"}]); time is unix ms.
type Record struct {
	Time    int64  `json:"time"`
	Rule    string `json:"rule"`
	Account string `json:"account"`
	Message string `json:"message"`
}

// maxRecords bounds the firings a Dispatcher keeps for the dump.
const maxRecords = 1000

// Dispatcher hands each firing to every configured outlet. Deliver never
// blocks on an outlet: the command runs in the background with bounded
// concurrency and the UI outlet must not block either.
type Dispatcher struct {
	log *slog.Logger
	cmd *Command
	ui  func(alert.Firing)

	mu      sync.Mutex
	records []Record
}

// NewDispatcher delivers to logger (nil: none), cmd (nil: none) and ui
// (nil: none; called on the delivering goroutine, it must not block).
func NewDispatcher(logger *slog.Logger, cmd *Command, ui func(alert.Firing)) *Dispatcher {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Dispatcher{log: logger, cmd: cmd, ui: ui}
}

// Deliver hands out the firings, in order. Messages are cleaned of
// control characters first: they quote service-provided text (symbols,
// reasons) and go to terminals.
func (d *Dispatcher) Deliver(fs []alert.Firing) {
	for _, f := range fs {
		f.Message = Clean(f.Message)
		d.log.Warn("alert", "rule", f.Rule, "account", f.Account, "message", f.Message)
		d.mu.Lock()
		if len(d.records) >= maxRecords {
			d.records = append(d.records[:0:0], d.records[len(d.records)-maxRecords+1:]...)
		}
		d.records = append(d.records, Record{Time: f.Time.UnixMilli(), Rule: f.Rule, Account: f.Account, Message: f.Message})
		d.mu.Unlock()
		if d.cmd != nil {
			d.cmd.Run(f)
		}
		if d.ui != nil {
			d.ui(f)
		}
	}
}

// Records returns the firings so far (the newest maxRecords), oldest
// first; never nil, so the dump shows [].
func (d *Dispatcher) Records() []Record {
	if d == nil {
		return []Record{}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Record{}, d.records...)
}

// maxMessage caps a message's length in runes.
const maxMessage = 300

// Clean drops control and bidi-override characters, collapses whitespace
// and caps the length, so a message is safe in a terminal, an OSC 9
// sequence and a log line.
func Clean(s string) string {
	var b strings.Builder
	n, space := 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r) || r == unicode.ReplacementChar:
			continue
		}
		if space {
			b.WriteByte(' ')
			n++
			space = false
		}
		if n >= maxMessage {
			b.WriteString("…")
			break
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// Desktop reports whether the terminal is known to show OSC 9
// desktop notifications (others may print the sequence's text, or beep);
// getenv reads the terminal's environment (the local one, or an SSH
// client's).
func Desktop(getenv func(string) string) bool {
	switch getenv("TERM_PROGRAM") {
	case "iTerm.app", "WezTerm", "ghostty", "vscode":
		return true
	}
	if getenv("WT_SESSION") != "" || getenv("ConEmuANSI") == "ON" {
		return true
	}
	term := getenv("TERM")
	return strings.HasPrefix(term, "foot") || strings.Contains(term, "kitty")
}
