package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// syncSamples is how many /time round trips SyncTime takes; the one with
// the shortest round trip gives the offset.
const syncSamples = 3

// retryFailedSync is how long a timestamped call waits after a failed
// automatic measurement before trying again.
const retryFailedSync = 30 * time.Second

// SyncTime measures the offset of the server's clock to the local one with
// GET /openapi/v1/time, compensating half the round trip, and uses it for
// every later timestamp. A service without /time (404: it is an
// extension) is measured with brokerInfo's serverTime instead. Timestamped
// calls also re-measure by themselves when the offset is older than the
// resync interval (default 5m).
func (c *Client) SyncTime(ctx context.Context) error {
	r := routeTime
	best := time.Duration(-1)
	var offset time.Duration
	for i := 0; i < syncSamples; i++ {
		t0 := c.clock()
		ms, err := c.serverTimeOnce(ctx, r)
		t1 := c.clock()
		var ae *APIError
		if err != nil && r == routeTime && best < 0 && errors.As(err, &ae) && ae.HTTPStatus == http.StatusNotFound {
			r, i = routeBrokerInfo, i-1 // measure with brokerInfo instead
			continue
		}
		if err != nil {
			if best < 0 {
				return fmt.Errorf("measuring the clock offset (%s %s): %w", r.method, r.path, err)
			}
			break
		}
		rtt := t1.Sub(t0)
		if best < 0 || rtt < best {
			best = rtt
			offset = time.UnixMilli(ms).Sub(t0.Add(rtt / 2))
		}
	}
	c.mu.Lock()
	c.offset = offset
	c.syncedAt = c.clock()
	c.syncFailed = time.Time{}
	c.mu.Unlock()
	c.log.Debug("clock offset measured", "offset", offset, "rtt", best)
	return nil
}

// serverTimeOnce asks r (/time or brokerInfo) for serverTime, in ms.
func (c *Client) serverTimeOnce(ctx context.Context, r route) (int64, error) {
	rep, err := c.send(ctx, r, &params{})
	if err != nil {
		return 0, err
	}
	if rep.status < 200 || rep.status > 299 {
		return 0, c.replyError(rep)
	}
	var t struct {
		ServerTime flexInt `json:"serverTime"`
	}
	if err := decode(rep.body, &t); err != nil {
		return 0, fmt.Errorf("decoding serverTime: %w", err)
	}
	if t.ServerTime <= 0 {
		return 0, errors.New("the reply has no serverTime")
	}
	return int64(t.ServerTime), nil
}

// Offset is the measured server clock minus the local clock (0 before the
// first SyncTime).
func (c *Client) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// Now is the server's time as estimated from the local clock and Offset.
func (c *Client) Now() time.Time { return c.clock().Add(c.Offset()) }

// Synced is the local time of the last successful SyncTime (zero: never).
func (c *Client) Synced() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.syncedAt
}

// maybeResync measures the offset when it was never measured or is older
// than the resync interval. Only one caller measures at a time; others go
// on with the offset they have, or, when there is none worth using
// (never measured, or refused with -1021), wait for that measurement
// under their ctx: a request stamped with the unmeasured local clock is
// refused on a skewed one. A failure is logged, not returned: the
// request then goes out with the old offset.
func (c *Client) maybeResync(ctx context.Context) {
	c.mu.Lock()
	now := c.clock()
	due := !c.syncing && (c.syncedAt.IsZero() || now.Sub(c.syncedAt) >= c.resyncEach) &&
		(c.syncFailed.IsZero() || now.Sub(c.syncFailed) >= retryFailedSync || now.Before(c.syncFailed))
	if due {
		c.syncing = true
		c.syncDone = make(chan struct{})
	}
	wait := c.syncing && !due && c.syncedAt.IsZero()
	done := c.syncDone
	c.mu.Unlock()
	if wait {
		select {
		case <-done:
		case <-ctx.Done():
		}
	}
	if !due {
		return
	}
	defer func() {
		c.mu.Lock()
		c.syncing = false
		close(c.syncDone)
		c.mu.Unlock()
	}()
	if err := c.SyncTime(ctx); err != nil {
		c.log.Warn("clock offset not re-measured", "err", err)
		c.mu.Lock()
		c.syncFailed = c.clock()
		c.mu.Unlock()
	}
}

// MeasureClock measures the offset now when a timestamped request would
// (never measured, or older than the resync interval), under ctx: for a
// caller that sends its next request under a context it will not cancel,
// so that the measurement before it can still be abandoned.
func (c *Client) MeasureClock(ctx context.Context) { c.maybeResync(ctx) }

// staleOffset makes the next timestamped request measure the offset again.
func (c *Client) staleOffset() {
	c.mu.Lock()
	c.syncedAt = time.Time{}
	c.mu.Unlock()
}
