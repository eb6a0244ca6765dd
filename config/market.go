package config

import (
	"fmt"
	"strconv"
	"strings"
)

// DefaultValueIn is the asset the account is valued in by default.
const DefaultValueIn = "USDT"

// marketFlags are the market-data flags (DESIGN.md 'Market context').
type marketFlags struct {
	on       bool
	valueIn  string
	watch    string
	noMarket bool
}

// AddMarketFlags registers --value-in, --watch and --no-market on the
// flag set of f: the commands that show market data (dashboard, dump,
// serve) call it; others leave Conn's market settings at their defaults.
func (f *Flags) AddMarketFlags() *Flags {
	f.market.on = true
	f.fs.StringVar(&f.market.valueIn, "value-in", "", "value the account in this `ASSET` (default USDT; env BHTOP_VALUE_IN)")
	f.fs.StringVar(&f.market.watch, "watch", "", "also follow these symbols' market: `SYM,SYM` (env BHTOP_WATCH)")
	f.fs.BoolVar(&f.market.noMarket, "no-market", false, "no market data at all: no quote requests, no quote socket (env BHTOP_NO_MARKET)")
	return f
}

// resolveMarket fills c's market settings: flag, then environment, then
// the config file's value_in and watch, then the defaults.
func (f *Flags) resolveMarket(c *Conn, set map[string]bool, getenv func(string) string, file fileSettings, path string) error {
	c.ValueIn = DefaultValueIn
	if !f.market.on {
		return nil
	}
	v := setting{}
	switch {
	case set["value-in"]:
		v = setting{f.market.valueIn, "--value-in"}
	case getenv("BHTOP_VALUE_IN") != "":
		v = setting{getenv("BHTOP_VALUE_IN"), "BHTOP_VALUE_IN"}
	case file.ValueIn != "":
		v = setting{file.ValueIn, path + ": value_in"}
	}
	if v.val != "" {
		a, err := asset(v.val)
		if err != nil {
			return fmt.Errorf("%s: %w", v.src, err)
		}
		c.ValueIn = a
	}

	var err error
	switch {
	case set["watch"]:
		c.Watch, err = symbols(strings.Split(f.market.watch, ","))
		err = wrapSrc(err, "--watch")
	case getenv("BHTOP_WATCH") != "":
		c.Watch, err = symbols(strings.Split(getenv("BHTOP_WATCH"), ","))
		err = wrapSrc(err, "BHTOP_WATCH")
	case len(file.Watch) > 0:
		c.Watch, err = symbols(file.Watch)
		err = wrapSrc(err, path+": watch")
	}
	if err != nil {
		return err
	}

	switch {
	case set["no-market"]:
		c.NoMarket = f.market.noMarket
	case getenv("BHTOP_NO_MARKET") != "":
		if c.NoMarket, err = strconv.ParseBool(getenv("BHTOP_NO_MARKET")); err != nil {
			return fmt.Errorf("BHTOP_NO_MARKET: %q is not true or false", getenv("BHTOP_NO_MARKET"))
		}
	}
	return nil
}

func wrapSrc(err error, src string) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", src, err)
}

// asset checks an asset name: 1 to 20 letters or digits, upper-cased.
func asset(s string) (string, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "" || len(s) > 20 || strings.IndexFunc(s, func(r rune) bool {
		return (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	}) >= 0 {
		return "", fmt.Errorf("%q is not an asset name (letters and digits, e.g. USDT)", s)
	}
	return s, nil
}

// symbols checks a watch list: symbols of letters, digits, '-' and '_',
// upper-cased, empty entries dropped, repeats removed (first kept).
func symbols(list []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "" || seen[s] {
			continue
		}
		if len(s) > 40 || strings.IndexFunc(s, func(r rune) bool {
			return (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '-' && r != '_'
		}) >= 0 {
			return nil, fmt.Errorf("%q is not a symbol (e.g. BTCUSDT, BTC-PERP-REV)", s)
		}
		seen[s] = true
		out = append(out, s)
	}
	return out, nil
}
