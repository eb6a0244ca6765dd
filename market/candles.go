package market

import (
	"context"
	"slices"
	"time"

	"bhtop/rest"
)

// maxExtraBars is how many (symbol, interval) bar series beyond the 1m
// ones the client follows at once; asking for one more drops the oldest.
// It also bounds the symbols charts show (chartSymbols).
const maxExtraBars = 4

// barsRetry is how long after a failed fetch of a chart's bars it is
// tried again.
const barsRetry = 5 * time.Second

// barSeries is one followed (symbol, interval) pair.
type barSeries struct{ symbol, interval string }

func (b barSeries) key() string { return CandleKey(b.symbol, b.interval) }

// LoadCandles tells the client that a chart shows symbol's bars at
// interval (a chart opened or switched to it, or still lacks its bars):
// the series is followed (fetched by REST, then kept current by the
// socket's kline_<interval> topic), and symbol's bars stay in the
// snapshots while a chart shows it, even after it left the account's
// symbols. It never blocks; the bars appear in a later Snapshot under
// CandleKey(symbol, interval), and until they do Snapshot.BarsWait says
// why (loading, waiting for request weight, a failed load). The fetch
// waits while the request weight used is above half the limit (the rate
// governor shared with the account) and is tried again every
// RecheckEvery (a failed one after barsRetry) until the bars are there.
func (c *Client) LoadCandles(symbol, interval string) {
	select {
	case c.barReqs <- barSeries{symbol, interval}:
	default: // the loop is busy; the chart asks again when it redraws
	}
}

// addBars follows a series a chart asked for (loop goroutine only).
func (c *Client) addBars(ctx context.Context, sock *socket, req barSeries) error {
	if !slices.Contains(Intervals, req.interval) || !c.knows(req.symbol) {
		return nil
	}
	c.chartSymbol(req.symbol)
	c.store.Expect(req.symbol) // dropped once: its bars are taken again
	_, kept := c.kept[req.symbol]
	own := req.interval == "1m" && (slices.Contains(c.symbols, req.symbol) || kept) // the symbol's subscription has it
	if !own && !slices.Contains(c.extraBars, req) {
		if len(c.extraBars) >= maxExtraBars {
			old := c.extraBars[0]
			c.extraBars = c.extraBars[1:]
			if err := c.cancelBars(sock, old); err != nil {
				return err
			}
		}
		c.extraBars = append(c.extraBars, req)
		if sock != nil {
			if err := sock.topic("sub", TopicKline+"_"+req.interval, []string{req.symbol}); err != nil {
				return err
			}
		}
	}
	c.wanted = appendLRU(c.wanted, req, maxExtraBars)
	c.loadBars(ctx, req)
	return nil
}

// cancelBars stops following an extra series.
func (c *Client) cancelBars(sock *socket, b barSeries) error {
	c.wanted = slices.DeleteFunc(c.wanted, func(w barSeries) bool { return w == b })
	c.store.SetBarsWait(b.key(), "")
	_, kept := c.kept[b.symbol]
	if sock == nil || b.interval == "1m" && (slices.Contains(c.symbols, b.symbol) || kept) {
		return nil
	}
	return sock.topic("cancel", TopicKline+"_"+b.interval, []string{b.symbol})
}

// followBars subscribes one series and fetches its history (a new socket:
// what it missed meanwhile).
func (c *Client) followBars(ctx context.Context, sock *socket, req barSeries) error {
	if sock != nil {
		if err := sock.topic("sub", TopicKline+"_"+req.interval, []string{req.symbol}); err != nil {
			return err
		}
	}
	c.fetchBars(ctx, req)
	return nil
}

// loadBars fetches the history of a series a chart wants when the store
// has none (the socket may have pushed its current bar) and no fetch is
// under way, within the request budget; what it
// waits for is published (BarsWait). A series with bars is no longer
// wanted.
func (c *Client) loadBars(ctx context.Context, req barSeries) {
	if c.store.HasHistory(req.key()) {
		c.wanted = slices.DeleteFunc(c.wanted, func(w barSeries) bool { return w == req })
		c.store.SetBarsWait(req.key(), "")
		return
	}
	if c.loading[req] || c.cfg.Now().Before(c.failed[req].Add(barsRetry)) {
		return
	}
	if !c.withinBudget(1) { // tried again at the next recheck
		c.cfg.Logger.Debug("request weight is scarce, leaving bars for later", "symbol", req.symbol, "interval", req.interval)
		c.store.SetBarsWait(req.key(), BarsNoWeight)
		return
	}
	c.fetchBars(ctx, req)
}

// fetchBars fetches a series' history in the background; the answer (or
// the failure, which the next recheck retries while a chart wants the
// series) is applied by the loop.
func (c *Client) fetchBars(ctx context.Context, req barSeries) {
	if c.loading[req] {
		return
	}
	c.loading[req] = true
	c.store.SetBarsWait(req.key(), BarsLoading)
	contract := c.store.Instruments()[req.symbol].Contract
	c.background(ctx, func(ctx context.Context) (func(*Store), error) {
		ks, err := c.cfg.REST.Klines(ctx, rest.KlineRequest{Symbol: req.symbol, Interval: req.interval,
			Limit: c.cfg.KlineLimit, Contract: contract})
		return func(s *Store) {
			delete(c.loading, req)
			delete(c.failed, req)
			switch {
			case err != nil:
				c.failed[req] = c.cfg.Now()
				s.SetBarsWait(req.key(), "load failed ("+clean(err.Error())+"), retrying")
			default:
				s.ApplyKlines(req.symbol, req.interval, ks)
				c.wanted = slices.DeleteFunc(c.wanted, func(w barSeries) bool { return w == req })
				why := ""
				if len(ks) == 0 && len(s.candles[req.key()]) == 0 {
					why = BarsNone
				}
				s.SetBarsWait(req.key(), why)
			}
		}, nil
	})
}

// retryBars tries again the series charts want that still have no bars
// (the recheck tick: a load refused for weight, or failed).
func (c *Client) retryBars(ctx context.Context) {
	for _, w := range slices.Clone(c.wanted) {
		c.loadBars(ctx, w)
	}
}

// chartSymbol notes that a chart shows symbol (the newest maxExtraBars
// are kept): its bars stay published while it is hidden, and it is not
// dropped after KeepFor.
func (c *Client) chartSymbol(symbol string) {
	c.charts = appendLRU(c.charts, symbol, maxExtraBars)
	c.store.SetCharted(c.charts)
}

// charted reports whether a chart shows symbol.
func (c *Client) charted(symbol string) bool { return slices.Contains(c.charts, symbol) }

// appendLRU moves v to the end of list (appending it when absent), keeping
// the newest max.
func appendLRU[T comparable](list []T, v T, max int) []T {
	list = slices.DeleteFunc(list, func(x T) bool { return x == v })
	list = append(list, v)
	if len(list) > max {
		list = list[len(list)-max:]
	}
	return list
}

// knows reports whether brokerInfo lists symbol.
func (c *Client) knows(symbol string) bool {
	_, ok := c.store.Instruments()[symbol]
	return ok
}
