package market

import (
	"context"
	"slices"

	"bhtop/rest"
)

// maxExtraBars is how many (symbol, interval) bar series beyond the 1m
// ones the client follows at once; asking for one more drops the oldest.
const maxExtraBars = 4

// barSeries is one followed (symbol, interval) pair.
type barSeries struct{ symbol, interval string }

// LoadCandles asks the client to follow symbol's bars at interval (a
// chart switched to it): fetched by REST, then kept current by the
// socket's kline_<interval> topic. It never blocks; the bars appear in a
// later Snapshot under CandleKey(symbol, interval). 1m bars of followed
// symbols are always there. While the request weight used is above half
// the limit (the rate governor shared with the account) the request is
// dropped, as when the loop is busy: the caller asks again later.
func (c *Client) LoadCandles(symbol, interval string) {
	select {
	case c.barReqs <- barSeries{symbol, interval}:
	default: // the loop is busy; the chart asks again when it redraws
	}
}

// addBars follows a new bar series (loop goroutine only).
func (c *Client) addBars(ctx context.Context, sock *socket, req barSeries) error {
	if !slices.Contains(Intervals, req.interval) || !c.knows(req.symbol) {
		return nil
	}
	if req.interval == "1m" && slices.Contains(c.symbols, req.symbol) {
		return nil
	}
	if slices.Contains(c.extraBars, req) {
		return nil
	}
	if !c.withinBudget(1) { // not followed: the chart asks again later
		c.cfg.Logger.Debug("request weight is scarce, leaving bars for later", "symbol", req.symbol, "interval", req.interval)
		return nil
	}
	if len(c.extraBars) >= maxExtraBars {
		old := c.extraBars[0]
		c.extraBars = c.extraBars[1:]
		if sock != nil {
			if err := sock.topic("cancel", TopicKline+"_"+old.interval, []string{old.symbol}); err != nil {
				return err
			}
		}
	}
	c.extraBars = append(c.extraBars, req)
	return c.followBars(ctx, sock, req)
}

// followBars subscribes one series and fetches its history.
func (c *Client) followBars(ctx context.Context, sock *socket, req barSeries) error {
	if sock != nil {
		if err := sock.topic("sub", TopicKline+"_"+req.interval, []string{req.symbol}); err != nil {
			return err
		}
	}
	contract := c.store.Instruments()[req.symbol].Contract
	c.background(ctx, func(ctx context.Context) (func(*Store), error) {
		ks, err := c.cfg.REST.Klines(ctx, rest.KlineRequest{Symbol: req.symbol, Interval: req.interval,
			Limit: c.cfg.KlineLimit, Contract: contract})
		if err != nil {
			return nil, err
		}
		return func(s *Store) { s.ApplyKlines(req.symbol, req.interval, ks) }, nil
	})
	return nil
}

// knows reports whether brokerInfo lists symbol.
func (c *Client) knows(symbol string) bool {
	_, ok := c.store.Instruments()[symbol]
	return ok
}
