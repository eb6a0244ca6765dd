package rest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

func TestEndpointsAgainstSim(t *testing.T) {
	c, log := startClient(t, sim.Options{RateLimits: sim.RateLimits{WeightPerMinute: 900}})
	ctx := context.Background()

	if err := c.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	bi, err := c.BrokerInfo(ctx)
	if err != nil {
		t.Fatalf("BrokerInfo: %v", err)
	}
	if len(bi.Symbols) == 0 || bi.ServerTime == 0 {
		t.Errorf("BrokerInfo = %d symbols, serverTime %d; want some and non-zero", len(bi.Symbols), bi.ServerTime)
	}
	if _, limit := c.Weight(); limit != 900 {
		t.Errorf("Weight() limit after BrokerInfo = %d, want 900 (the sim's)", limit)
	}
	var btc rest.Symbol
	for _, sym := range bi.Symbols {
		if sym.Symbol == "BTCUSDT" {
			btc = sym
		}
	}
	if btc.TickSize == "" || btc.StepSize == "" || btc.MinNotional == "" {
		t.Errorf("BTCUSDT filters = %+v, want tick, step and min notional", btc)
	}

	acct, err := c.Account(ctx)
	if err != nil {
		t.Fatalf("Account: %v", err)
	}
	if !acct.CanTrade || len(acct.Balances) == 0 {
		t.Errorf("Account = %+v, want canTrade and balances", acct)
	}

	tr := rest.NewTrader(c)
	res := tr.PlaceOrder(ctx, restingBuy())
	if res.Outcome != rest.OutcomeAccepted || res.OrderID == "" || !strings.HasPrefix(res.ClientOrderID, "bh") {
		t.Fatalf("PlaceOrder = %+v, want accepted with ids", res)
	}
	byID, err := c.QueryOrder(ctx, rest.OrderQuery{OrderID: res.OrderID})
	if err != nil || byID.ClientOrderID != res.ClientOrderID || byID.Status != "NEW" || byID.Price == "" {
		t.Errorf("QueryOrder(orderId) = %+v, %v; want NEW with client id %s", byID, err, res.ClientOrderID)
	}
	byClient, err := c.QueryOrder(ctx, rest.OrderQuery{OrigClientOrderID: res.ClientOrderID})
	if err != nil || byClient.OrderID != res.OrderID {
		t.Errorf("QueryOrder(origClientOrderId) = %+v, %v; want order %s", byClient, err, res.OrderID)
	}
	open, err := c.OpenOrders(ctx, "BTCUSDT", 100)
	if err != nil || !hasOrder(open, res.OrderID) {
		t.Errorf("OpenOrders = %d orders, %v; want one with id %s", len(open), err, res.OrderID)
	}
	cancel := tr.CancelOrder(ctx, rest.CancelRequest{ClientOrderID: res.ClientOrderID})
	if cancel.Outcome != rest.OutcomeAccepted || cancel.OrderID != res.OrderID {
		t.Errorf("CancelOrder = %+v, want accepted for %s", cancel, res.OrderID)
	}
	hist, err := c.HistoryOrders(ctx, "BTCUSDT", 100)
	if err != nil || !hasOrder(hist, res.OrderID) {
		t.Errorf("HistoryOrders = %d orders, %v; want the canceled one", len(hist), err)
	}
	if _, err := c.ContractPositions(ctx); err != nil {
		t.Errorf("ContractPositions: %v", err)
	}
	if _, err := c.ContractOpenOrders(ctx, 50); err != nil {
		t.Errorf("ContractOpenOrders: %v", err)
	}

	key, err := c.CreateListenKey(ctx)
	if err != nil || key == "" {
		t.Fatalf("CreateListenKey = %q, %v", key, err)
	}
	if err := c.KeepAliveListenKey(ctx, key); err != nil {
		t.Errorf("KeepAliveListenKey: %v", err)
	}
	if err := c.CloseListenKey(ctx, key); err != nil {
		t.Errorf("CloseListenKey: %v", err)
	}
	if err := c.KeepAliveListenKey(ctx, key); !errors.Is(err, rest.ErrInvalidListenKey) {
		t.Errorf("KeepAliveListenKey(closed) = %v, want ErrInvalidListenKey", err)
	}

	// Every keyed request carried the key, a timestamp and recvWindow;
	// signed ones a signature; nothing leaked the secret.
	for _, e := range log.entries(t) {
		params := e.Query + "&" + e.Body
		keyed := !strings.HasSuffix(e.Path, "/ping") && !strings.HasSuffix(e.Path, "/time") && !strings.HasSuffix(e.Path, "/brokerInfo")
		if keyed && (!e.APIKey || !strings.Contains(params, "timestamp=") || !strings.Contains(params, "recvWindow=5000")) {
			t.Errorf("%s %s: apiKey=%v params %q; want key, timestamp and recvWindow", e.Method, e.Path, e.APIKey, params)
		}
		signed := keyed && !strings.HasSuffix(e.Path, "/userDataStream")
		if signed != strings.Contains(params, "signature=") {
			t.Errorf("%s %s: signature present = %v, want %v", e.Method, e.Path, !signed, signed)
		}
	}
	if strings.Contains(log.raw(), "lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76") {
		t.Error("the secret appears in the request log")
	}
}

