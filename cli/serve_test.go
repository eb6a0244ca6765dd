package cli

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"bhtop/internal/testkit"
	"bhtop/sim"
)

func TestServeFlagDefaults(t *testing.T) {
	tests := []struct {
		name           string
		env            map[string]string
		wantKeys, want string
		wantErr        string
	}{
		{"home only", map[string]string{"HOME": "/home/desk"},
			"/home/desk/.ssh/authorized_keys", "/home/desk/.config/bhtop/ssh_host_ed25519", ""},
		{"xdg config", map[string]string{"HOME": "/home/desk", "XDG_CONFIG_HOME": "/cfg"},
			"/home/desk/.ssh/authorized_keys", "/cfg/bhtop/ssh_host_ed25519", ""},
		{"no home", nil, "", "", "--authorized-keys is needed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sf serveFlags
			err := sf.defaults(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("defaults(%v) error = %v, want %q", tt.env, err, tt.wantErr)
				}
				return
			}
			if err != nil || sf.authorizedKeys != tt.wantKeys || sf.hostKey != tt.want {
				t.Errorf("defaults(%v) = %q, %q, %v; want %q, %q", tt.env, sf.authorizedKeys, sf.hostKey, err, tt.wantKeys, tt.want)
			}
		})
	}
}

func TestServeRefusesBadSetup(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"positional argument", []string{"extra"}, ExitUsage, "unexpected argument"},
		{"unknown flag", []string{"--nope"}, ExitUsage, "flag provided but not defined"},
		{"unknown theme", []string{"--theme", "purple", "--authorized-keys", dir + "/none", "--host-key", dir + "/hk"}, ExitUsage, "--theme \"purple\": want one of"},
		{"missing authorized keys", []string{"--listen", "127.0.0.1:0", "--authorized-keys", dir + "/none", "--host-key", dir + "/hk"},
			ExitUsage, "--authorized-keys " + dir + "/none: no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}
			code := Run(append([]string{"serve"}, tt.args...), IO{Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }})
			if code != tt.wantCode || !strings.Contains(errb.String(), tt.wantErr) {
				t.Errorf("bhtop serve %q = %d, stderr %q; want %d and %q", tt.args, code, errb.String(), tt.wantCode, tt.wantErr)
			}
		})
	}
}

