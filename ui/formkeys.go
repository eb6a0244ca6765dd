package ui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// formKeys are the order form's keys; any other key with text is typed
// into the focused field.
type formKeys struct {
	Close, Next, Prev, ChoicePrev, ChoiceNext, Erase, Submit key.Binding
}

// formKeys are the form's bindings from the KeyMap.
func (k KeyMap) formKeys() formKeys {
	return formKeys{
		Close: k.Esc, Next: k.FieldNext, Prev: k.FieldPrev, ChoicePrev: k.ChoicePrev,
		ChoiceNext: k.ChoiceNext, Erase: k.Erase, Submit: k.Submit,
	}
}

// formWant is what a key on the form asks of the root.
type formWant int

const (
	formStay   formWant = iota
	formClose           // esc: closed, nothing sent
	formSubmit          // enter: validate and, if it passes, review
)

// Update edits the form: moving between fields, cycling a choice,
// erasing and typing; esc and enter are asked of the root, which alone
// knows the account to validate against. Enter does nothing while the
// symbols load or after they failed to.
func (f orderForm) Update(msg tea.Msg) (orderForm, tea.Cmd) {
	f.want = formStay
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return f, nil
	}
	keys := &f.keys
	switch {
	case key.Matches(k, keys.Close):
		f.want = formClose
	case key.Matches(k, keys.Next):
		f.step(1)
	case key.Matches(k, keys.Prev):
		f.step(-1)
	case key.Matches(k, keys.ChoicePrev):
		f.cycle(-1)
	case key.Matches(k, keys.ChoiceNext):
		f.cycle(1)
	case key.Matches(k, keys.Erase):
		f.backspace()
	case key.Matches(k, keys.Submit):
		if !f.loading && f.loadErr == "" {
			f.want = formSubmit
		}
	default:
		if k.Text != "" {
			f.typeText(k.Text)
		}
	}
	return f, nil
}