func hasOrder(list []rest.OrderRecord, id string) bool {
	for _, o := range list {
		if o.OrderID == id {
			return true
		}
	}
	return false
}

func TestAuthErrors(t *testing.T) {
	good := signer.NewSecret("good-secret")
	s, log := startSim(t, sim.Options{Keys: []sim.Key{
		{APIKey: "allKey", Secret: good},
		{APIKey: "readKey", Secret: good, Perms: []string{"USER_DATA", "USER_STREAM"}},
		{APIKey: "tradeKey", Secret: good, Perms: []string{"TRADE"}},
	}})
	ctx := context.Background()
	mk := func(key string, sec signer.Secret) *rest.Client {
		return rest.New(s.URL(), rest.WithAPIKey(key), rest.WithSecret(sec))
	}
	tests := []struct {
		name   string
		c      *rest.Client
		call   string // "account" or "order"
		status int
		code   int
		want   error
		hint   string
	}{
		{"wrong secret", mk("allKey", signer.NewSecret("wrong")), "account", 400, -1022, rest.ErrInvalidSignature, "secret key does not match"},
		{"wrong secret order", mk("allKey", signer.NewSecret("wrong")), "order", 400, -1022, rest.ErrInvalidSignature, "secret key does not match"},
		{"unknown key", mk("nobodysKey", good), "account", 401, -2015, rest.ErrKeyRejected, "lacks the permission"},
		{"malformed key", mk("bad key!", good), "account", 401, -2014, rest.ErrBadKeyFormat, "letters, digits"},
		{"read key places order", mk("readKey", good), "order", 401, -2015, rest.ErrKeyRejected, "lacks the permission"},
		{"trade key reads account", mk("tradeKey", good), "account", 401, -2015, rest.ErrKeyRejected, "lacks the permission"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.call == "order" {
				res := rest.NewTrader(tt.c).PlaceOrder(ctx, restingBuy())
				if res.Outcome != rest.OutcomeRejected || res.HTTPStatus != tt.status || res.Code != tt.code || !strings.Contains(res.Msg, tt.hint) {
					t.Errorf("PlaceOrder = %+v, want rejected %d/%d with hint %q", res, tt.status, tt.code, tt.hint)
				}
				return
			}
			_, err := tt.c.Account(ctx)
			var ae *rest.APIError
			if !errors.Is(err, tt.want) || !errors.As(err, &ae) || ae.HTTPStatus != tt.status || ae.Code != tt.code {
				t.Fatalf("Account = %v, want %v (HTTP %d, code %d)", err, tt.want, tt.status, tt.code)
			}
			if !strings.Contains(err.Error(), tt.hint) {
				t.Errorf("Account error %q lacks the hint %q", err, tt.hint)
			}
		})
	}
	// The read-only key still reads; the trade key still trades.
	if _, err := mk("readKey", good).Account(ctx); err != nil {
		t.Errorf("Account(readKey): %v", err)
	}
	if res := rest.NewTrader(mk("tradeKey", good)).PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeAccepted {
		t.Errorf("PlaceOrder(tradeKey) = %+v, want accepted", res)
	}
	// No credentials: refused before anything is sent.
	before := len(log.entries(t))
	_, err := rest.New(s.URL()).Account(ctx)
	if !errors.Is(err, rest.ErrNoCredentials) || !rest.NotSent(err) {
		t.Errorf("Account without a key = %v, want ErrNoCredentials, not sent", err)
	}
	if res := rest.NewTrader(rest.New(s.URL())).PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeRejected || res.HTTPStatus != 0 {
		t.Errorf("PlaceOrder without a key = %+v, want rejected, not sent", res)
	}
	if after := len(log.entries(t)); after != before {
		t.Errorf("requests sent without credentials: %d, want 0", after-before)
	}
}

