package ui

import (
	"strings"
	"testing"
)

// TestFormNeverRewritesNumbers: characters the form does not accept used
// to be dropped, so `1,5` became 15 and `0.04.1` became 0.041. Now the
// field keeps exactly what was typed, is marked invalid at once, and the
// order cannot go to review; nothing the user did not mean is ever sent.
func TestFormNeverRewritesNumbers(t *testing.T) {
	for _, tc := range []struct {
		name     string
		keys     []string // keystrokes (or one paste)
		field    int
		want     string // the field's text afterwards
		wantErr  string // the field's mark, "" for valid
		reviewOK bool
	}{
		{"comma typed", []string{"1", ",", "5"}, fieldQty, "1,5", "is not a digit or point", false},
		{"comma pasted", []string{"1,5"}, fieldQty, "1,5", "is not a digit or point", false},
		{"second point typed", []string{"0", ".", "0", "4", ".", "1"}, fieldPrice, "0.04.1", "one point", false},
		{"second point pasted", []string{"0.04.1"}, fieldPrice, "0.04.1", "one point", false},
		{"exponent", []string{"1e3"}, fieldQty, "1e3", "is not a digit or point", false},
		{"minus", []string{"-1"}, fieldQty, "-1", "is not a digit or point", false},
		{"space inside", []string{"1 0"}, fieldQty, "1 0", "is not a digit or point", false},
		{"plain", []string{"0", ".", "0", "1"}, fieldQty, "0.01", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &orderForm{symbols: testSymbols(), qty: "0.01", price: "60000"}
			f.field = tc.field
			if tc.field == fieldQty {
				f.qty = ""
			} else {
				f.price = ""
			}
			for _, k := range tc.keys {
				f.typeText(k)
			}
			got := f.qty
			if tc.field == fieldPrice {
				got = f.price
			}
			if got != tc.want {
				t.Errorf("typed %q: field = %q, want %q exactly as typed", tc.keys, got, tc.want)
			}
			if e := f.errs[tc.field]; (tc.wantErr == "") != (e == "") || !strings.Contains(e, tc.wantErr) {
				t.Errorf("typed %q: field mark = %q, want %q", tc.keys, e, tc.wantErr)
			}
			if _, ok := f.validate(testSnapshot()); ok != tc.reviewOK {
				t.Errorf("typed %q: review allowed = %v, want %v (marks %q)", tc.keys, ok, tc.reviewOK, f.errs)
			}
		})
	}
}

// TestFormBackspaceClearsTheMark: deleting the offending character makes
// the field valid again.
func TestFormBackspaceClearsTheMark(t *testing.T) {
	f := &orderForm{symbols: testSymbols(), field: fieldQty}
	f.typeText("1,")
	if f.errs[fieldQty] == "" {
		t.Fatal("1, is not marked invalid")
	}
	f.backspace()
	f.typeText("5")
	if f.qty != "15" || f.errs[fieldQty] != "" {
		t.Errorf("after backspace and 5: %q marked %q, want 15 and valid", f.qty, f.errs[fieldQty])
	}
}

// TestFormBackspaceWholeRune: backspace removes a whole character, never
// half of a multi-byte one.
func TestFormBackspaceWholeRune(t *testing.T) {
	f := &orderForm{symbols: testSymbols(), field: fieldQty}
	f.typeText("1é")
	f.backspace()
	if f.qty != "1" || f.errs[fieldQty] != "" {
		t.Errorf("after 1é and backspace: %q marked %q, want 1 and valid", f.qty, f.errs[fieldQty])
	}
}

// TestSymbolTypedWhileSymbolsLoad: letters typed into the symbol field
// before brokerInfo's symbols arrive pick the symbol once they do (they
// were dropped, leaving the first symbol or the preselected one selected
// under what was typed next: an order on the wrong symbol).
func TestSymbolTypedWhileSymbolsLoad(t *testing.T) {
	for _, tc := range []struct{ name, keys, typed, want string }{
		{"no row selected", "4", "ETHB", "ETHBTC"},
		{"a row preselects", "2 down down down down", "ETHU", "ETHUSDT"}, // the ETHBTC order's row
		{"nothing typed keeps the preselected", "2 down down down down", "", "ETHBTC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := press(t, sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 120, 40), tc.keys)
			next, load := m.Update(keyMsg("n"))
			m = next.(Model)
			if m.form == nil || !m.form.loading || load == nil {
				t.Fatal("the form did not open loading its symbols")
			}
			for _, r := range tc.typed {
				next, _ = m.Update(keyMsg(string(r)))
				m = next.(Model)
			}
			m = runReply(m, load)
			if got := m.form.symbol().Symbol; got != tc.want {
				t.Errorf("symbol %s after typing %q while loading, want %s", got, tc.typed, tc.want)
			}
			m = press(t, m, "type:U")
			if tc.typed != "" && m.form.symbol().Symbol != tc.want {
				t.Errorf("typing on after the load moved to %s", m.form.symbol().Symbol)
			}
		})
	}
}

// TestEnterWhileSymbolsLoad: enter before brokerInfo's symbols arrive
// cannot review anything yet; it says so instead of doing nothing (a
// `y` typed next then went into a field unnoticed).
func TestEnterWhileSymbolsLoad(t *testing.T) {
	m := sized(New(newTestBackend(testSnapshot()), &testTrader{}, WithNow(fixedNow), WithNoColor(true)), 120, 40)
	next, _ := m.Update(keyMsg("n"))
	next, _ = next.(Model).Update(keyMsg("enter"))
	m = next.(Model)
	if m.confirm != nil || !strings.Contains(m.msg, "symbols are still loading") {
		t.Errorf("enter while loading: review %v, message %q; want no review and why", m.confirm != nil, m.msg)
	}
}
