//go:build unix

package cli

import (
	"context"
	"path/filepath"
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
