package config

import (
	"testing"

	"github.com/BurntSushi/toml"
)

// FuzzAlertRules: any TOML config text either yields valid rules or an
// error naming the rule; scanning its lines never panics.
func FuzzAlertRules(f *testing.F) {
	for _, s := range []string{
		"[[alerts]]\nkind = \"price_cross\"\nsymbol = \"BTCUSDT\"\nabove = 70000\n",
		"[[alerts]]\nkind = \"stream_silent\"\nafter = \"1m\"\naccount = \"bot\"\n",
		"alerts = [{kind = \"fill\"}, {kind = \"nope\"}]\n",
		"[[alerts]]\nkind = \"liquidation_within\"\npercent = 1e400\n",
		"[x]\na=1\n[[alerts]]\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var fs fileSettings
		if _, err := toml.Decode(text, &fs); err != nil {
			return
		}
		rules, err := parseAlerts("config.toml", text, fs.Alerts)
		if err == nil && len(rules) != len(fs.Alerts) {
			t.Fatalf("%d rules from %d tables", len(rules), len(fs.Alerts))
		}
		for _, r := range rules {
			if r.ID == "" || r.Kind == "" {
				t.Fatalf("rule without id or kind: %+v", r)
			}
		}
	})
}
