//go:build unix

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/sim"
)

// TestGateTurnWaitIsBounded: a process that holds the host's turn and
// never gives it back (stopped with ctrl+z while its request was in
// flight) does not hold another's requests forever: past turnMaxWait
// the turn is given without the lock.
func TestGateTurnWaitIsBounded(t *testing.T) {
	defer func(d time.Duration) { turnMaxWait = d }(turnMaxWait)
	turnMaxWait = 50 * time.Millisecond
	path := filepath.Join(t.TempDir(), "bhtop", "gates", "https_api.example.com_443.json")
	a, b := &gateFile{path: path}, &gateFile{path: path}
	endA, err := a.Turn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer endA()
	done := make(chan error, 1)
	go func() {
		end, err := b.Turn(context.Background())
		if err == nil {
			end()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("b's Turn past the wait = %v, want the turn given", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b's Turn still waits for a turn never given back")
	}
}

// TestStaleGateLocksRemoved: each host leaves a lock file beside the gate
// files (each bhtop sim on a new port one more). A process opening its
// own removes those no process holds; one held stays, and so do the gate
// files. A process that had a removed lock file open (between two
// requests) takes its next turn on the file now at the path, so the turn
// stays exclusive with a process that opened that file.
func TestStaleGateLocksRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bhtop", "gates")
	gate := func(name string) string { return filepath.Join(dir, name+".json") }
	lock := func(name string) string { return filepath.Join(dir, name+".lock") }
	turn := func(f *gateFile) func() { t.Helper(); return takeTurn(t, f) }
	held := &gateFile{path: gate("http_127.0.0.1_2001")}
	endHeld := turn(held) // in flight while the others start
	between := &gateFile{path: gate("http_127.0.0.1_2002")}
	turn(between)() // open, not held: between two requests
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"http_127.0.0.1_2003.lock", "http_127.0.0.1_2004.lock", "http_127.0.0.1_2003.json"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte{}, 0o600); err != nil {
			t.Fatal(err)
		}
	}

	turn(&gateFile{path: gate("https_api.example.com_443")})()
	for name, want := range map[string]bool{
		"http_127.0.0.1_2001.lock": true, "http_127.0.0.1_2002.lock": false, "http_127.0.0.1_2003.lock": false,
		"http_127.0.0.1_2004.lock": false, "http_127.0.0.1_2003.json": true, "https_api.example.com_443.lock": true,
	} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: stat %v, want present %v", name, err, want)
		}
	}
	endHeld()

	// A process starting now makes the file at the path anew; between's
	// next turn must wait for it, not flock the removed file.
	other := &gateFile{path: gate("http_127.0.0.1_2002")}
	endOther := turn(other)
	short, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := between.Turn(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Turn on a removed lock file while another holds the new one = %v, want the deadline", err)
	}
	endOther()
	turn(between)()
	var st, fst syscall.Stat_t
	if err := syscall.Stat(lock("http_127.0.0.1_2002"), &st); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Fstat(int(between.lockFile.Fd()), &fst); err != nil || st.Ino != fst.Ino {
		t.Errorf("between's lock file is not the one at the path (%v)", err)
	}
}

