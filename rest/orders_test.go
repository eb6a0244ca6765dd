package rest_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bhtop/internal/testkit"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
)

// TestServerErrorIsUnknown: a 5XX on an order-changing request is an
// UNKNOWN outcome carrying the client order id, sent once, and a query by
// origClientOrderId settles it either way.
func TestServerErrorIsUnknown(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		takesEffect bool
	}{
		{"504 placed anyway", 504, true},
		{"504 not placed", 504, false},
		{"500 placed anyway", 500, true},
		{"503 not placed", 503, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, log := startSim(t, sim.Options{Faults: sim.Faults{
				OrderErrorRate: 1, OrderErrorStatus: tt.status, OrderErrorTakesEffect: tt.takesEffect}})
			c := client(s)
			ctx := context.Background()
			req := restingBuy()
			res := rest.NewTrader(c).PlaceOrder(ctx, req)
			if res.Outcome != rest.OutcomeUnknown || res.HTTPStatus != tt.status || res.ClientOrderID == "" {
				t.Fatalf("PlaceOrder under HTTP %d = %+v, want unknown with a client order id", tt.status, res)
			}
			if n := countPosts(log.entries(t)); n != 1 {
				t.Errorf("order POSTs = %d, want exactly 1 (never retried)", n)
			}
			got, err := c.QueryOrder(ctx, rest.OrderQuery{OrigClientOrderID: res.ClientOrderID})
			switch {
			case tt.takesEffect && (err != nil || got.ClientOrderID != res.ClientOrderID || got.Status != "NEW"):
				t.Errorf("QueryOrder(%s) = %+v, %v; want the NEW order", res.ClientOrderID, got, err)
			case !tt.takesEffect && !errors.Is(err, rest.ErrNoSuchOrder):
				t.Errorf("QueryOrder(%s) = %+v, %v; want ErrNoSuchOrder", res.ClientOrderID, got, err)
			}
			if tt.takesEffect {
				cres := rest.NewTrader(c).CancelOrder(ctx, rest.CancelRequest{OrderID: got.OrderID})
				if cres.Outcome != rest.OutcomeUnknown || cres.OrderID != got.OrderID {
					t.Errorf("CancelOrder under HTTP %d = %+v, want unknown for %s", tt.status, cres, got.OrderID)
				}
			}
		})
	}
}

// TestTimeoutIsUnknown: the reply to an order comes after the client's
// timeout. The real simulator handles the request (the order is placed);
// only its answer is held back by a slow front (an httptest server in
// front of the sim's own handler, the one way to delay a reply).
func TestTimeoutIsUnknown(t *testing.T) {
	s, _ := startSim(t, sim.Options{})
	release := make(chan struct{})
	c := serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if r.Method == "POST" && r.URL.Path == "/openapi/v1/order" {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}), rest.WithAPIKey(s.APIKey()), rest.WithSecret(s.Secret()), rest.WithTimeout(300*time.Millisecond))
	defer close(release)
	ctx := context.Background()
	res := rest.NewTrader(c).PlaceOrder(ctx, restingBuy())
	if res.Outcome != rest.OutcomeUnknown || res.ClientOrderID == "" || res.HTTPStatus != 0 {
		t.Fatalf("PlaceOrder with no reply in time = %+v, want unknown with a client order id", res)
	}
	got, err := c.QueryOrder(ctx, rest.OrderQuery{OrigClientOrderID: res.ClientOrderID})
	if err != nil || got.Status != "NEW" {
		t.Errorf("QueryOrder(%s) = %+v, %v; want the NEW order", res.ClientOrderID, got, err)
	}
}

// TestRefusedConnectionIsRejected: when the connection cannot even be
// made, nothing was sent, so the order is certainly not placed.
func TestRefusedConnectionIsRejected(t *testing.T) {
	addr := testkit.FreeAddr(t)
	c := rest.New("http://"+addr, rest.WithAPIKey("k"), rest.WithSecret(s0()))
	res := rest.NewTrader(c).PlaceOrder(context.Background(), restingBuy())
	if res.Outcome != rest.OutcomeRejected || res.HTTPStatus != 0 || res.ClientOrderID == "" {
		t.Errorf("PlaceOrder to a closed port = %+v, want rejected (not sent)", res)
	}
}

// TestNothingSecretInLogsOrErrors: the debug log and the errors of failed
// requests (whose URLs carry signatures) never show a signature or secret.
func TestNothingSecretInLogsOrErrors(t *testing.T) {
	s, _ := startSim(t, sim.Options{})
	var buf bytes.Buffer
	logger := testkit.DebugLogger(&buf)
	ctx := context.Background()
	c := client(s, rest.WithLogger(logger))
	if _, err := c.Account(ctx); err != nil {
		t.Fatal(err)
	}
	rest.NewTrader(c).PlaceOrder(ctx, restingBuy())
	bad := rest.New(s.URL(), rest.WithAPIKey(s.APIKey()), rest.WithSecret(signer.NewSecret("wrong-secret")), rest.WithLogger(logger))
	_, err1 := bad.Account(ctx)

	addr := testkit.FreeAddr(t)
	gone := rest.New("http://"+addr, rest.WithAPIKey("k"), rest.WithSecret(signer.NewSecret("wrong-secret")), rest.WithLogger(logger))
	_, err2 := gone.OpenOrders(ctx, "BTCUSDT", 5)
	if err1 == nil || err2 == nil {
		t.Fatalf("errors = %v, %v; want both", err1, err2)
	}
	all := buf.String() + err1.Error() + err2.Error()
	for _, bad := range []string{"signature=", "wrong-secret", "lH3ELTNiFxCQTmi9pPcWWikhsjO04Yoqw3euoHUuOLC3GYBW64ZqzQsiOEHXQS76"} {
		if strings.Contains(all, bad) {
			t.Errorf("logs or errors contain %q:\n%s", bad, all)
		}
	}
	if !strings.Contains(buf.String(), "/openapi/v1/account") {
		t.Errorf("debug log lacks the request lines:\n%s", buf.String())
	}
}
