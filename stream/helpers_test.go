package stream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/rest"
	"bhtop/sim"
	"bhtop/state"
)

// syncBuf is a goroutine-safe buffer for the simulator's request log.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// count returns how many logged requests have this method and path.
func (b *syncBuf) count(method, path string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for _, line := range bytes.Split(b.b.Bytes(), []byte("\n")) {
		var r struct{ Method, Path string }
		if json.Unmarshal(line, &r) == nil && r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// frames records what the session's journal receives.
type frames struct {
	mu  sync.Mutex
	all [][]byte
}

func (f *frames) Write(frame []byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.all = append(f.all, append([]byte(nil), frame...))
	return nil
}

func (f *frames) contains(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, fr := range f.all {
		if bytes.Contains(fr, []byte(s)) {
			return true
		}
	}
	return false
}

// fixture is a running simulator and a session on it.
type fixture struct {
	t    *testing.T
	srv  *sim.Server
	log  *syncBuf
	rest *rest.Client
	s    *Session
}

// newFixture starts a simulator with opts (market walk off unless set)
// and a session with cfg (REST and WSURL filled in), and waits until live.
func newFixture(t *testing.T, opts sim.Options, cfg Config, trader bool) *fixture {
	t.Helper()
	log := &syncBuf{}
	opts.RequestLog = log
	if opts.MarketInterval == 0 {
		opts.MarketInterval = -1
	}
	srv := sim.New(opts)
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	c := rest.New(srv.URL(), rest.WithAPIKey(srv.APIKey()), rest.WithSecret(srv.Secret()))
	cfg.REST, cfg.WSURL, cfg.Simulated = c, srv.WSURL(), true
	if trader {
		cfg.Trader = rest.NewTrader(c)
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.WaitLive(ctx); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, srv: srv, log: log, rest: c, s: s}
}

// eventually polls cond every 20ms until it holds or d passes.
func eventually(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if cond() {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cond()
}

// truthDiff compares the session's latest snapshot with the simulator's
// REST truth (account balances by value, spot and contract open orders,
// contract positions) and returns the differences ("" when equal).
func truthDiff(ctx context.Context, c *rest.Client, snap *state.Snapshot) (string, error) {
	var diffs []string
	acct, err := c.Account(ctx)
	if err != nil {
		return "", err
	}
	have := map[string]state.Balance{}
	for _, b := range snap.Balances {
		have[b.Asset] = b
	}
	for _, b := range acct.Balances {
		h, ok := have[b.Asset]
		if !ok || !decEq(h.Free, b.Free) || !decEq(h.Locked, b.Locked) {
			diffs = append(diffs, fmt.Sprintf("balance %s: got %+v, want free %s locked %s", b.Asset, h, b.Free, b.Locked))
		}
	}
	open := map[string]*state.Order{}
	for _, o := range snap.Orders {
		if o.Open() {
			open[o.Market+"/"+o.OrderID] = o
		}
	}
	spot, err := c.OpenOrders(ctx, "", 1000)
	if err != nil {
		return "", err
	}
	ctr, err := c.ContractOpenOrders(ctx, 1000)
	if err != nil {
		return "", err
	}
	want := map[string]rest.OrderRecord{}
	for _, r := range spot {
		want["spot/"+r.OrderID] = r
	}
	for _, r := range ctr {
		want["contract/"+r.OrderID] = r
	}
	for k, r := range want {
		o, ok := open[k]
		switch {
		case !ok:
			diffs = append(diffs, "lost open order "+k)
		case o.Status != r.Status || !decEq(o.ExecutedQty, r.ExecutedQty):
			diffs = append(diffs, fmt.Sprintf("order %s: got %s %s, want %s %s", k, o.Status, o.ExecutedQty, r.Status, r.ExecutedQty))
		}
	}
	for k := range open {
		if _, ok := want[k]; !ok {
			diffs = append(diffs, "phantom open order "+k)
		}
	}
	pos, err := c.ContractPositions(ctx)
	if err != nil {
		return "", err
	}
	hp := map[string]state.Position{}
	for _, p := range snap.Positions {
		hp[p.Symbol+"/"+p.Side] = p
	}
	for _, p := range pos {
		if decEq(p.Position, "0") {
			continue
		}
		h, ok := hp[p.Symbol+"/"+p.Side]
		if !ok || !decEq(h.Total, p.Position) || !decEq(h.AvgPrice, p.AvgPrice) {
			diffs = append(diffs, fmt.Sprintf("position %s/%s: got %+v, want total %s avg %s", p.Symbol, p.Side, h, p.Position, p.AvgPrice))
		}
		delete(hp, p.Symbol+"/"+p.Side)
	}
	for k := range hp {
		diffs = append(diffs, "phantom position "+k)
	}
	sort.Strings(diffs)
	if len(diffs) > 10 {
		diffs = append(diffs[:10], fmt.Sprintf("... %d more", len(diffs)-10))
	}
	out := ""
	for _, d := range diffs {
		out += d + "\n"
	}
	return out, nil
}

func decEq(a, b string) bool {
	x, err1 := decimal.NewFromString(a)
	y, err2 := decimal.NewFromString(b)
	return err1 == nil && err2 == nil && x.Equal(y)
}
