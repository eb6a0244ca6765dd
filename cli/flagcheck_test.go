package cli

import (
	"context"
	"flag"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestBadNumbersRefused: every numeric flag is range-checked, and every
// bad flag (unknown, not a number, out of range) is refused with exit
// code 2 and one line naming it: no usage dump, no stack trace, and
// nothing started.
func TestBadNumbersRefused(t *testing.T) {
	tests := []struct {
		args []string
		want string // in the one line
	}{
		{[]string{"replay", "x.jsonl", "--speed", "NaN"}, "--speed"},
		{[]string{"replay", "x.jsonl", "--speed", "1e-300"}, "--speed"},
		{[]string{"replay", "x.jsonl", "--speed", "+Inf"}, "--speed"},
		{[]string{"replay", "x.jsonl", "--speed", "-1"}, "--speed"},
		{[]string{"replay", "x.jsonl", "--speed", "fast"}, "-speed"},
		{[]string{"replay", "x.jsonl", "--retention", "-5"}, "--retention"},
		{[]string{"replay", "x.jsonl", "--nope"}, "-nope"},
		{[]string{"gen", "--open", "-1"}, "--open"},
		{[]string{"gen", "--events", "-1"}, "--events"},
		{[]string{"gen", "--events", "many"}, "-events"},
		{[]string{"serve", "--fps", "0"}, "--fps"},
		{[]string{"serve", "--fps", "1000"}, "--fps"},
		{[]string{"serve", "--max-sessions", "-1"}, "--max-sessions"},
		{[]string{"serve", "--max-sessions", "0"}, "--max-sessions"},
		{[]string{"serve", "--idle-timeout", "-1s"}, "--idle-timeout"},
		{[]string{"serve", "--shutdown-wait", "-1s"}, "--shutdown-wait"},
		{[]string{"serve", "--sim-activity", "NaN"}, "--sim-activity"},
		{[]string{"serve", "--sim-activity", "-1"}, "--sim-activity"},
		{[]string{"sim", "--order-error-rate", "2"}, "--order-error-rate"},
		{[]string{"sim", "--order-error-rate", "NaN"}, "--order-error-rate"},
		{[]string{"sim", "--duplicate-rate", "-0.5"}, "--duplicate-rate"},
		{[]string{"sim", "--activity", "-1"}, "--activity"},
		{[]string{"sim", "--activity", "NaN"}, "--activity"},
		{[]string{"sim", "--ban-scale", "0"}, "--ban-scale"},
		{[]string{"sim", "--accounts", "0"}, "--accounts"},
		{[]string{"sim", "--accounts", "-2"}, "--accounts"},
		{[]string{"sim", "--accounts", "1001"}, "--accounts 1001: want a whole number from 1 to 1000"},
		{[]string{"sim", "--accounts", "1000000"}, "--accounts"},
		{[]string{"sim", "--ban-scale", "NaN"}, "--ban-scale"},
		{[]string{"sim", "--listen-key-ttl", "0s"}, "--listen-key-ttl"},
		{[]string{"sim", "--conn-max-age", "-1s"}, "--conn-max-age"},
		{[]string{"sim", "--ping-interval", "0s"}, "--ping-interval"},
		{[]string{"sim", "--market-interval", "-1s"}, "--market-interval"},
		{[]string{"sim", "--reorder-window", "-1s"}, "--reorder-window"},
		{[]string{"sim", "--drop-every", "-1s"}, "--drop-every"},
		{[]string{"sim", "--seed", "x"}, "-seed"},
		{[]string{"sim", "--market-interval", "1ns"}, "--market-interval 1ns: want 0 (stopped) or a duration from 10ms"},
		{[]string{"sim", "--ping-interval", "1ns"}, "--ping-interval 1ns: want a duration from 10ms"},
		{[]string{"sim", "--quote-idle", "-1s"}, "--quote-idle"},
		{[]string{"sim", "--quote-idle", "0s"}, "--quote-idle"},
		{[]string{"sim", "--market-activity", "Inf"}, "--market-activity +Inf: want a number from 0 to 100000"},
		{[]string{"sim", "--market-activity", "NaN"}, "--market-activity"},
		{[]string{"sim", "--market-activity", "-1"}, "--market-activity"},
		{[]string{"sim", "--market-activity", "1e6"}, "--market-activity"},
		{[]string{"dump", "--for", "-1s"}, "--for"},
		{[]string{"dump", "--recv-window", "-1"}, "recv-window"},
		{[]string{"dump", "--keepalive", "0s"}, "--keepalive"},
		{[]string{"--fps", "0"}, "--fps"},
		{[]string{"--fps", "many"}, "-fps"},
		{[]string{"order", "new", "--symbol", "ETHBTC", "--side", "BUY", "--quantity", "1", "--price", "1", "--timeout", "0s"}, "--timeout"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, errOut := runRefused(t, func(string) string { return "" }, tt.args...)
			line := strings.TrimRight(errOut, "\n")
			if code != ExitUsage {
				t.Errorf("exit %d, want %d (stderr %q)", code, ExitUsage, errOut)
			}
			if strings.Contains(line, "\n") || line == "" {
				t.Errorf("stderr = %q, want exactly one line", errOut)
			}
			if !strings.Contains(line, tt.want) || strings.Contains(line, "goroutine") || strings.Contains(line, "Usage") {
				t.Errorf("stderr = %q, want one clear line naming %s", line, tt.want)
			}
		})
	}
}

