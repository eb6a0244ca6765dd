package cli

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"bhtop/sim"
)

// streamEnd is the "stream" member of a dump.
type streamEnd struct {
	State     string `json:"state"`
	Reason    string `json:"reason"`
	LastFrame *int64 `json:"lastFrame"`
}

// TestDumpStreamDownAtTheEnd: a stream that went live and then died
// before the end of --for was dumped as if current. The dump is still
// printed (what the account had) and exits 0, as the contract says; its
// "stream" says it was not live at the end and why, and stderr warns in
// one line.
func TestDumpStreamDownAtTheEnd(t *testing.T) {
	code, out, errOut := dumpWithOutage(t, func(d *sim.Server) func(string) string {
		return orderEnv(t, d, nil)
	})
	if code != ExitOK || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "warning: the user stream was not live at the end") {
		t.Errorf("exit %d, stderr %q; want 0 and one line warning the stream was down", code, errOut)
	}
	var d struct {
		Balances []any     `json:"balances"`
		Stream   streamEnd `json:"stream"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, out)
	}
	if len(d.Balances) == 0 || d.Stream.State == "live" || d.Stream.State == "" || d.Stream.Reason == "" {
		t.Errorf("dump balances %d, stream %+v; want the state with a stream not live and why", len(d.Balances), d.Stream)
	}
}

// TestDumpLiveStreamSaysLive: a stream live to the end says so.
func TestDumpLiveStreamSaysLive(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	d, _ := dumpOK[struct {
		Stream streamEnd `json:"stream"`
	}](t, orderEnv(t, s, nil), "--for", "1500ms")
	if d.Stream.State != "live" || d.Stream.Reason != "" {
		t.Errorf("stream = %+v, want live", d.Stream)
	}
}

// TestDumpAccountsStreamDownAtTheEnd: of two accounts, one whose stream
// died before the end is printed with its "stream" not live, counted in
// the total with the state it had, named in a warning on stderr, and the
// run exits 0.
func TestDumpAccountsStreamDownAtTheEnd(t *testing.T) {
	up := orderSim(t, sim.Faults{})
	code, out, errOut := dumpWithOutage(t, func(down *sim.Server) func(string) string {
		return deskEnv(t, "api_key = \""+orderKey+"\"\nsecret_key = \""+orderSecret+"\"\n"+
			"\n[accounts.up]\nbase_url = \""+up.URL()+"\"\n\n[accounts.down]\nbase_url = \""+down.URL()+"\"\n")
	}, "--no-market")
	if code != ExitOK || !strings.Contains(errOut, "warning: account down: the user stream was not live at the end") || strings.Contains(errOut, "account up:") {
		t.Errorf("exit %d, stderr %q; want 0 and a warning naming down only", code, errOut)
	}
	var d struct {
		Accounts map[string]struct {
			Balances []any     `json:"balances"`
			Stream   streamEnd `json:"stream"`
		} `json:"accounts"`
		Total struct {
			Missing []string          `json:"missing"`
			Why     map[string]string `json:"why"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, out)
	}
	if a := d.Accounts["up"]; a.Stream.State != "live" {
		t.Errorf("up: stream %+v, want live", a.Stream)
	}
	if a := d.Accounts["down"]; a.Stream.State == "live" || a.Stream.Reason == "" || len(a.Balances) == 0 {
		t.Errorf("down: stream %+v, %d balances; want its state, not live", a.Stream, len(a.Balances))
	}
	// With --no-market neither is valued; down is left out of the total
	// for that reason alone, as up is, not for its stream.
	if d.Total.Why["down"] != d.Total.Why["up"] {
		t.Errorf("total why = %q, want down treated as up (counted with the state it had)", d.Total.Why)
	}
}

// dumpWithOutage runs `bhtop dump` in the environment env makes for a
// simulator whose user stream goes down once the dump's stream is live
// (1.5 s in, the dump running 4 s); a run whose stream was not live by
// then (a loaded machine) is made again with twice the times, up to 12 s.
func dumpWithOutage(t *testing.T, env func(*sim.Server) func(string) string, flags ...string) (code int, out, errOut string) {
	t.Helper()
	for wait := 1500 * time.Millisecond; ; wait *= 2 {
		s := orderSim(t, sim.Faults{})
		timer := time.AfterFunc(wait, func() { s.SetUserStreamDown(true) })
		code, out, errOut = runCLI(env(s), append([]string{"dump", "--for", (wait * 8 / 3).String()}, flags...)...)
		timer.Stop()
		if !strings.Contains(errOut, "never went live") || wait >= 4500*time.Millisecond {
			return code, out, errOut
		}
	}
}
