package cli

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"bhtop/sim"
)

// activeSim is a simulator with the order test key and background
// activity, so that a stream receives frames to record.
func activeSim(t *testing.T) *sim.Server {
	t.Helper()
	return keyedSim(t, sim.Options{Activity: 50}).Server
}

// runSimBriefly runs `bhtop sim` with args, sends it one request, stops
// it, and returns its exit code and stderr.
func runSimBriefly(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, ok := startSimCommand(t, append([]string{"--activity", "0"}, args...)...)
	if ok {
		res, err := http.Get(r.conn.BaseURL + "/openapi/v1/time")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	return r.stop(t), r.stderr.String()
}

// devFull is a file every write to fails with ENOSPC, as on a full disk.
func devFull(t *testing.T) string {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	f.Close()
	return "/dev/full"
}

// TestDumpRecordToFullDisk: `dump --record` onto a full disk used to exit
// 0 with nothing on stderr. A journal that could not be written is a
// failure: exit 1 and a line saying which file and why.
func TestDumpRecordToFullDisk(t *testing.T) {
	full := devFull(t)
	s := activeSim(t)
	code, _, errOut := runCLI(orderEnv(t, s, nil), "dump", "--for", "1500ms", "--record", full)
	if code != ExitFail {
		t.Errorf("dump --record /dev/full = exit %d, want %d; stderr %q", code, ExitFail, errOut)
	}
	if !strings.Contains(errOut, "--record") || !strings.Contains(errOut, "no space left on device") {
		t.Errorf("stderr = %q, want it to name --record and the write error", errOut)
	}
}

// TestDumpLogToFullDisk: the --log file is a journal of its own; losing
// it is a failure too.
func TestDumpLogToFullDisk(t *testing.T) {
	full := devFull(t)
	s := activeSim(t)
	code, _, errOut := runCLI(orderEnv(t, s, nil), "dump", "--for", "1s", "--log", full)
	if code != ExitFail || !strings.Contains(errOut, "--log") || !strings.Contains(errOut, "no space left on device") {
		t.Errorf("dump --log /dev/full = exit %d, stderr %q; want exit %d naming --log and the write error", code, errOut, ExitFail)
	}
}

// TestSimRequestLogToFullDisk: `sim --log-requests` onto a full disk
// says so on stderr at the first failed line and exits 1.
func TestSimRequestLogToFullDisk(t *testing.T) {
	full := devFull(t)
	code, errOut := runSimBriefly(t, "--log-requests", full)
	if code != ExitFail || !strings.Contains(errOut, "--log-requests") || !strings.Contains(errOut, "no space left on device") {
		t.Errorf("sim --log-requests /dev/full = exit %d, stderr %q; want exit %d naming the file's write error", code, errOut, ExitFail)
	}
}

// TestGenToFullDisk: gen's output is a journal too.
func TestGenToFullDisk(t *testing.T) {
	full := devFull(t)
	f, err := os.OpenFile(full, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var e strings.Builder
	code := Run([]string{"gen", "--events", "10"}, IO{In: strings.NewReader(""), Out: f, Err: &e, Getenv: func(string) string { return "" }})
	if code != ExitFail || !strings.Contains(e.String(), "no space left on device") {
		t.Errorf("gen > /dev/full = exit %d, stderr %q; want exit %d and the write error", code, e.String(), ExitFail)
	}
}

// TestDashboardRecordToFullDisk: the dashboard with --record on a full
// disk shows the journal error while it runs and exits 1 saying so.
func TestDashboardRecordToFullDisk(t *testing.T) {
	full := devFull(t)
	s := activeSim(t)
	code, _, errOut := runDashboardUntil(t, s, "no space left on device", "q", "--record", full)
	if code != ExitFail || !strings.Contains(errOut, "--record") || !strings.Contains(errOut, "no space left on device") {
		t.Errorf("dashboard --record /dev/full = exit %d, stderr %q; want exit %d naming --record and the write error", code, errOut, ExitFail)
	}
}

// TestOutputToFIFOWithoutReader: --record or --log naming a FIFO nobody
// reads hung in open for ever, deaf to --for and SIGTERM. It is refused
// at once (exit 2) saying why.
func TestOutputToFIFOWithoutReader(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := exec.Command("mkfifo", "-m", "600", fifo).Run(); err != nil {
		t.Skipf("no mkfifo here: %v", err)
	}
	env := deskEnv(t, "")
	for _, args := range [][]string{
		{"dump", "--for", "1s", "--record", fifo},
		{"dump", "--for", "1s", "--log", fifo},
		{"sim", "--log-requests", fifo},
	} {
		code, errOut := runRefused(t, env, args...)
		if code != ExitUsage || !strings.Contains(errOut, "no reader") {
			t.Errorf("bhtop %q: exit %d, stderr %q; want %d and 'no reader'", args, code, errOut, ExitUsage)
		}
	}
}
