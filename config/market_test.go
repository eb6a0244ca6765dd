package config

import (
	"flag"
	"fmt"
	"strings"
	"testing"
)

func TestMarketSettings(t *testing.T) {
	file := "value_in = \"btc\"\nwatch = [\"ethbtc\", \"LTCBTC\"]\n"
	tests := []struct {
		name     string
		args     []string
		env      env
		file     string
		valueIn  string
		watch    string
		noMarket bool
		err      string
	}{
		{name: "defaults", valueIn: "USDT", watch: "[]"},
		{name: "file", file: file, valueIn: "BTC", watch: "[ETHBTC LTCBTC]"},
		{name: "env over file", file: file, env: env{"BHTOP_VALUE_IN": "eth", "BHTOP_WATCH": "XRPUSDT, ,xrpusdt"}, valueIn: "ETH", watch: "[XRPUSDT]"},
		{name: "flag over env", file: file, env: env{"BHTOP_VALUE_IN": "eth", "BHTOP_WATCH": "XRPUSDT"},
			args: []string{"--value-in", "usdt", "--watch", "BTC-PERP-REV,BTCUSDT", "--no-market"}, valueIn: "USDT", watch: "[BTC-PERP-REV BTCUSDT]", noMarket: true},
		{name: "env no market", env: env{"BHTOP_NO_MARKET": "1"}, valueIn: "USDT", watch: "[]", noMarket: true},
		{name: "bad asset", args: []string{"--value-in", "US DT"}, err: "--value-in"},
		{name: "bad symbol", env: env{"BHTOP_WATCH": "BTC/USDT"}, err: "BHTOP_WATCH"},
		{name: "bad file watch", file: "watch = [\"a b\"]\n", err: "watch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := resolve(t, tt.args, tt.env, tt.file, 0o600)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Resolve = %v, want an error naming %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.ValueIn != tt.valueIn || fmt.Sprint(c.Watch) != tt.watch || c.NoMarket != tt.noMarket {
				t.Errorf("value-in %s, watch %v, no-market %v; want %s, %s, %v", c.ValueIn, c.Watch, c.NoMarket, tt.valueIn, tt.watch, tt.noMarket)
			}
		})
	}
}

func TestMarketFlagsOnlyWhereAdded(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(new(strings.Builder))
	AddFlags(fs)
	if err := fs.Parse([]string{"--value-in", "BTC"}); err == nil {
		t.Error("--value-in accepted without AddMarketFlags")
	}
}
