package ui

import "testing"

// TestModePrecedence: the sub-model that has the keyboard when several
// are open, and which of them are dialogs over the panes.
func TestModePrecedence(t *testing.T) {
	hidden := &cancelRunState{hidden: true}
	for _, tc := range []struct {
		name   string
		m      Model
		want   mode
		dialog bool
	}{
		{"nothing", Model{}, modePanes, false},
		{"chart", Model{chart: &chartState{}}, modeChart, false},
		{"filter over chart", Model{chart: &chartState{}, prompt: filterPrompt{on: true}}, modeFilter, false},
		{"help over chart", Model{chart: &chartState{}, showHelp: true}, modeHelp, true},
		{"form over help", Model{showHelp: true, form: &orderForm{}}, modeForm, true},
		{"hidden cancel-all", Model{cancelRun: hidden, chart: &chartState{}}, modeChart, false},
		{"cancel-all summary over help", Model{cancelRun: &cancelRunState{done: true}, showHelp: true}, modeCancelRun, true},
		{"question over all", Model{confirm: &confirmation{}, cancelRun: &cancelRunState{}, form: &orderForm{}, showHelp: true}, modeConfirm, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.m.mode()
			if got != tc.want || got.dialog() != tc.dialog {
				t.Errorf("mode() = %d (dialog %v), want %d (dialog %v)", got, got.dialog(), tc.want, tc.dialog)
			}
		})
	}
}