// jumpClock is a local clock that can be moved by hand.
type jumpClock struct{ d time.Duration }

func (j *jumpClock) now() time.Time { return time.Now().Add(j.d) }

// jumpedClient is a client of a new simulator whose clock offset was
// measured before its local clock jumped by jump.
func jumpedClient(t *testing.T, jump time.Duration) (*rest.Client, reqLog) {
	t.Helper()
	s, log := startSim(t, sim.Options{})
	clk := &jumpClock{}
	c := client(s, rest.WithClock(clk.now))
	if err := c.SyncTime(context.Background()); err != nil {
		t.Fatal(err)
	}
	clk.d = jump // the local clock jumps after the offset was measured
	return c, log
}

func TestTimestampOutsideWindow(t *testing.T) {
	tests := []struct {
		name string
		jump time.Duration
	}{
		{"stale", -10 * time.Second},
		{"early", 3 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, log := jumpedClient(t, tt.jump)
			ctx := context.Background()
			res := rest.NewTrader(c).PlaceOrder(ctx, restingBuy())
			if res.Outcome != rest.OutcomeRejected || res.Code != -1021 || !strings.Contains(res.Msg, "run SyncTime / check NTP") {
				t.Fatalf("PlaceOrder with a %v clock jump = %+v, want rejected -1021 with advice", tt.jump, res)
			}
			// A read refused with -1021 re-measures and succeeds; so does the next order.
			if _, err := c.Account(ctx); err != nil {
				t.Errorf("Account after the jump: %v, want success after a resync", err)
			}
			if res := rest.NewTrader(c).PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeAccepted {
				t.Errorf("PlaceOrder after resync = %+v, want accepted", res)
			}
			if n := countPosts(log.entries(t)); n != 2 {
				t.Errorf("order POSTs sent = %d, want 2 (no retry of the refused one)", n)
			}
		})
	}
}

// TestListenKeyAfterClockJump: after the clocks move apart (the service
// restarted with another clock, an NTP step here), a listenKey request
// refused with -1021 re-measures the offset, so the stream's next connect
// works. Before, only an order or a read did: the user stream, whose
// connect begins with POST userDataStream, retried with the old offset
// and was refused again until the 5 min re-measure.
func TestListenKeyAfterClockJump(t *testing.T) {
	c, _ := jumpedClient(t, -30*time.Second)
	ctx := context.Background()
	if _, err := c.CreateListenKey(ctx); !errors.Is(err, rest.ErrInvalidTimestamp) {
		t.Fatalf("CreateListenKey after a clock jump = %v, want -1021", err)
	}
	if _, err := c.CreateListenKey(ctx); err != nil {
		t.Errorf("CreateListenKey again: %v, want success after a re-measure", err)
	}
}

func countPosts(es []entry) int {
	n := 0
	for _, e := range es {
		if e.Method == "POST" && e.Path == "/openapi/v1/order" {
			n++
		}
	}
	return n
}

func TestSkewAbsorbed(t *testing.T) {
	for _, skew := range []time.Duration{3 * time.Second, -3 * time.Second} {
		for _, explicit := range []bool{true, false} {
			name := skew.String()
			if !explicit {
				name += "/auto"
			}
			t.Run(name, func(t *testing.T) {
				c, log := startClient(t, sim.Options{Skew: skew})
				ctx := context.Background()
				if explicit {
					if err := c.SyncTime(ctx); err != nil {
						t.Fatal(err)
					}
					if off := c.Offset(); off < skew-200*time.Millisecond || off > skew+200*time.Millisecond {
						t.Errorf("Offset() = %v, want %v ± 200ms", off, skew)
					}
				}
				if _, err := c.Account(ctx); err != nil {
					t.Errorf("Account with server skew %v: %v", skew, err)
				}
				if res := rest.NewTrader(c).PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeAccepted {
					t.Errorf("PlaceOrder with server skew %v = %+v, want accepted", skew, res)
				}
				for _, e := range log.entries(t) {
					if e.Code != nil && *e.Code == -1021 {
						t.Errorf("%s %s refused with -1021 under skew %v", e.Method, e.Path, skew)
					}
				}
			})
		}
	}
}

