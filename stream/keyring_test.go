package stream

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"bhtop/internal/clock"
	"bhtop/internal/simtest"
	"bhtop/rest"
	"bhtop/sim"
)

// TestKeyring: the listenKey lifecycle alone, against the simulator: a
// key is created once and reused, a keepalive moves its expiry and the
// status, and deleteAllKeys DELETEs every key made (the service then no
// longer knows them).
func TestKeyring(t *testing.T) {
	s := simtest.Start(t, sim.Options{})
	c := s.Client()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	cfg, rep := partsFor(c, Config{Clock: clk})
	var mu sync.Mutex
	k := newKeyring(c, cfg, rep, &mu)
	ctx := context.Background()

	key, err := k.currentKey(ctx)
	if err != nil || key == "" {
		t.Fatalf("currentKey = %q, %v", key, err)
	}
	if again, _ := k.currentKey(ctx); again != key {
		t.Errorf("currentKey made a second key %q", again)
	}
	if st := rep.statusNow(); st.KeysCreated != 1 || !st.KeyExpires.Equal(clk.Now().Add(cfg.KeyTTL)) {
		t.Errorf("status after create = %+v", st)
	}
	clk.Advance(time.Minute)
	exp, err := k.keepalive(ctx, key)
	if err != nil || !exp.Equal(clk.Now().Add(cfg.KeyTTL)) {
		t.Fatalf("keepalive = %v, %v", exp, err)
	}
	if st := rep.statusNow(); !st.LastKeepalive.Equal(clk.Now()) || !st.NextKeepalive.Equal(clk.Now().Add(cfg.Keepalive)) {
		t.Errorf("status after keepalive = %+v", st)
	}
	second, err := k.newKey(ctx)
	if err != nil || second == key {
		t.Fatalf("newKey = %q, %v", second, err)
	}
	if err := k.deleteAllKeys(ctx); err != nil {
		t.Fatalf("deleteAllKeys: %v", err)
	}
	for _, old := range []string{key, second} {
		if err := c.KeepAliveListenKey(ctx, old); !errors.Is(err, rest.ErrInvalidListenKey) {
			t.Errorf("keepalive of a deleted key = %v, want ErrInvalidListenKey", err)
		}
	}
	if len(k.created) != 0 || k.key != "" {
		t.Errorf("after deleteAllKeys: created %v, key %q", k.created, k.key)
	}
}
