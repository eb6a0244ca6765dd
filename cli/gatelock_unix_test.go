//go:build unix

package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
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
	turn := func(f *gateFile) func() {
		t.Helper()
		end, err := f.Turn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return end
	}
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
