package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
	"bhtop/stream"
)

// requestLog is the simulator's request log (JSON lines), safe to read
// while it is written.
type requestLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *requestLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// requests returns "METHOD path" of every logged request.
func (l *requestLog) requests() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range bytes.Split(l.b.Bytes(), []byte("\n")) {
		var r struct{ Method, Path string }
		if json.Unmarshal(line, &r) == nil && r.Method != "" {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

func (l *requestLog) count(req string) int {
	n := 0
	for _, r := range l.requests() {
		if r == req {
			n++
		}
	}
	return n
}

// live is a real simulator and one stream.Session on it: the upstream.
type live struct {
	sim  *sim.Server
	sess *stream.Session
	log  *requestLog
}

func newLive(t testing.TB, activity float64) *live {
	t.Helper()
	return newLiveWith(t, sim.Options{Seed: 1, Activity: activity})
}

// newLiveWith starts the simulator with opts (its request log is set
// here) and a session on its first key.
func newLiveWith(t testing.TB, opts sim.Options) *live {
	t.Helper()
	l := &live{log: &requestLog{}}
	opts.RequestLog = l.log
	l.sim = sim.New(opts)
	if err := l.sim.Start(); err != nil {
		t.Fatalf("start simulator: %v", err)
	}
	rc := rest.New(l.sim.URL(), rest.WithAPIKey(l.sim.APIKey()), rest.WithSecret(l.sim.Secret()))
	sess, err := stream.New(stream.Config{REST: rc, WSURL: l.sim.WSURL(), Simulated: true})
	if err != nil {
		t.Fatal(err)
	}
	l.sess = sess
	sess.Start()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := sess.WaitLive(ctx); err != nil {
		t.Fatalf("stream session: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = sess.Close(ctx)
		_ = l.sim.Close()
	})
	return l
}

// liveServer serves the real read-only dashboard over l.
func liveServer(t testing.TB, l *live) *fixture {
	return newFixture(t, func(c *Config) {
		c.NewModel = nil
		c.Upstream = l.sess
	})
}

func TestDashboardOverSSH(t *testing.T) {
	l := newLive(t, 20)
	f := liveServer(t, l)
	c := mustDial(t, f.addr, f.client)
	v := openViewer(t, c, 140, 40, nil)
	for _, pane := range []string{"Balances", "Open Orders", "Positions", "Events", "SIMULATED"} {
		v.screen.waitFor(t, pane, 10*time.Second)
	}
}

func TestKeyWithoutTradePermission(t *testing.T) {
	l := newLiveWith(t, sim.Options{Seed: 1, Activity: 20, Keys: []sim.Key{{
		APIKey: "desk-view", Secret: signer.NewSecret("desk-view-secret"), Perms: []string{"USER_DATA", "USER_STREAM"},
	}}})
	f := liveServer(t, l)
	v := openViewer(t, mustDial(t, f.addr, f.client), 140, 40, nil)
	for _, want := range []string{"READ-ONLY", "Balances", "live"} {
		v.screen.waitFor(t, want, 10*time.Second)
	}
	if n := len(l.sess.Hub().Latest().Balances); n == 0 {
		t.Error("no balances with a USER_DATA + USER_STREAM key, want the account's")
	}
}

func TestOrderKeysOverSSHSendNothing(t *testing.T) {
	l := newLive(t, 20)
	f := liveServer(t, l)
	c := mustDial(t, f.addr, f.client)
	v := openViewer(t, c, 140, 40, nil)
	v.screen.waitFor(t, "Open Orders", 10*time.Second)
	// Focus the open orders, move to a row, then try every way to an order:
	// new order form, cancel, confirmations, submit.
	for _, keys := range []string{"2", "j", "n", "y", "\r", "BTCUSDT\t1\t1\r", "y", "\x1b", "x", "y", "\r", "y"} {
		if _, err := v.stdin.Write([]byte(keys)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The keys reached the dashboard (? opens the help, which must not
	// list n or x).
	v.stdin.Write([]byte("?"))
	v.screen.waitFor(t, "resync", 5*time.Second)
	time.Sleep(500 * time.Millisecond)
	for _, hidden := range []string{"new order", "cancel order"} {
		if strings.Contains(v.screen.text(), hidden) {
			t.Errorf("a read-only viewer's screen showed %q", hidden)
		}
	}
	for _, r := range l.log.requests() {
		method, path, _ := strings.Cut(r, " ")
		if (method == "POST" || method == "DELETE") && strings.Contains(strings.ToLower(path), "order") {
			t.Errorf("a viewer's keys sent %s", r)
		}
	}
}

func TestViewersShareOneResync(t *testing.T) {
	l := newLive(t, 0)
	f := liveServer(t, l)
	const viewers = 4
	var vs []*viewer
	for range viewers {
		v := openViewer(t, mustDial(t, f.addr, f.client), 120, 40, nil)
		v.screen.waitFor(t, "Balances", 10*time.Second)
		vs = append(vs, v)
	}
	before := l.log.count("GET /openapi/v1/account")
	for _, v := range vs {
		v.stdin.Write([]byte("r"))
	}
	deadline := time.Now().Add(5 * time.Second)
	for l.log.count("GET /openapi/v1/account") == before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond) // any further resync would have started
	if got := l.log.count("GET /openapi/v1/account") - before; got != 1 {
		t.Errorf("%d viewers pressing r made %d account snapshots, want 1", viewers, got)
	}
}
