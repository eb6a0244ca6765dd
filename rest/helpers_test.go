package rest_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"bhtop/internal/simtest"
	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// The simulator, its request log and its clients come from the shared
// test kit; these names keep the package's tests short.

// reqLog is the simulator's request log (DESIGN.md JSON lines).
type reqLog struct{ *testkit.RequestLog }

// entry is one request-log line.
type entry = testkit.Entry

func (l reqLog) entries(t *testing.T) []entry { return l.Entries(t) }

func (l reqLog) raw() string { return l.Raw() }

// startSim starts a simulator with the market stepped by hand (no fills
// unless a test asks) and a request log, closed at the end of the test.
func startSim(t *testing.T, opts sim.Options) (*sim.Server, reqLog) {
	s := simtest.Start(t, opts)
	return s.Server, reqLog{s.Log}
}

// startClient starts a simulator with opts and returns a client of it
// with its first key pair, and the request log.
func startClient(t *testing.T, opts sim.Options) (*rest.Client, reqLog) {
	s, log := startSim(t, opts)
	return client(s), log
}

// startTrader is startClient with a trader on the client.
func startTrader(t *testing.T, opts sim.Options) (*rest.Trader, *rest.Client, reqLog) {
	c, log := startClient(t, opts)
	return rest.NewTrader(c), c, log
}

// client returns a client of s with its first key pair.
func client(s *sim.Server, opts ...rest.Option) *rest.Client { return simtest.Client(s, opts...) }

// restingBuy is a spot order far below the market, so it rests.
func restingBuy() rest.OrderRequest {
	return rest.OrderRequest{Symbol: "BTCUSDT", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC",
		Quantity: "0.001", Price: "30000.00"}
}

func s0() signer.Secret { return signer.NewSecret("any") }

// keyed are the options of a client signing with a made-up key pair.
func keyed() []rest.Option { return []rest.Option{rest.WithAPIKey("k"), rest.WithSecret(s0())} }

// serverClient serves h on a test server (closed when the test ends) and
// returns a client of it with opts: a stand-in for a service that answers
// as the simulator never does.
func serverClient(t *testing.T, h http.Handler, opts ...rest.Option) *rest.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return rest.New(srv.URL, opts...)
}