// TestHelpStillListsFlags: -h prints the flags' list and exits 0.
func TestHelpStillListsFlags(t *testing.T) {
	var out, errOut strings.Builder
	code := runSimContext(context.Background(), []string{"-h"}, IO{Out: &out, Err: &errOut})
	if code != ExitOK || !strings.Contains(errOut.String(), "-order-error-rate") {
		t.Errorf("sim -h = exit %d, stderr %q; want 0 and the flags", code, errOut.String())
	}
}

// TestHostileInputsRefused: bad symbols, URLs, addresses and files are
// refused before anything starts, in one line with exit code 2.
func TestHostileInputsRefused(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir,
		"BHTOP_API_KEY": "k", "BHTOP_SECRET_KEY": "s", "BHTOP_BASE_URL": "http://127.0.0.1:1"}
	getenv := func(k string) string { return env[k] }
	order := []string{"order", "new", "--side", "BUY", "--quantity", "1", "--price", "1"}
	tests := []struct {
		args []string
		want string
	}{
		{append(order, "--symbol", "BTC/USDT"), "--symbol"},
		{append(order, "--symbol", "BTC USDT"), "--symbol"},
		{append(order, "--symbol", "\x1b[31mBTC"), "--symbol"},
		{[]string{"order", "cancel", "--order-id", "1", "--symbol", "../x"}, "--symbol"},
		{[]string{"dump", "--order", "symbol=BTC%20USDT&side=BUY&quantity=1&price=1"}, "symbol"},
		{[]string{"dump", "--order", "symbol=BTCUSDT&side=UP&quantity=1&price=1"}, "side"},
		{[]string{"dump", "--order", "symbol=BTCUSDT&side=BUY&quantity=1,5&price=1"}, "quantity"},
		{[]string{"dump", "--base-url", "http://"}, "--base-url"},
		{[]string{"dump", "--base-url", "localhost:8080"}, "--base-url"},
		{[]string{"dump", "--ws-url", "http://x"}, "--ws-url"},
		{[]string{"dump", "--record", "/nonexistent/x.jsonl"}, "--record"},
		{[]string{"dump", "--record", dir}, "is a directory"},
		{[]string{"dump", "--log", "/nonexistent/x.log"}, "--log"},
		{[]string{"--metrics", "/nonexistent/m.json"}, "--metrics"},
		{[]string{"sim", "--addr", "nonsense"}, "--addr"},
		{[]string{"sim", "--addr", "127.0.0.1:99999"}, "--addr"},
		{[]string{"sim", "--log-requests", "/nonexistent/r.jsonl"}, "--log-requests"},
		{[]string{"serve", "--listen", "nonsense"}, "--listen"},
		{[]string{"serve", "--authorized-keys", "/nonexistent"}, "--authorized-keys"},
		{[]string{"serve", "--authorized-keys", dir}, "is a directory"},
		{[]string{"replay", "/nonexistent.jsonl", "--dump"}, "open journal"},
		{[]string{"dump", "--config", dir}, "is a directory"},
		{[]string{"dump", "--secret-file", dir}, "is a directory"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, errOut := runRefused(t, getenv, tt.args...)
			line := strings.TrimRight(errOut, "\n")
			if code != ExitUsage || strings.Contains(line, "\n") || !strings.Contains(line, tt.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and one line naming %s", code, errOut, ExitUsage, tt.want)
			}
			if strings.Contains(line, "\x1b") {
				t.Errorf("stderr %q holds a raw terminal escape", line)
			}
		})
	}
}

