package serve

import (
	"strings"
	"testing"
	"time"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/signer"
	"bhtop/sim"
	"bhtop/stream"
)

// live is a real simulator and one stream.Session on it: the upstream.
type live struct {
	sim  *sim.Server
	sess *stream.Session
	log  *testkit.RequestLog
}

func newLive(t testing.TB, activity float64) *live {
	t.Helper()
	return newLiveWith(t, sim.Options{Seed: 1, Activity: activity})
}

// newLiveWith starts the simulator with opts (its request log is kept
// here; the market walks unless opts says otherwise) and a live session
// on its first key.
func newLiveWith(t testing.TB, opts sim.Options) *live {
	t.Helper()
	if opts.MarketInterval == 0 {
		opts.MarketInterval = 500 * time.Millisecond // the simulator's own default walk
	}
	s := simtest.Start(t, opts)
	sess, err := stream.New(stream.Config{REST: s.Client(), WSURL: s.WSURL(), Simulated: true})
	return &live{sim: s.Server, sess: testkit.Live(t, sess, err), log: s.Log}
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
	for _, keys := range []string{"2", "j", "n", "y", "\r", "BTCUSDT\t1\t1\r", "y", "\x1b", "x", "y", "\r", "y", "X", "y", "3", "x", "y", "6", "x", "y"} {
		if _, err := v.stdin.Write([]byte(keys)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The keys reached the dashboard (? opens the help, which must not
	// list n, x or X).
	v.stdin.Write([]byte("?"))
	v.screen.waitFor(t, "resync", 5*time.Second)
	time.Sleep(500 * time.Millisecond)
	for _, hidden := range []string{"new order", "cancel order", "cancel / close", "cancel all shown"} {
		if strings.Contains(v.screen.Text(), hidden) {
			t.Errorf("a read-only viewer's screen showed %q", hidden)
		}
	}
	for _, e := range l.log.Entries(t) {
		if (e.Method == "POST" || e.Method == "DELETE") && strings.Contains(strings.ToLower(e.Path), "order") {
			t.Errorf("a viewer's keys sent %s %s", e.Method, e.Path)
		}
	}
}

func TestViewersShareOneResync(t *testing.T) {
	l := newLive(t, 0)
	f := liveServer(t, l)
	const viewers = 4
	vs := openViewers(t, f, viewers)
	accounts := func() int { return l.log.Count("GET", "/openapi/v1/account") }
	before := accounts()
	for _, v := range vs {
		v.stdin.Write([]byte("r"))
	}
	testkit.Within(5*time.Second, func() bool { return accounts() > before })
	time.Sleep(500 * time.Millisecond) // any further resync would have started
	if got := accounts() - before; got != 1 {
		t.Errorf("%d viewers pressing r made %d account snapshots, want 1", viewers, got)
	}
}
