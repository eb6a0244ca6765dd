package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"

	"bhtop/actions"
	"bhtop/rest"
)

// TestFormValidation checks the order form against the symbol's filters
// and the free balances of testSnapshot (BTC 1.23456789, USDT 10250.75,
// ETH 12.5) before anything may be sent.
func TestFormValidation(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		sym, side, typ        int
		qty, price            string
		ok                    bool
		wantErr, wantNotional string
	}{
		{name: "valid buy", qty: "0.01", price: "60000", ok: true, wantNotional: "600"},
		{name: "no quantity", qty: "", price: "60000", wantErr: "quantity is required"},
		{name: "zero quantity", qty: "0", price: "60000", wantErr: "quantity must be above zero"},
		{name: "below min qty", qty: "0.00001", price: "60000", wantErr: "quantity below the minimum 0.0001"},
		{name: "above max qty", qty: "1001", price: "60000", wantErr: "quantity above the maximum 1000"},
		{name: "off step", qty: "0.00015", price: "60000", wantErr: "quantity not a multiple of 0.0001"},
		{name: "off tick", qty: "0.01", price: "60000.005", wantErr: "price not a multiple of 0.01"},
		{name: "below min price", qty: "1", price: "0.001", wantErr: "price below the minimum 0.01"},
		{name: "below min notional", qty: "0.0001", price: "100", wantErr: "notional 0.01 below the minimum 10"},
		{name: "buy over free quote", qty: "1", price: "60000", wantErr: "needs 60000 USDT, free 10250.75"},
		{name: "sell over free base", side: 1, qty: "2", price: "60000", wantErr: "needs 2 BTC, free 1.23456789"},
		{name: "sell within free base", side: 1, qty: "1", price: "60000", ok: true, wantNotional: "60000"},
		{name: "market needs no price", typ: 1, qty: "0.01", price: "", ok: true},
		{name: "market sell over free", typ: 1, side: 1, qty: "5", wantErr: "needs 5 BTC"},
		{name: "limit maker has a price", typ: 2, qty: "0.01", price: "", wantErr: "price is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &orderForm{symbols: testSymbols(), sym: tc.sym, side: tc.side, typ: tc.typ, qty: tc.qty, price: tc.price}
			notional, ok := f.validate(testSnapshot())
			msgs := strings.Join(append(f.errs[:], f.general...), "|")
			if ok != tc.ok {
				t.Fatalf("validate(%+v) ok = %v, want %v (messages %q)", tc, ok, tc.ok, msgs)
			}
			if tc.wantErr != "" && !strings.Contains(msgs, tc.wantErr) {
				t.Errorf("validate(%+v) messages = %q, want %q", tc, msgs, tc.wantErr)
			}
			if ok && notional != tc.wantNotional {
				t.Errorf("validate(%+v) notional = %q, want %q", tc, notional, tc.wantNotional)
			}
		})
	}
}

// TestFormRequest: what the form sends for each type (no TIF for MARKET
// and LIMIT_MAKER, no price for MARKET), exactly as typed.
func TestFormRequest(t *testing.T) {
	for _, tc := range []struct {
		typ        int
		tif, price string
		wantType   string
	}{
		{0, "GTC", "60000.10", "LIMIT"},
		{1, "", "", "MARKET"},
		{2, "", "60000.10", "LIMIT_MAKER"},
	} {
		f := &orderForm{symbols: testSymbols(), typ: tc.typ, qty: "0.0100", price: "60000.10"}
		r := f.request()
		if r.Type != tc.wantType || r.TimeInForce != tc.tif || r.Price != tc.price || r.Quantity != "0.0100" || r.Symbol != "BTCUSDT" || r.Side != "BUY" {
			t.Errorf("request(type %d) = %+v, want type %s tif %q price %q qty 0.0100", tc.typ, r, tc.wantType, tc.tif, tc.price)
		}
	}
}

// TestContractReviewPrivacy: with privacy on, the contract review's free
// balance of the margin asset is masked; the warning that the margin is
// more than free stays.
func TestContractReviewPrivacy(t *testing.T) {
	rv := actions.Review{Notional: decimal.RequireFromString("300000"), Margin: decimal.RequireFromString("30000"), Asset: "USDT", Known: true}
	r := &rest.ContractOrderRequest{Side: "BUY_OPEN", Leverage: "10"}
	got := strings.Join(contractReviewLines(rv, r, testSnapshot(), true), "\n")
	if strings.Contains(got, "10250.75") || !strings.Contains(got, "(free "+hidden+") ⚠ more than free") {
		t.Errorf("privacy review:\n%s", got)
	}
}

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
		// A point with no digit after it (or before it) is fine while
		// typing but is no decimal the service takes (bhtop order
		// refuses it too): the review waits for the digits.
		{"point last", []string{"60000."}, fieldPrice, "60000.", "", false},
		{"point first", []string{".", "0", "1"}, fieldQty, ".01", "", false},
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