// runRefused runs a command line that must be refused before anything
// starts, failing the test if it is still running after 10 s.
func runRefused(t *testing.T, getenv func(string) string, args ...string) (code int, errOut string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		code, _, errOut = runCLI(getenv, args...)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the command started instead of refusing its input")
	}
	return code, errOut
}

// TestParseInterspersed: flags may come before, after or between the
// positional arguments; after -- everything is positional.
func TestParseInterspersed(t *testing.T) {
	tests := []struct {
		args     []string
		wantPos  []string
		wantDump bool
	}{
		{[]string{"FILE", "--dump"}, []string{"FILE"}, true},
		{[]string{"--dump", "FILE"}, []string{"FILE"}, true},
		{[]string{"FILE"}, []string{"FILE"}, false},
		{[]string{"a", "--dump", "b"}, []string{"a", "b"}, true},
		{[]string{"--", "--dump"}, []string{"--dump"}, false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		dump := fs.Bool("dump", false, "")
		pos, err := parseInterspersed(fs, tt.args)
		if err != nil {
			t.Fatalf("parseInterspersed(%q): %v", tt.args, err)
		}
		if !reflect.DeepEqual(pos, tt.wantPos) || *dump != tt.wantDump {
			t.Errorf("parseInterspersed(%q) = %q dump=%v, want %q dump=%v", tt.args, pos, *dump, tt.wantPos, tt.wantDump)
		}
	}
}

// TestIntegerFlagsAreDecimal: whole-number flags took Go's literal
// syntax, so --recv-window 0x10 was 16 ms and --recv-window 05000 was
// octal, 2560 ms. They are decimal: 0x10 and 0b1 are refused in one line
// naming the flag (exit 2), and a leading zero means nothing.
func TestIntegerFlagsAreDecimal(t *testing.T) {
	env := func(string) string { return "" }
	for _, args := range [][]string{
		{"dump", "--recv-window", "0x10"}, {"order", "cancel", "--order-id", "1", "--recv-window", "0b1"},
		{"gen", "--events", "0x10"}, {"gen", "--open", "0o7"}, {"gen", "--seed", "0x1"},
		{"sim", "--accounts", "0x2"}, {"sim", "--seed", "0x1"}, {"sim", "--order-error-status", "0x1f8"},
		{"replay", "x.jsonl", "--dump", "--retention", "0x10"}, {"serve", "--fps", "0xa"}, {"serve", "--max-sessions", "0x1"},
		{"--fps", "0x1e"},
	} {
		code, errOut := runRefused(t, env, args...)
		flagName := ""
		for _, a := range args {
			if strings.HasPrefix(a, "--") {
				flagName = strings.TrimLeft(a, "-")
			}
		}
		if code != ExitUsage || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, flagName) {
			t.Errorf("bhtop %q: exit %d, stderr %q; want %d and one line naming %s", args, code, errOut, ExitUsage, flagName)
		}
	}
	_, ten, _ := runCLI(env, "gen", "--events", "10", "--seed", "7")
	_, padded, _ := runCLI(env, "gen", "--events", "010", "--seed", "07")
	if ten == "" || padded != ten {
		t.Errorf("gen --events 010 --seed 07 differs from --events 10 --seed 7 (%d and %d bytes)", len(padded), len(ten))
	}
}