// TestEndedGateFilesRemoved: each host a 429 or 418 was answered for
// leaves a gate file (each bhtop sim on a new port one more). A process
// opening a host's lock removes, from the gates directory, the gate
// files whose gates ended over a day ago (and a corrupt one not written
// for a day), its own host's too, each while it holds that host's turn:
// one whose turn another process holds stays, and so do gates still in
// force or ended within the day. A process that was between two
// requests on a removed file stores its next gate in a new one, which
// the others read.
func TestEndedGateFilesRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bhtop", "gates")
	gate := func(name string) string { return filepath.Join(dir, name+".json") }
	now := time.Now()
	ms := func(d time.Duration) int64 { return now.Add(d).UnixMilli() }
	turn := func(f *gateFile) func() { t.Helper(); return takeTurn(t, f) }
	held := &gateFile{path: gate("http_127.0.0.1_3004")}
	endHeld := turn(held) // in flight while the sweep runs
	between := &gateFile{path: gate("http_127.0.0.1_3006")}
	turn(between)() // open, not held: between two requests
	for name, text := range map[string]string{
		"http_127.0.0.1_3001":       fmt.Sprintf(`{"retryAfter":%d,"bannedUntil":0}`, ms(-25*time.Hour)),
		"http_127.0.0.1_3002":       fmt.Sprintf(`{"retryAfter":0,"bannedUntil":%d}`, ms(-2*time.Hour)),
		"http_127.0.0.1_3003":       fmt.Sprintf(`{"retryAfter":%d,"bannedUntil":%d}`, ms(time.Minute), ms(-48*time.Hour)),
		"http_127.0.0.1_3004":       fmt.Sprintf(`{"retryAfter":%d,"bannedUntil":0}`, ms(-25*time.Hour)),
		"http_127.0.0.1_3005":       `{"retryAf`,
		"http_127.0.0.1_3006":       fmt.Sprintf(`{"retryAfter":0,"bannedUntil":%d}`, ms(-30*time.Hour)),
		"https_api.example.com_443": fmt.Sprintf(`{"retryAfter":%d,"bannedUntil":%d}`, ms(-26*time.Hour), ms(-25*time.Hour)),
	} {
		testkit.WriteFileMode(t, gate(name), text, 0o600)
	}
	if err := os.Chtimes(gate("http_127.0.0.1_3005"), now.Add(-48*time.Hour), now.Add(-48*time.Hour)); err != nil {
		t.Fatal(err)
	}

	own := &gateFile{path: gate("https_api.example.com_443")}
	turn(own)()
	for name, want := range map[string]bool{
		"http_127.0.0.1_3001.json": false, "http_127.0.0.1_3001.lock": false,
		"http_127.0.0.1_3002.json": true, "http_127.0.0.1_3003.json": true,
		"http_127.0.0.1_3004.json": true, "http_127.0.0.1_3004.lock": true,
		"http_127.0.0.1_3005.json": false, "http_127.0.0.1_3006.json": false, "http_127.0.0.1_3006.lock": false,
		"https_api.example.com_443.json": false, "https_api.example.com_443.lock": true,
	} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s: stat %v, want present %v", name, err, want)
		}
	}
	endHeld()

	// between's next gate goes to a new file, which another process reads.
	until := now.Add(time.Minute).Truncate(time.Millisecond)
	end := turn(between)
	between.Save(until, time.Time{})
	end()
	if r, _ := (&gateFile{path: gate("http_127.0.0.1_3006")}).Load(); !r.Equal(until) {
		t.Errorf("another process reads 3006's gate until %v, want %v", r, until)
	}
}

// TestEndedGateFileRemovedByNextRequest: two processes (two gate stores
// on one directory) follow a host; one is answered 429. While the gate
// holds its file stays; the first request after it ended (of either
// process) removes it, within its turn, so a host's file does not
// outlive its gate. A later 429 writes a new file, which the other
// process reads at once.
func TestEndedGateFileRemovedByNextRequest(t *testing.T) {
	s, clk := simtest.StartOnClock(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 10}})
	atMinuteStart(clk)
	path := gatePath(func(k string) string { return map[string]string{"XDG_STATE_HOME": t.TempDir()}[k] }, s.URL())
	process := func() *rest.Client {
		h := rest.NewHostLimits()
		h.Persist(&gateFile{path: path, now: clk.Now})
		return s.Client(simtest.SharedOnClock(clk, h)...)
	}
	a, b := process(), process()
	ctx := context.Background()
	for _, c := range []*rest.Client{a, b} {
		if err := c.SyncTime(ctx); err != nil {
			t.Fatal(err)
		}
	}
	exists := func() bool { _, err := os.Stat(path); return err == nil }
	for round := 1; round <= 2; round++ {
		s.SpendWeight(t, clk.Now, 10) // another program on the IP: the minute's 10
		if _, err := a.Account(ctx); !errors.Is(err, rest.ErrRateLimited) || rest.NotSent(err) {
			t.Fatalf("round %d: a's Account = %v, want answered 429", round, err)
		}
		until := a.RetryAfter()
		short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		_, err := b.Account(short)
		cancel()
		if !errors.Is(err, rest.ErrRateLimited) || !rest.NotSent(err) {
			t.Fatalf("round %d: b's Account during the gate = %v, want not sent", round, err)
		}
		if !exists() {
			t.Fatalf("round %d: the gate file is gone while its gate holds", round)
		}
		clk.Set(until.Add(time.Millisecond))
		if _, err := b.Account(ctx); err != nil {
			t.Fatalf("round %d: b's Account after the gate: %v", round, err)
		}
		if exists() {
			t.Errorf("round %d: the gate file outlives its gate (ended %v)", round, until)
		}
		atMinuteStart(clk)
	}
	if n := s.Log.Banned(); n > 0 {
		t.Errorf("%d requests banned (418)", n)
	}
}

// takeTurn takes f's turn, failing the test when it cannot, and returns
// its end.
func takeTurn(t *testing.T, f *gateFile) func() {
	t.Helper()
	end, err := f.Turn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return end
}
