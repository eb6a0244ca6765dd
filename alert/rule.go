// Package alert evaluates alert rules (DESIGN.md 'Alerts and metrics')
// against an account's state, market and stream: pure, edge-triggered, with
// time as an input.
package alert

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Kind is a rule's kind, the `kind` of an [[alerts]] table.
type Kind string

// The rule kinds of the contract.
const (
	KindFill              Kind = "fill"
	KindOrderRejected     Kind = "order_rejected"
	KindBalanceBelow      Kind = "balance_below"
	KindEquityBelow       Kind = "equity_below"
	KindPnLBelow          Kind = "pnl_below"
	KindLiquidationWithin Kind = "liquidation_within"
	KindStreamSilent      Kind = "stream_silent"
	KindPriceCross        Kind = "price_cross"
)

// fieldsOf lists each kind's fields: required ones first, then optional
// ones after "?". Every kind may also name an account.
var fieldsOf = map[Kind]struct{ required, optional []string }{
	KindFill:              {nil, []string{"symbol"}},
	KindOrderRejected:     {nil, nil},
	KindBalanceBelow:      {[]string{"asset", "below"}, nil},
	KindEquityBelow:       {[]string{"below"}, nil},
	KindPnLBelow:          {[]string{"symbol", "below"}, nil},
	KindLiquidationWithin: {[]string{"percent"}, nil},
	KindStreamSilent:      {[]string{"after"}, nil},
	KindPriceCross:        {[]string{"symbol"}, []string{"above", "below"}},
}

// Kinds returns the rule kinds, sorted.
func Kinds() []string {
	out := make([]string, 0, len(fieldsOf))
	for k := range maps.Keys(fieldsOf) {
		out = append(out, string(k))
	}
	slices.Sort(out)
	return out
}

// Rule is one validated alert rule. The zero value is not a rule; make
// rules with ParseRule.
type Rule struct {
	// ID names the rule in firings and the dump: its kind and its place
	// among the [[alerts]] tables, from 1 ("price_cross#2").
	ID      string
	Kind    Kind
	Account string // "" is every account
	Symbol  string // fill (optional), pnl_below, price_cross
	Asset   string // balance_below
	// Below and Above are the thresholds; nil when the rule has none.
	Below, Above *decimal.Decimal
	Percent      decimal.Decimal // liquidation_within
	After        time.Duration   // stream_silent
	// Host, for a market rule (a price_cross naming no account, which the
	// config gives to the first account of each service host), names
	// every account of that host: a price is no one account's, so its
	// firings are shown to whoever sees any of them. Nil otherwise.
	Host []string
}

// FieldError is a rule refused for one of its fields ("" when the fault
// is the rule as a whole, e.g. a missing field).
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return e.Msg
	}
	return e.Field + ": " + e.Msg
}

// ParseRule validates the fields of the n-th [[alerts]] table (from 1) as
// the TOML decoder gave them. A fault comes back as a *FieldError.
func ParseRule(n int, fields map[string]any) (Rule, error) {
	kindV, ok := fields["kind"]
	if !ok {
		return Rule{}, &FieldError{"", "no kind (want one of " + strings.Join(Kinds(), ", ") + ")"}
	}
	kindS, ok := kindV.(string)
	spec, known := fieldsOf[Kind(kindS)]
	if !ok || !known {
		what := "this string"
		if !ok {
			what = describe(kindV)
		}
		return Rule{}, &FieldError{"kind", fmt.Sprintf("%s is not a rule kind (want one of %s)", what, strings.Join(Kinds(), ", "))}
	}
	r := Rule{Kind: Kind(kindS), ID: fmt.Sprintf("%s#%d", kindS, n)}
	allowed := append(append([]string{"kind", "account"}, spec.required...), spec.optional...)
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !slices.Contains(allowed, k) {
			return Rule{}, &FieldError{k, fmt.Sprintf("not a field of %s (its fields: %s)", kindS, strings.Join(allowed[1:], ", "))}
		}
		if err := r.set(k, fields[k]); err != nil {
			return Rule{}, &FieldError{k, err.Error()}
		}
	}
	for _, k := range spec.required {
		if _, ok := fields[k]; !ok {
			return Rule{}, &FieldError{"", fmt.Sprintf("%s needs %s", kindS, k)}
		}
	}
	if r.Kind == KindPriceCross && (r.Above == nil) == (r.Below == nil) {
		return Rule{}, &FieldError{"", "price_cross needs exactly one of above or below"}
	}
	return r, nil
}

// set stores one field's value.
func (r *Rule) set(k string, v any) error {
	switch k {
	case "kind":
		return nil
	case "account", "symbol", "asset":
		s, ok := v.(string)
		s = strings.TrimSpace(s)
		if !ok || s == "" || strings.ContainsFunc(s, isControl) {
			return fmt.Errorf("want a non-empty string, got %s", describe(v))
		}
		switch k {
		case "account":
			r.Account = s
		case "symbol":
			r.Symbol = strings.ToUpper(s)
			if !spelled(r.Symbol, 40, "-_") {
				return fmt.Errorf("want a symbol (letters, digits, '-' and '_', e.g. BTCUSDT, BTC-PERP-REV)")
			}
		default:
			r.Asset = strings.ToUpper(s)
			if !spelled(r.Asset, 20, "") {
				return fmt.Errorf("want an asset name (letters and digits, e.g. USDT)")
			}
		}
	case "below", "above":
		d, err := number(v)
		if err != nil {
			return err
		}
		if k == "below" {
			r.Below = &d
		} else {
			r.Above = &d
		}
	case "percent":
		d, err := number(v)
		if err != nil {
			return err
		}
		if !d.IsPositive() || d.GreaterThan(decimal.NewFromInt(100)) {
			return fmt.Errorf("want a percentage above 0 and at most 100")
		}
		r.Percent = d
	case "after":
		s, ok := v.(string)
		d, err := time.ParseDuration(s)
		if !ok {
			return fmt.Errorf("want a Go duration of at least 1s in quotes (e.g. \"2m\"), got %s", describe(v))
		}
		if err != nil || d < time.Second {
			return fmt.Errorf("want a Go duration of at least 1s (e.g. \"2m\")")
		}
		r.After = d
	}
	return nil
}

// number reads a threshold: a TOML integer, float or decimal string.
func number(v any) (decimal.Decimal, error) {
	switch x := v.(type) {
	case int64:
		return decimal.NewFromInt(x), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal.Decimal{}, fmt.Errorf("want a finite number")
		}
		// The shortest text that reads back as x: what was written.
		return decimal.RequireFromString(strconv.FormatFloat(x, 'f', -1, 64)), nil
	case string:
		d, err := decimal.NewFromString(strings.TrimSpace(x))
		if err != nil {
			return decimal.Decimal{}, fmt.Errorf("want a number, got a string that is not a decimal number")
		}
		return d, nil
	}
	return decimal.Decimal{}, fmt.Errorf("want a number, got %s", describe(v))
}

// describe names a value's TOML type, never the value: a config file may
// hold a secret, and an error must not show it wherever it is typed.
func describe(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case nil:
		return "nothing"
	}
	return "a table or array"
}

// spelled says s is 1 to n upper-case letters, digits or runes of extra:
// a rule on a symbol or asset spelled otherwise could never fire.
func spelled(s string, n int, extra string) bool {
	return s != "" && len(s) <= n && !strings.ContainsFunc(s, func(r rune) bool {
		return (r < 'A' || r > 'Z') && (r < '0' || r > '9') && !strings.ContainsRune(extra, r)
	})
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }
