package testkit

import (
	"context"
	"testing"
	"time"
)

// Session is what Live needs of a session (stream.Session is one; this
// package does not import stream, so stream's own tests can use it).
type Session interface {
	Start()
	WaitLive(ctx context.Context) error
	Close(ctx context.Context) error
}

// LiveWithin is how long Live waits for the first snapshot.
const LiveWithin = 10 * time.Second

// Live starts s (as New returned it with err), closes it when the test
// ends, and waits until it is live.
func Live[S Session](t testing.TB, s S, err error) S {
	t.Helper()
	Started(t, s, err)
	ctx, cancel := context.WithTimeout(context.Background(), LiveWithin)
	defer cancel()
	if err := s.WaitLive(ctx); err != nil {
		t.Fatalf("session not live within %s: %v", LiveWithin, err)
	}
	return s
}

// Started starts s and closes it when the test ends, without waiting.
func Started[S Session](t testing.TB, s S, err error) S {
	t.Helper()
	if err != nil {
		t.Fatalf("new session: %v", err)
	}
	s.Start()
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}
