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
	return keysOnly(f, msg, orderForm.onKey)
}

func (f orderForm) onKey(k tea.KeyPressMsg) orderForm {
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
	return f
}

// onFormKey hands the key to the order form, first taking a live price
// into the price field (b, a, l), then doing what the form asks: close,
// or validate and open the review.
func (m Model) onFormKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	f := *m.form // copy: the model is a value
	m.form = &f
	if p, what, ok := m.quotePrice(&f, msg.Text); ok {
		f.price, f.errs[fieldPrice], f.checked, f.quoted = p, "", false, p != ""
		if p == "" {
			f.errs[fieldPrice] = "no " + what + " known for " + f.symbol().Symbol
		}
		return m, nil
	}
	f, cmd := f.Update(msg)
	if f.want == formStay && f.loading && key.Matches(msg, f.keys.Submit) {
		m.setMsg(msgWarn, "the symbols are still loading from brokerInfo: enter again once they show")
		return m, cmd
	}
	switch f.want {
	case formClose:
		m.form = nil
		m.setMsg(msgWarn, "order form closed, nothing sent")
		return m, nil
	case formSubmit:
		return m.submitForm(&f), cmd
	}
	return m, cmd
}

// submitForm validates the form and, when it passes, opens the review.
func (m Model) submitForm(f *orderForm) Model {
	if f.contract {
		r := f.contractRequest()
		if rv, ok := f.validateContract(m.contractRef(r)); ok {
			m.ask(confirmation{contract: &r, review: rv})
		}
		return m
	}
	notional, ok := f.validate(m.snap)
	if !ok {
		return m
	}
	req := f.request()
	m.ask(confirmation{place: &req, notional: notional, quote: f.symbol().QuoteAsset})
	return m
}

// quotePrice is the live price a key takes into the price field: b the
// bid, a the ask, l the last (price "" when the market does not know it;
// what names it). ok is false for any other key or field, without a
// market, or when the field holds typed text (only an empty field or a
// price one of these keys took is replaced): the key is typed as usual.
func (m *Model) quotePrice(f *orderForm, text string) (price, what string, ok bool) {
	if f.field != fieldPrice || !f.uses(fieldPrice) || !m.mk.live || (f.price != "" && !f.quoted) {
		return "", "", false // typed text is never replaced
	}
	q := m.mk.snap.Quotes[f.symbol().Symbol]
	switch text {
	case "b":
		return q.Bid, "bid", true
	case "a":
		return q.Ask, "ask", true
	case "l":
		return q.Last, "last price", true
	}
	return "", "", false
}
