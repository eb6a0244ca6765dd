package config

import (
	"strings"
	"testing"
	"time"

	"bhtop/alert"
)

// TestAlertRules: every kind of the contract parses from [[alerts]] tables,
// with its fields and an optional account.
func TestAlertRules(t *testing.T) {
	file := `
theme = "dark"

[[alerts]]
kind = "fill"
symbol = "ethbtc"

[[alerts]]
kind = "order_rejected"
account = "default"

[[alerts]]
kind = "balance_below"
asset = "USDT"
below = 100.5

[[alerts]]
kind = "equity_below"
below = "1000"

[[alerts]]
kind = "pnl_below"
symbol = "BTC-PERP-REV"
below = -50

[[alerts]]
kind = "liquidation_within"
percent = 5

[[alerts]]
kind = "stream_silent"
after = "2m"

[[alerts]]
kind = "price_cross"
symbol = "BTCUSDT"
above = 70000
`
	c, err := resolve(t, nil, nil, file, 0o600)
	if err != nil {
		t.Fatalf("Resolve: %v", err)
	}
	if len(c.Alerts) != 8 {
		t.Fatalf("got %d rules, want 8", len(c.Alerts))
	}
	want := []struct {
		id     string
		kind   alert.Kind
		detail string
	}{
		{"fill#1", alert.KindFill, "ETHBTC"},
		{"order_rejected#2", alert.KindOrderRejected, "default"},
		{"balance_below#3", alert.KindBalanceBelow, "USDT 100.5"},
		{"equity_below#4", alert.KindEquityBelow, "1000"},
		{"pnl_below#5", alert.KindPnLBelow, "BTC-PERP-REV -50"},
		{"liquidation_within#6", alert.KindLiquidationWithin, "5"},
		{"stream_silent#7", alert.KindStreamSilent, "2m0s"},
		{"price_cross#8", alert.KindPriceCross, "BTCUSDT 70000"},
	}
	for i, w := range want {
		r := c.Alerts[i]
		var got string
		switch r.Kind {
		case alert.KindFill:
			got = r.Symbol
		case alert.KindOrderRejected:
			got = r.Account
		case alert.KindBalanceBelow:
			got = r.Asset + " " + r.Below.String()
		case alert.KindEquityBelow:
			got = r.Below.String()
		case alert.KindPnLBelow:
			got = r.Symbol + " " + r.Below.String()
		case alert.KindLiquidationWithin:
			got = r.Percent.String()
		case alert.KindStreamSilent:
			got = r.After.String()
		case alert.KindPriceCross:
			got = r.Symbol + " " + r.Above.String()
		}
		if r.ID != w.id || r.Kind != w.kind || got != w.detail {
			t.Errorf("rule %d = %s %s %q, want %s %s %q", i, r.ID, r.Kind, got, w.id, w.kind, w.detail)
		}
	}
	if c.Alerts[6].After != 2*time.Minute {
		t.Errorf("after = %v", c.Alerts[6].After)
	}
}

// TestBadAlertRules: a bad rule is refused with the file, the line and
// what is wrong.
func TestBadAlertRules(t *testing.T) {
	cases := []struct {
		name, file string
		want       []string
	}{
		{"unknown kind", "[[alerts]]\nkind = \"margin_call\"\n", []string{"line 2:", "rule 1", `this string is not a rule kind`, "price_cross"}},
		{"no kind", "[[alerts]]\nsymbol = \"X\"\n", []string{"line 1:", "no kind"}},
		{"missing field", "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\n", []string{"line 1:", "exactly one of above or below"}},
		{"both thresholds", "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 1\nbelow = 2\n", []string{"exactly one of above or below"}},
		{"needs asset", "[[alerts]]\nkind = \"balance_below\"\nbelow = 1\n", []string{"line 1:", "balance_below needs asset"}},
		{"field of another kind", "[[alerts]]\nkind = \"fill\"\n\n[[alerts]]\nkind = \"equity_below\"\nbelow = 5\nsymbol = \"X\"\n", []string{"line 7:", "rule 2", "symbol: not a field of equity_below"}},
		{"bad number", "[[alerts]]\nkind = \"equity_below\"\nbelow = \"lots\"\n", []string{"line 3:", "below: want a number"}},
		{"bad percent", "[[alerts]]\nkind = \"liquidation_within\"\npercent = 0\n", []string{"line 3:", "percent: want a percentage above 0"}},
		{"bad duration", "[[alerts]]\nkind = \"stream_silent\"\nafter = 30\n", []string{"line 3:", "after: want a Go duration"}},
		{"short duration", "[[alerts]]\nkind = \"stream_silent\"\nafter = \"10ms\"\n", []string{"line 3:", "at least 1s"}},
		{"symbol not spelled like one", "[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTC/USDT\"\nabove = 1\n", []string{"line 3:", "symbol: want a symbol"}},
		{"fill symbol not spelled like one", "[[alerts]]\nkind = \"fill\"\nsymbol = \"ETH BTC\"\n", []string{"line 3:", "symbol: want a symbol"}},
		{"asset not spelled like one", "[[alerts]]\nkind = \"balance_below\"\nasset = \"US-DT\"\nbelow = 1\n", []string{"line 3:", "asset: want an asset name"}},
		{"zero duration", "[[alerts]]\nkind = \"stream_silent\"\nafter = \"0s\"\n", []string{"line 3:", "at least 1s (e.g. \"2m\")"}},
		{"empty account", "[[alerts]]\nkind = \"fill\"\naccount = \"\"\n", []string{"line 3:", "account: want a non-empty string"}},
		{"account without tables", "[[alerts]]\nkind = \"fill\"\naccount = \"x\"\n", []string{"line 3:", "rule 1", `account "x" is not an account of this file`, `"default"`}},
		{"inline", "alerts = [{kind = \"nope\"}]\n", []string{"line 1:", "rule 1"}},
		{"no value shown", "[[alerts]]\nkind = \"equity_below\"\nbelow = \"CANARYxyz\"\n", []string{"line 3:", "below: want a number, got a string that is not a decimal number"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := resolve(t, nil, nil, tc.file, 0o600)
			if err == nil {
				t.Fatal("Resolve accepted the rule")
			}
			msg := err.Error()
			if strings.Contains(msg, "CANARY") || strings.Contains(msg, "margin_call") || strings.Contains(msg, "lots") {
				t.Errorf("error %q shows a value of the file", msg)
			}
			if !strings.Contains(msg, "config.toml") {
				t.Errorf("error %q does not name the file", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}
