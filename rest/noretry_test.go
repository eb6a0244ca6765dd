package rest_test

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"bhtop/rest"
)

// TestOrderRequestsAreNeverResent: a service that reads an order request
// and drops the connection without answering (on a connection the client
// reused, where Go's transport retries what it deems replayable) gets the
// request exactly once, and the outcome is unknown, not rejected: it may
// have taken effect.
func TestOrderRequestsAreNeverResent(t *testing.T) {
	var orders atomic.Int32
	c := serverClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/openapi/v1/time" {
			w.Write([]byte(`{"serverTime":` + strconv.FormatInt(time.Now().UnixMilli(), 10) + `}`))
			return
		}
		orders.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close() // read, maybe acted on, never answered
		}
	}), keyed()...)
	tr := rest.NewTrader(c)
	tests := []struct {
		name string
		send func() rest.OrderResult
	}{
		{"place", func() rest.OrderResult {
			return tr.PlaceOrder(context.Background(), rest.OrderRequest{Symbol: "ETHBTC", Side: "BUY", Type: "LIMIT",
				TimeInForce: "GTC", Quantity: "1", Price: "0.1"})
		}},
		{"cancel", func() rest.OrderResult {
			return tr.CancelOrder(context.Background(), rest.CancelRequest{Symbol: "ETHBTC", OrderID: "1"})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.SyncTime(context.Background()); err != nil { // a kept-alive connection to reuse
				t.Fatal(err)
			}
			orders.Store(0)
			res := tt.send()
			if n := orders.Load(); n != 1 {
				t.Errorf("%s reached the service %d times, want 1", tt.name, n)
			}
			if res.Outcome != rest.OutcomeUnknown {
				t.Errorf("%s on a dropped connection = %+v, want outcome unknown", tt.name, res)
			}
		})
	}
}