// TestOpenPointNeverSent: a quantity or price ending or starting with its
// point ("2.", ".5") goes to no review and no closing order: the
// service rejects it (the form sent "10." and the simulator answered
// rejected).
func TestOpenPointNeverSent(t *testing.T) {
	for _, v := range []string{"2.", ".5"} {
		f := &orderForm{contract: true, contracts: testContracts(), qty: v, price: "60000", lev: "10"}
		if _, ok := f.validateContract("60000"); ok || !strings.Contains(f.errs[fieldQty], "point") {
			t.Errorf("contract quantity %q: review allowed %v, mark %q", v, ok, f.errs[fieldQty])
		}
		f = &orderForm{contract: true, contracts: testContracts(), qty: "1", price: v, lev: "10"}
		if _, ok := f.validateContract("60000"); ok || !strings.Contains(f.errs[fieldPrice], "point") {
			t.Errorf("contract price %q: review allowed %v, mark %q", v, ok, f.errs[fieldPrice])
		}
		c := closeReview{pos: testSnapshot().Positions[0], qty: v}
		if _, err := c.order(c.pos); err == nil {
			t.Errorf("closing quantity %q: no error", v)
		}
	}
}

// TestFormLongValueShowsItsEnd: a value longer than its field shows its
// end after "…" while focused, where the cursor types (a 21-digit price
// read "[0.000000000000000…]", the digits being typed out of sight), and
// its start with "…" at the end when not (the integer part matters most:
// a field left read "[…678901234567890.5]"), unless the start would read
// as zero ("[0.00000000000000000…]"): then its end, where its digits are.
func TestFormLongValueShowsItsEnd(t *testing.T) {
	for _, tc := range []struct {
		name, keys string
		want       []string
	}{
		{"price focused", "n down down down down type:12345678901234567890.5 down type:0.000000000000000000123",
			[]string{"[12345678901234567…]", "[…0000000000000123_]"}},
		{"quantity focused", "n down down down down type:12345678901234567890.5 down type:0.000000000000000000123 up",
			[]string{"[…78901234567890.5_]", "[…00000000000000123]"}},
		{"price left", "n down down down down type:0.5 down type:61000.123456789012345678 up",
			[]string{"[0.5_", "[61000.12345678901…]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := press(t, marketModel(testMarket(), 80, 24, WithNoColor(true)), tc.keys)
			out := ansi.Strip(m.View().Content)
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("the form lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// TestFormSymbolTypedMatchesNone: a symbol typed that no symbol begins
// with ("ZZZ", a typo "BTCUSDX") marks the Symbol field and enter opens
// no review: the form kept the symbol selected before and reviewed an
// order on BTCUSDT under "BTCUSDT (ZZZ)".
func TestFormSymbolTypedMatchesNone(t *testing.T) {
	for _, tc := range []struct{ name, keys string }{
		{"spot", "n type:ZZZ down down down down type:0.01 down type:60000 enter"},
		{"spot typo", "n type:BTCUSDX down down down down type:0.01 down type:60000 enter"},
		{"contract", "n up right down type:ZZZ down down down down down type:10 down type:5 down type:60000 enter"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := press(t, marketModel(testMarket(), 80, 24, WithNoColor(true)), tc.keys)
			out := ansi.Strip(m.View().Content)
			if strings.Contains(out, "SEND THIS ORDER") || m.confirm != nil {
				t.Errorf("a review opened for a symbol typed that matches none:\n%s", out)
			}
			if !strings.Contains(out, "! no symbol begins with") {
				t.Errorf("the Symbol field is not marked:\n%s", out)
			}
		})
	}
	// The typed text backed off to a prefix that matches: valid again.
	m := press(t, marketModel(testMarket(), 80, 24, WithNoColor(true)), "n type:BTCUSDX backspace down down down down type:0.01 down type:60000 enter")
	if out := ansi.Strip(m.View().Content); !strings.Contains(out, "SEND THIS ORDER") {
		t.Errorf("BTCUSD after backspace does not review:\n%s", out)
	}
}

// TestContractFieldMarksNamed: every contract field's mark starts with its
// field's name, as the checks' own messages do ("leverage: …"), leverage
// included.
func TestContractFieldMarksNamed(t *testing.T) {
	cases := []struct {
		name  string
		f     orderForm
		field int
		want  string
	}{
		{"leverage open point", orderForm{qty: "1", price: "60000", lev: "10."}, fieldLeverage, "leverage: "},
		{"leverage empty", orderForm{qty: "1", price: "60000"}, fieldLeverage, "leverage: "},
		{"quantity open point", orderForm{qty: "1.", price: "60000", lev: "10"}, fieldQty, "quantity: "},
		{"price open point", orderForm{qty: "1", price: ".5", lev: "10"}, fieldPrice, "price: "},
	}
	for _, tc := range cases {
		f := tc.f
		f.contract, f.contracts = true, testContracts()
		f.validateContract("60000")
		if e := f.errs[tc.field]; !strings.HasPrefix(e, tc.want) {
			t.Errorf("%s: mark %q, want it to start with %q", tc.name, e, tc.want)
		}
	}
}