// TestURLWithoutScheme: a base or WebSocket URL typed without its scheme
// said "first path segment in URL cannot contain colon"; it says what is
// missing and what to type instead.
func TestURLWithoutScheme(t *testing.T) {
	env := func(string) string { return "" }
	for _, tt := range []struct{ flag, val, want string }{
		{"--base-url", "127.0.0.1:8080", `"127.0.0.1:8080" has no scheme: want http://127.0.0.1:8080 or https://127.0.0.1:8080`},
		{"--base-url", "api.example.com", `want http://api.example.com or https://api.example.com`},
		{"--ws-url", "localhost:9", `want ws://localhost:9 or wss://localhost:9`},
	} {
		code, errOut := runRefused(t, env, "dump", "--for", "1s", tt.flag, tt.val)
		if code != ExitUsage || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("dump %s %s: exit %d, stderr %q; want %d and %q", tt.flag, tt.val, code, errOut, ExitUsage, tt.want)
		}
	}
}

// TestConnectionFlagsOfEveryCommand: DESIGN's contract gives the
// connection settings to every command that connects, so each one's -h
// lists them (one it has no use for, such as --theme for order, is
// accepted and changes nothing).
func TestConnectionFlagsOfEveryCommand(t *testing.T) {
	env := deskEnv(t, "")
	conn := []string{"base-url", "ws-url", "secret-file", "config", "recv-window", "keepalive", "rotate", "read-only", "record", "theme"}
	for _, cmd := range []string{"", "dump", "serve", "order"} {
		args := []string{cmd, "-h"}
		if cmd == "" {
			args = []string{"-h"}
		}
		_, out, errOut := runCLI(env, args...)
		for _, f := range conn {
			if !strings.Contains(out+errOut, "-"+f+" ") && !strings.Contains(out+errOut, "-"+f+"\n") {
				t.Errorf("bhtop %s -h does not list -%s", cmd, f)
			}
		}
	}
}

// TestOrderVerbFlagsRefused: an order flag its verb has no use for is
// refused in one line naming it, exit 2, nothing sent (cancel-all
// --price 1 was accepted and ignored).
func TestOrderVerbFlagsRefused(t *testing.T) {
	env := deskEnv(t, "")
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"order", "cancel-all", "--price", "1"}, "--price"},
		{[]string{"order", "cancel-all", "--symbol", "BTCUSDT", "--side=BUY"}, "--side"},
		{[]string{"order", "cancel-all", "--order-id", "1"}, "--order-id"},
		{[]string{"order", "cancel", "--order-id", "1", "--quantity", "2"}, "--quantity"},
		{[]string{"order", "cancel", "--order-id", "1", "--tif", "GTC"}, "--tif"},
		{[]string{"order", "new", "--symbol", "BTCUSDT", "--side", "BUY", "--quantity", "1", "--price", "1", "--order-id", "5"}, "--order-id"},
		{[]string{"order", "close", "--symbol", "ETH-PERP", "--side", "LONG", "--type", "MARKET"}, "--type"},
		{[]string{"order", "close", "--symbol", "ETH-PERP", "--side", "LONG", "--order-id", "5"}, "--order-id"},
	} {
		code, errOut := runRefused(t, env, tt.args...)
		line := strings.TrimRight(errOut, "\n")
		if code != ExitUsage || strings.Contains(line, "\n") || !strings.Contains(line, tt.flag+" is not for "+tt.args[1]) {
			t.Errorf("bhtop %q: exit %d, stderr %q; want exit %d and one line refusing %s", tt.args, code, errOut, ExitUsage, tt.flag)
		}
	}
}

// TestListenAddrExampleFitsTheFlag: a malformed address is refused with
// an example of that flag's own address, not serve's SSH port for
// --metrics-addr.
func TestListenAddrExampleFitsTheFlag(t *testing.T) {
	for name, want := range map[string]string{"--metrics-addr": "127.0.0.1:9464", "--listen": "127.0.0.1:2222", "--addr": "127.0.0.1:0"} {
		if err := listenAddr(name, "nope"); err == nil || !strings.Contains(err.Error(), "e.g. "+want) {
			t.Errorf("listenAddr(%s, nope) = %v, want the example %s", name, err, want)
		}
	}
}
