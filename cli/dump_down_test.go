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
// before the end of --for was dumped as if current, exit 0. The dump is
// still printed (what the account had), its "stream" says it was not
// live at the end and why, stderr says so in one line, and the run exits
// 1, as a several-account dump does for an account that never went live.
func TestDumpStreamDownAtTheEnd(t *testing.T) {
	s := orderSim(t, sim.Faults{})
	go func() {
		time.Sleep(1500 * time.Millisecond)
		s.SetUserStreamDown(true)
	}()
	code, out, errOut := runCLI(orderEnv(t, s, nil), "dump", "--for", "4s")
	if code != ExitFail || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "the user stream was not live at the end") {
		t.Errorf("exit %d, stderr %q; want 1 and one line saying the stream was down", code, errOut)
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
// died before the end was printed and totalled as if current. It is
// printed with its "stream" not live, left out of the total (missing,
// with why), named on stderr, and the run exits 1.
func TestDumpAccountsStreamDownAtTheEnd(t *testing.T) {
	up, down := orderSim(t, sim.Faults{}), orderSim(t, sim.Faults{})
	env := deskEnv(t, "api_key = \""+orderKey+"\"\nsecret_key = \""+orderSecret+"\"\n"+
		"\n[accounts.up]\nbase_url = \""+up.URL()+"\"\n\n[accounts.down]\nbase_url = \""+down.URL()+"\"\n")
	go func() {
		time.Sleep(1500 * time.Millisecond)
		down.SetUserStreamDown(true)
	}()
	code, out, errOut := runCLI(env, "dump", "--for", "4s", "--no-market")
	if code != ExitFail || !strings.Contains(errOut, "account down: the user stream was not live at the end") || strings.Contains(errOut, "account up:") {
		t.Errorf("exit %d, stderr %q; want 1 naming down only", code, errOut)
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
	if !strings.Contains(d.Total.Why["down"], "not live at the end") {
		t.Errorf("total why = %q, want down's stream named", d.Total.Why)
	}
}