// TestServeConnectionSettings: a base URL without credentials is refused
// (it used to serve the built-in simulator instead, silently), and --log
// sends the log to its file.
func TestServeConnectionSettings(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}
	getenv := func(k string) string { return env[k] }
	badKeys := []string{"--listen", "127.0.0.1:0", "--authorized-keys", dir + "/none", "--host-key", dir + "/hk"}

	code, _, errOut := runCLI(getenv, append([]string{"serve", "--base-url", "http://127.0.0.1:1"}, badKeys...)...)
	if code != ExitUsage || !strings.Contains(errOut, "needs credentials for http://127.0.0.1:1") {
		t.Errorf("serve --base-url without credentials = %d, %q; want %d and a refusal", code, errOut, ExitUsage)
	}

	// A failure after the upstream has started (the host key file is not
	// a key) is logged to the --log file only.
	keys := dir + "/authorized_keys"
	testkit.WriteAuthorizedKeys(t, keys)
	badHostKey := dir + "/bad_host_key"
	if err := os.WriteFile(badHostKey, []byte("not a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	logFile := dir + "/serve.log"
	code, _, errOut = runCLI(getenv, "serve", "--log", logFile, "--listen", "127.0.0.1:0",
		"--authorized-keys", keys, "--host-key", badHostKey)
	logged, _ := os.ReadFile(logFile)
	if code != ExitFail || !strings.Contains(string(logged), "built-in simulator") || strings.Contains(errOut, "built-in simulator") {
		t.Errorf("serve --log: exit %d, log file %q, stderr %q; want the log in the file only", code, logged, errOut)
	}
}

// TestServeHostKeyOnlyInExistingDirectory: --host-key under a directory
// that does not exist is refused (exit 2, naming the directory) and no
// directory is created; the default path's own bhtop directory is made.
func TestServeHostKeyOnlyInExistingDirectory(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	testkit.WriteAuthorizedKeys(t, keys)
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": filepath.Join(dir, "cfg")}
	getenv := func(k string) string { return env[k] }
	// A taken listen address: should the key be accepted, serve fails
	// soon after instead of serving.
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	hk := filepath.Join(dir, "no", "such", "dir", "hk")
	code, _, errOut := runCLI(getenv, "serve", "--listen", taken.Addr().String(), "--authorized-keys", keys, "--host-key", hk)
	if code != ExitUsage || !strings.Contains(errOut, filepath.Join(dir, "no", "such", "dir")+" does not exist") {
		t.Errorf("serve --host-key %s = %d, stderr %q; want %d and the missing directory named", hk, code, errOut, ExitUsage)
	}
	if _, err := os.Stat(filepath.Join(dir, "no")); err == nil {
		t.Error("serve created the --host-key directories")
	}

	// The default key path: its directory is bhtop's own and is made.
	sf := serveFlags{authorizedKeys: keys}
	if err := sf.defaults(getenv); err != nil {
		t.Fatal(err)
	}
	if err := sf.files(); err != nil {
		t.Fatalf("files() with the default host key = %v", err)
	}
	if st, err := os.Stat(filepath.Dir(sf.hostKey)); err != nil || !st.IsDir() || st.Mode().Perm() != 0o700 {
		t.Errorf("default host key directory: %v, %v; want a 0700 directory", st, err)
	}
}

// TestServeListenAddressTakenOpensNothing: a listen address already in
// use is refused (exit 2, one line) before any account is opened: the
// service sees no request, so no listenKey is left behind.
func TestServeListenAddressTakenOpensNothing(t *testing.T) {
	s := keyedSim(t, sim.Options{})
	env := orderEnv(t, s.Server, nil)
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	testkit.WriteAuthorizedKeys(t, keys)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	code, errOut := runRefused(t, env, "serve", "--listen", taken.Addr().String(),
		"--authorized-keys", keys, "--host-key", filepath.Join(dir, "hk"))
	if code != ExitUsage || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, taken.Addr().String()) {
		t.Errorf("serve --listen (taken) = %d, stderr %q; want %d and one line naming the address", code, errOut, ExitUsage)
	}
	if n := len(s.Log.Entries(t)); n != 0 {
		t.Errorf("serve with its listen address taken made %d requests, want none:\n%s", n, s.Log.Raw())
	}
}

// TestMetricsAddressTakenOpensNothing: a --metrics-addr already in use
// is refused as a taken --listen is: exit 2 and one line naming the
// address once, before any account is opened (the service sees no
// request, serve makes no host key) or the simulator started (no first
// line), for the dashboard, dump, serve and sim.
func TestMetricsAddressTakenOpensNothing(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	dir := t.TempDir()
	keys := filepath.Join(dir, "authorized_keys")
	testkit.WriteAuthorizedKeys(t, keys)
	for _, args := range [][]string{
		{"--metrics-addr", addr},
		{"dump", "--for", "1s", "--metrics-addr", addr},
		{"serve", "--listen", "127.0.0.1:0", "--authorized-keys", keys, "--host-key", filepath.Join(dir, "hk"), "--metrics-addr", addr},
		{"sim", "--addr", "127.0.0.1:0", "--metrics-addr", addr},
	} {
		s := keyedSim(t, sim.Options{})
		var o, e bytes.Buffer
		code := Run(args, IO{In: strings.NewReader(""), Out: &o, Err: &e, Getenv: orderEnv(t, s.Server, nil)})
		errOut := e.String()
		if code != ExitUsage || strings.Count(errOut, "\n") != 1 || strings.Count(errOut, addr) != 1 || !strings.Contains(errOut, "--metrics-addr") {
			t.Errorf("%q (metrics address taken) = %d, stderr %q; want %d and one line naming --metrics-addr %s once", args, code, errOut, ExitUsage, addr)
		}
		if n := len(s.Log.Entries(t)); n != 0 {
			t.Errorf("%q with its metrics address taken made %d requests, want none:\n%s", args, n, s.Log.Raw())
		}
		if o.Len() != 0 {
			t.Errorf("%q with its metrics address taken printed %q, want nothing", args, o.String())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "hk")); err == nil {
		t.Error("serve with its metrics address taken created its host key")
	}
}
