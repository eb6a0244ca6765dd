package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// syncSamples is how many /time round trips SyncTime takes; the one with
// the shortest round trip gives the offset.
const syncSamples = 3

// SyncTime measures the offset of the server's clock to the local one with
// GET /openapi/v1/time, compensating half the round trip, and uses it for
// every later timestamp. Timestamped calls also re-measure it by
// themselves when it is older than the resync interval (default 5m).
func (c *Client) SyncTime(ctx context.Context) error {
	best := time.Duration(-1)
	var offset time.Duration
	var firstErr error
	for range syncSamples {
		var t struct {
			ServerTime json.Number `json:"serverTime"`
		}
		t0 := c.clock()
		rep, err := c.send(ctx, routeTime, &params{})
		t1 := c.clock()
		if err == nil && (rep.status < 200 || rep.status > 299) {
			err = c.replyError(rep)
		}
		if err == nil {
			err = decode(rep.body, &t)
		}
		var ms int64
		if err == nil {
			ms, err = t.ServerTime.Int64()
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		rtt := t1.Sub(t0)
		if best < 0 || rtt < best {
			best = rtt
			offset = time.UnixMilli(ms).Sub(t0.Add(rtt / 2))
		}
	}
	if best < 0 {
		return fmt.Errorf("measuring the clock offset (GET %s): %w", routeTime.path, firstErr)
	}
	c.mu.Lock()
	c.offset = offset
	c.syncedAt = c.clock()
	c.mu.Unlock()
	c.log.Debug("clock offset measured", "offset", offset, "rtt", best)
	return nil
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
// on with the offset they have. A failure is logged, not returned: the
// request then goes out with the old offset.
func (c *Client) maybeResync(ctx context.Context) {
	c.mu.Lock()
	due := !c.syncing && (c.syncedAt.IsZero() || c.clock().Sub(c.syncedAt) >= c.resyncEach)
	if due {
		c.syncing = true
	}
	c.mu.Unlock()
	if !due {
		return
	}
	defer func() {
		c.mu.Lock()
		c.syncing = false
		c.mu.Unlock()
	}()
	if err := c.SyncTime(ctx); err != nil {
		c.log.Warn("clock offset not re-measured", "err", err)
	}
}

// staleOffset makes the next timestamped request measure the offset again.
func (c *Client) staleOffset() {
	c.mu.Lock()
	c.syncedAt = time.Time{}
	c.mu.Unlock()
}
