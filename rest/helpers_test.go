package rest_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// reqLog collects the simulator's request log (DESIGN.md JSON lines).
type reqLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *reqLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// entry is one request-log line.
type entry struct {
	Time   int64  `json:"time"`
	Method string `json:"method"`
	Path   string `json:"path"`
	Query  string `json:"query"`
	Body   string `json:"body"`
	APIKey bool   `json:"apiKey"`
	Status int    `json:"status"`
	Code   *int   `json:"code"`
}

func (l *reqLog) entries(t *testing.T) []entry {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []entry
	for _, line := range strings.Split(strings.TrimSpace(l.buf.String()), "\n") {
		if line == "" {
			continue
		}
		var e entry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("request log line %q: %v", line, err)
		}
		out = append(out, e)
	}
	return out
}

func (l *reqLog) raw() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startSim starts a simulator with the market stepped by hand (no fills
// unless a test asks) and a request log, closed at the end of the test.
func startSim(t *testing.T, opts sim.Options) (*sim.Server, *reqLog) {
	t.Helper()
	log := &reqLog{}
	if opts.RequestLog == nil {
		opts.RequestLog = log
	}
	if opts.MarketInterval == 0 {
		opts.MarketInterval = -1
	}
	s := sim.New(opts)
	if err := s.Start(); err != nil {
		t.Fatalf("sim.Start: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, log
}

// client returns a client of s with its first key pair.
func client(s *sim.Server, opts ...rest.Option) *rest.Client {
	base := []rest.Option{rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret())}
	return rest.New(s.URL(), append(base, opts...)...)
}

// restingBuy is a spot order far below the market, so it rests.
func restingBuy() rest.OrderRequest {
	return rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "0.001", Price: "30000.00"}
}

func s0() signer.Secret { return signer.NewSecret("any") }