// TestSyncWithoutTimeEndpoint: /time is an extension. Behind a front that
// answers 404 for it (the sim's handler serves everything else), the
// offset is measured with brokerInfo's serverTime and skew is absorbed.
func TestSyncWithoutTimeEndpoint(t *testing.T) {
	s, _ := startSim(t, sim.Options{Skew: -3 * time.Second})
	c := serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/openapi/v1/time" {
			http.Error(w, `{"code":-1000,"msg":"not found"}`, http.StatusNotFound)
			return
		}
		s.ServeHTTP(w, r)
	}), rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret()))
	ctx := context.Background()
	if err := c.SyncTime(ctx); err != nil {
		t.Fatalf("SyncTime without /time: %v", err)
	}
	if off := c.Offset(); off > -2500*time.Millisecond || off < -3500*time.Millisecond {
		t.Errorf("Offset() = %v, want -3s ± 500ms", off)
	}
	if res := rest.NewTrader(c).PlaceOrder(ctx, restingBuy()); res.Outcome != rest.OutcomeAccepted {
		t.Errorf("PlaceOrder = %+v, want accepted", res)
	}
}

// TestContractOrders: contract ids exceed 2^53 and stay exact through
// placement, listing, query and cancel; sides stay raw (BUY_OPEN).
func TestContractOrders(t *testing.T) {
	tr, c, _ := startTrader(t, sim.Options{})
	ctx := context.Background()
	res := tr.PlaceContractOrder(ctx, rest.ContractOrderRequest{Symbol: "BTC-PERP-REV", Side: "BUY_OPEN",
		Quantity: "10", Price: "50000", Leverage: "20"})
	if res.Outcome != rest.OutcomeAccepted || len(res.OrderID) < 18 {
		t.Fatalf("PlaceContractOrder = %+v, want accepted with an id beyond 2^53", res)
	}
	open, err := c.ContractOpenOrders(ctx, 0)
	if err != nil || !hasOrder(open, res.OrderID) {
		t.Fatalf("ContractOpenOrders = %+v, %v; want order %s", open, err, res.OrderID)
	}
	for _, o := range open {
		if o.OrderID == res.OrderID && (o.Side != "BUY_OPEN" || o.Leverage == "" || o.CumulativeQuoteQty != "") {
			t.Errorf("contract record = %+v, want side BUY_OPEN, leverage, no cummulativeQuoteQty", o)
		}
	}
	got, err := c.ContractQueryOrder(ctx, rest.OrderQuery{OrigClientOrderID: res.ClientOrderID})
	if err != nil || got.OrderID != res.OrderID {
		t.Errorf("ContractQueryOrder = %+v, %v; want %s", got, err, res.OrderID)
	}
	if cres := tr.CancelContractOrder(ctx, rest.ContractCancelRequest{OrderID: res.OrderID}); cres.Outcome != rest.OutcomeAccepted || cres.OrderID != res.OrderID {
		t.Errorf("CancelContractOrder = %+v, want accepted for %s", cres, res.OrderID)
	}
}

// TestOrderWaitsForFirstClockMeasurement: an order sent while the first
// measurement of the server's clock is still under way (the dashboard
// draws, and takes orders, before a slow /time answers) waits for it
// rather than go out stamped with the unmeasured local clock: against
// a service 3 s behind, it was refused with -1021.
func TestOrderWaitsForFirstClockMeasurement(t *testing.T) {
	s, log := startSim(t, sim.Options{Skew: -3 * time.Second})
	asked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	c := serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/openapi/v1/time" {
			once.Do(func() { close(asked); <-release })
		}
		s.ServeHTTP(w, r)
	}), rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret()))
	ctx := context.Background()
	measured := make(chan struct{})
	go func() { defer close(measured); c.MeasureClock(ctx) }()
	testkit.Recv(t, asked, 10*time.Second, "the clock measurement never asked /time")
	placed := make(chan rest.OrderResult, 1)
	go func() { placed <- rest.NewTrader(c).PlaceOrder(ctx, restingBuy()) }()
	var res rest.OrderResult
	select { // the order's request on its way (or answered)
	case res = <-placed:
	case <-time.After(300 * time.Millisecond):
	}
	close(release)
	testkit.Recv(t, measured, 10*time.Second, "the clock measurement did not end once /time was let go")
	if res.ClientOrderID == "" {
		res = testkit.Recv(t, placed, 10*time.Second, "PlaceOrder did not return once the clock was measured")
	}
	if res.Outcome != rest.OutcomeAccepted {
		t.Errorf("PlaceOrder = %+v, want accepted", res)
	}
	for _, e := range log.entries(t) {
		if e.Code != nil && *e.Code == -1021 {
			t.Errorf("%s %s refused with -1021", e.Method, e.Path)
		}
	}
}
