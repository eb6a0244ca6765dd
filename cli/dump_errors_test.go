package cli

import (
	"strings"
	"testing"

	"bhtop/sim"
)

// TestDumpFailuresSayWhy: a dump that cannot give the account's state
// exits 1 with the reason a person can act on, and prints no state JSON:
// an unreachable service, an unknown API key, and a wrong secret (the
// socket opens on the key alone, but no signed snapshot is ever taken, so
// the stream never counts as live).
func TestDumpFailuresSayWhy(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	tests := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"unreachable", map[string]string{"BHTOP_BASE_URL": "http://127.0.0.1:1"}, []string{"never went live", "connection refused"}},
		{"unknown key", map[string]string{"BHTOP_API_KEY": "nobody"}, []string{"never went live", "-2015", "BHTOP_API_KEY"}},
		{"wrong secret", map[string]string{"BHTOP_SECRET_KEY": "wrong"}, []string{"never went live", "-1022", "BHTOP_SECRET_KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits out its --for
			code, out, errOut := runCLI(orderEnv(t, s, tt.env), "dump", "--for", "1500ms")
			if code != ExitFail || out != "" {
				t.Errorf("dump = exit %d, stdout %q; want exit %d and no state", code, out, ExitFail)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("dump stderr = %q, want it to say %q", errOut, w)
				}
			}
		})
	}
}

// TestDumpWrongKeyOneLine: a dump that fails on a wrong key says so in
// one line on stderr, naming the account when the config file names
// several (--account picks one), and neither the secret nor a retry the
// exiting process will never make ("retry in 30s") is in it.
func TestDumpWrongKeyOneLine(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	tests := []struct {
		name   string
		env    func(string) string
		args   []string
		prefix string
		want   string
	}{
		{"no tables, wrong secret", orderEnv(t, s, map[string]string{"BHTOP_SECRET_KEY": "wrongSECRETvalue"}), nil,
			"bhtop dump: the user stream never went live: ", "-1022"},
		{"no tables, unknown key", orderEnv(t, s, map[string]string{"BHTOP_API_KEY": "nobodyKEYvalue"}), nil,
			"bhtop dump: the user stream never went live: ", "-2015"},
		{"--account bot", deskEnv(t, twoAccountsConfig(t)), []string{"--account", "bot"},
			"bhtop dump: account bot: the user stream never went live: ", "-1022"},
		{"both accounts", deskEnv(t, twoAccountsConfig(t)), nil,
			"bhtop dump: account bot: the user stream never went live", "-1022"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits out its --for
			code, out, errOut := runCLI(tt.env, append([]string{"dump", "--for", "1500ms"}, tt.args...)...)
			if code != ExitFail {
				t.Errorf("exit %d, want %d", code, ExitFail)
			}
			if strings.Count(errOut, "\n") != 1 || !strings.HasPrefix(errOut, tt.prefix) || !strings.Contains(errOut, tt.want) {
				t.Errorf("stderr = %q; want one line starting %q saying %q", errOut, tt.prefix, tt.want)
			}
			if strings.Contains(errOut, "retry") {
				t.Errorf("stderr = %q speaks of a retry the exiting dump never makes", errOut)
			}
			for _, secret := range []string{"wrongSECRETvalue", "nobodyKEYvalue", "\"wrong\"", orderSecret} {
				if strings.Contains(out+errOut, secret) {
					t.Errorf("%q was printed: %q", secret, errOut)
				}
			}
		})
	}
}

// TestDumpStoppedBeforeLive: a dump stopped (--for, or a signal) before
// the stream went live said only "never went live: connecting", as if
// something were wrong with the account; it says it was stopped first.
func TestDumpStoppedBeforeLive(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	code, out, errOut := runCLI(orderEnv(t, s, nil), "dump", "--for", "1ms")
	if code != ExitFail || out != "" || !strings.Contains(errOut, "stopped before the user stream went live") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("dump --for 1ms: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestWrongSecretHintNamesConfigFile: an account whose secret comes from
// the config file was told to check BHTOP_SECRET_KEY / --secret-file
// only; the hint names the config file too.
func TestWrongSecretHintNamesConfigFile(t *testing.T) {
	code, _, errOut := runCLI(deskEnv(t, twoAccountsConfig(t)), "dump", "--for", "1500ms", "--account", "bot")
	if code != ExitFail || !strings.Contains(errOut, "-1022") || !strings.Contains(errOut, "config file") {
		t.Errorf("exit %d, stderr %q; want 1 and a hint naming the config file", code, errOut)
	}
}

// TestKeyHintNamesWhereTheKeyCameFrom: a rejected API key was always
// blamed on BHTOP_API_KEY, also when the key came from the config file
// (top level or an account's table): the hint names where it came from,
// never the key itself.
func TestKeyHintNamesWhereTheKeyCameFrom(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	secret := "secret_key = \"" + orderSecret + "\"\nbase_url = \"" + s.URL() + "\"\n"
	tests := []struct {
		name, config string
		env          map[string]string
		args         []string
		want, not    string
	}{
		{"env", "", map[string]string{"BHTOP_API_KEY": "nobodyKEYvalue"}, nil, "BHTOP_API_KEY", "config.toml"},
		{"top level", "api_key = \"nobodyKEYvalue\"\n" + secret, nil, nil, "config.toml: api_key", "BHTOP_API_KEY"},
		{"account table", secret + "\n[accounts.bot]\napi_key = \"nobodyKEYvalue\"\n", nil, []string{"--account", "bot"},
			"config.toml: accounts.bot.api_key", "BHTOP_API_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each waits out its --for
			env := orderEnv(t, s, tt.env)
			if tt.config != "" {
				env = deskEnv(t, tt.config)
			}
			code, _, errOut := runCLI(env, append([]string{"dump", "--for", "1500ms"}, tt.args...)...)
			if code != ExitFail || !strings.Contains(errOut, "-2015") || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, tt.not) {
				t.Errorf("exit %d, stderr %q; want 1, -2015 and %q, not %q", code, errOut, tt.want, tt.not)
			}
			if strings.Contains(errOut, "nobodyKEYvalue") {
				t.Errorf("the key was printed: %q", errOut)
			}
		})
	}
}
