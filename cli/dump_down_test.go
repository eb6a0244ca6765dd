package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/internal/testkit"
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

// dumpResult is what a dump run in the background ended with.
type dumpResult struct {
	code        int
	out, errOut string
}

// heldDump is a dump heldDeleteDump started: b's simulator, a's DELETE
// of its listenKey begun (deleting) and let go (releaseDelete), the
// dump's result (done) and its --metrics-addr, where bhtop_stream_up
// says when each account's stream is live.
type heldDump struct {
	b             *sim.Server
	deleting      <-chan struct{}
	releaseDelete chan struct{}
	done          <-chan dumpResult
	metrics       string
}

// heldDeleteDump starts `dump --for forD --no-market --metrics-addr` over
// two accounts on simulators a and b, in the background: a's shutdown
// (it closes first) waits on the DELETE of its listenKey, deleting once
// it began, until releaseDelete is closed, while b's session still runs;
// b's requests go through handleB first.
func heldDeleteDump(t *testing.T, forD string, handleB func(r *http.Request)) heldDump {
	a := orderSim(t, sim.Faults{})
	h := heldDump{b: orderSim(t, sim.Faults{}), metrics: testkit.FreeAddr(t)}
	del, release := make(chan struct{}, 1), make(chan struct{})
	h.deleting, h.releaseDelete = del, release
	frontA := testkit.Front(t, a.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.URL.Path == "/openapi/v1/userDataStream" && r.Method == http.MethodDelete {
			select {
			case del <- struct{}{}:
			default:
			}
			select { // a's shutdown waits here while b's session still runs
			case <-release:
			case <-r.Context().Done():
			}
		}
		next.ServeHTTP(w, r)
	})
	frontB := testkit.Front(t, h.b.URL(), func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		handleB(r)
		next.ServeHTTP(w, r)
	})
	env := deskEnv(t, "api_key = \""+orderKey+"\"\nsecret_key = \""+orderSecret+"\"\n"+
		"\n[accounts.a]\nbase_url = \""+frontA+"\"\nws_url = \""+a.WSURL()+"\"\n"+
		"\n[accounts.b]\nbase_url = \""+frontB+"\"\nws_url = \""+h.b.WSURL()+"\"\n")
	res := make(chan dumpResult, 1)
	h.done = res
	go func() {
		code, out, errOut := runCLI(env, "dump", "--for", forD, "--no-market", "--metrics-addr", h.metrics)
		res <- dumpResult{code, out, errOut}
	}()
	return h
}

// streamUp is the dump's bhtop_stream_up for account: "1" (live), "0",
// or "" while its metrics do not answer or lack the series.
func (h heldDump) streamUp(account string) string {
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://" + h.metrics + "/metrics")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), `bhtop_stream_up{account="`+account+`"} `); ok {
			return v
		}
	}
	return ""
}

// TestDumpAccountsBlipAtTheEnd: a stream in a reconnect at the end of
// --for (b: its socket back, its REST snapshot under way) that is live
// again when its session closes (while a's shutdown waits on its DELETE)
// is dumped with the state it had then, resynced: its "stream" is that
// state, live, and no warning says it was down. Its status was read at
// the end of --for, before the other account's shutdown: "resyncing",
// and a warning, though the state printed was live again.
func TestDumpAccountsBlipAtTheEnd(t *testing.T) {
	var hold atomic.Bool
	resyncing, releaseResync := make(chan struct{}, 1), make(chan struct{})
	h := heldDeleteDump(t, "4s", func(r *http.Request) {
		if r.URL.Path == "/openapi/v1/account" && hold.Load() {
			select {
			case resyncing <- struct{}{}:
			default:
			}
			select { // b's resync after the blip, until a's shutdown began
			case <-releaseResync:
			case <-r.Context().Done():
			}
		}
	})
	testkit.Eventually(t, 3*time.Second, func() bool { return h.streamUp("b") == "1" }, "b never went live at start")
	hold.Store(true)
	h.b.SetUserStreamDown(true) // its socket is cut at the sim's next check (250 ms)
	testkit.Eventually(t, 3*time.Second, func() bool { return h.streamUp("b") == "0" }, "b's stream was never cut")
	h.b.SetUserStreamDown(false)
	select {
	case <-resyncing:
	case <-time.After(3500 * time.Millisecond):
		t.Fatal("b did not reconnect and resync within 3.5s of its blip")
	}
	select {
	case <-h.deleting: // --for ended: a's shutdown
	case <-time.After(5 * time.Second):
		t.Fatal("no DELETE of a's listenKey within 5s")
	}
	close(releaseResync)
	testkit.Eventually(t, 3*time.Second, func() bool { return h.streamUp("b") == "1" }, "b was not live again after its resync")
	close(h.releaseDelete)
	var r dumpResult
	select {
	case r = <-h.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the dump did not end within 10s of a's DELETE")
	}
	var d struct {
		Accounts map[string]struct {
			Stream streamEnd `json:"stream"`
		} `json:"accounts"`
	}
	if err := json.Unmarshal([]byte(r.out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, r.out)
	}
	if r.code != ExitOK || strings.Contains(r.errOut, "warning") {
		t.Errorf("exit %d, stderr %q; want 0 and no warning", r.code, r.errOut)
	}
	if s := d.Accounts["b"].Stream; s.State != "live" {
		t.Errorf("b: stream %+v, want live (its state was live again when its session closed)", s)
	}
}

// TestDumpAccountsLiveByItsClose: an account whose stream was not live
// yet when --for ended (b: its REST snapshot held) but was, snapshot
// taken, when its session closed (while a's shutdown waited on its
// DELETE) is dumped with that state, whole: its "stream" said live, yet
// the run failed for it ("never went live") and the total left it out,
// saying it had no REST snapshot.
func TestDumpAccountsLiveByItsClose(t *testing.T) {
	releaseSnapshot := make(chan struct{})
	h := heldDeleteDump(t, "2s", func(r *http.Request) {
		if r.URL.Path == "/openapi/v1/account" {
			select { // b's first snapshot, until a's shutdown began
			case <-releaseSnapshot:
			case <-r.Context().Done():
			}
		}
	})
	testkit.Recv(t, h.deleting, 10*time.Second, "no DELETE of a's listenKey within 10s (--for 2s)")
	close(releaseSnapshot)
	testkit.Eventually(t, 3*time.Second, func() bool { return h.streamUp("b") == "1" }, "b was not live after its snapshot")
	close(h.releaseDelete)
	r := testkit.Recv(t, h.done, 10*time.Second, "the dump did not end within 10s of a's DELETE")
	var d struct {
		Accounts map[string]struct {
			Stream  streamEnd `json:"stream"`
			Account any       `json:"account"`
		} `json:"accounts"`
		Total struct {
			Missing []string          `json:"missing"`
			Why     map[string]string `json:"why"`
		} `json:"total"`
	}
	if err := json.Unmarshal([]byte(r.out), &d); err != nil {
		t.Fatalf("dump: %v\n%s", err, r.out)
	}
	b0 := d.Accounts["b"]
	if b0.Stream.State != "live" || b0.Account == nil {
		t.Fatalf("b: stream %+v, account %v; want live with its snapshot (the test's premise)", b0.Stream, b0.Account)
	}
	if r.code != ExitOK || strings.Contains(r.errOut, "never went live") || strings.Contains(d.Total.Why["b"], "never went live") {
		t.Errorf("exit %d, stderr %q, total's why %v: b was live, its snapshot taken, when its session closed, as its dump says; want 0, b counted", r.code, r.errOut, d.Total.Why)
	}
}
