package market

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"bhtop/rest"
)

// allTickersEvery is how rarely the weight-40 all-symbols ticker may be
// called; allTickersFrom is how many symbols make it cheaper than one
// call each.
const (
	allTickersEvery = time.Minute
	allTickersFrom  = 40
)

// depthLimit is the book depth fetched by REST (weight 1).
const depthLimit = 20

// errNoQuotes is the degraded reason of a service without quote
// endpoints.
var errNoQuotes = &errDegraded{reason: "quote endpoints answer 404"}

// fetchSnapshot takes the REST snapshot of symbols: 24 h ticker, book,
// recent trades and 1m bars of each (contracts' tickers from
// /openapi/v1/contracts). It runs off the loop and returns what the loop
// applies. A 404 from a quote endpoint is errNoQuotes; a symbol the
// service does not know (-1121) is skipped.
func (c *Client) fetchSnapshot(ctx context.Context, ins map[string]Instrument, symbols []string) (func(*Store), error) {
	var applies []func(*Store)
	var spot, contracts []string
	for _, s := range symbols {
		if ins[s].Contract {
			contracts = append(contracts, s)
		} else {
			spot = append(spot, s)
		}
	}
	check := func(what string, err error) (skip bool, _ error) {
		switch {
		case err == nil:
			return false, nil
		case rest.IsNotFound(err):
			return true, errNoQuotes
		case isBadSymbol(err):
			c.cfg.Logger.Debug("quote snapshot: unknown symbol", "what", what, "err", err)
			return true, nil
		}
		return true, fmt.Errorf("quote snapshot: %s: %w", what, err)
	}

	// Tickers: one call for many spot symbols (at most once a minute),
	// else one per symbol; contracts from /openapi/v1/contracts.
	now := c.cfg.Now().UnixMilli()
	if last := c.allTickers.Load(); len(spot) >= allTickersFrom && now-last >= allTickersEvery.Milliseconds() &&
		c.allTickers.CompareAndSwap(last, now) {
		ts, err := c.cfg.REST.Tickers24h(ctx)
		if _, err := check("all tickers", err); err != nil {
			return nil, err
		}
		want := map[string]bool{}
		for _, s := range spot {
			want[s] = true
		}
		for _, t := range ts {
			if want[t.Symbol] {
				applies = append(applies, func(s *Store) { s.ApplyTicker24h(t) })
			}
		}
	} else {
		for _, sym := range spot {
			t, err := c.cfg.REST.Ticker24h(ctx, sym)
			if skip, err := check(sym+" ticker", err); err != nil {
				return nil, err
			} else if !skip {
				applies = append(applies, func(s *Store) { s.ApplyTicker24h(t) })
			}
		}
	}
	if len(contracts) > 0 {
		cts, err := c.cfg.REST.Contracts(ctx)
		if _, err := check("contracts", err); err != nil {
			return nil, err
		}
		for _, ct := range cts {
			if slices.Contains(contracts, ct.Symbol) {
				applies = append(applies, func(s *Store) { s.applyContractTicker(ct) })
			}
		}
	}

	for _, sym := range symbols {
		if !c.withinBudget(3) {
			// The socket's first pushes bring the book and the last 60
			// trades anyway: the account's own requests come first.
			c.cfg.Logger.Info("quote snapshot: request weight is scarce, leaving books and trades to the socket")
			break
		}
		contract := ins[sym].Contract
		d, err := c.cfg.REST.Depth(ctx, sym, depthLimit, contract)
		if skip, err := check(sym+" depth", err); err != nil {
			return nil, err
		} else if !skip {
			applies = append(applies, func(s *Store) { s.ApplyDepth(sym, d) })
		}
		ts, err := c.cfg.REST.Trades(ctx, sym, MaxTrades, contract)
		if skip, err := check(sym+" trades", err); err != nil {
			return nil, err
		} else if !skip {
			applies = append(applies, func(s *Store) { s.ApplyTrades(sym, ts) })
		}
		ks, err := c.cfg.REST.Klines(ctx, rest.KlineRequest{Symbol: sym, Interval: "1m", Limit: c.cfg.KlineLimit, Contract: contract})
		if skip, err := check(sym+" klines", err); err != nil {
			return nil, err
		} else if !skip {
			applies = append(applies, func(s *Store) { s.ApplyKlines(sym, "1m", ks) })
		}
	}
	return func(s *Store) {
		for _, f := range applies {
			f(s)
		}
	}, nil
}

// withinBudget reports whether n more weight keeps the quote client
// within half of the request weight limit, so that market data never
// crowds out the account's own requests (they share the rate governor).
func (c *Client) withinBudget(n int) bool {
	used, limit := c.cfg.REST.Weight()
	return used+n <= limit/2
}

// isBadSymbol reports a -1121 (invalid symbol) answer.
func isBadSymbol(err error) bool {
	var ae *rest.APIError
	return errors.As(err, &ae) && ae.Code == -1121
}

// applyContractTicker folds a /openapi/v1/contracts entry: last (the
// mark), best bid and ask while no book is known, index price.
func (s *Store) applyContractTicker(ct rest.ContractTicker) {
	q := s.quote(ct.Symbol)
	q.High24h, q.Low24h, q.Volume24h = ct.High, ct.Low, ct.BaseVolume
	if _, booked := s.books[ct.Symbol]; !booked {
		q.Bid, q.Ask = ct.Bid, ct.Ask
	}
	if ct.IndexPrice != "" {
		q.Index = ct.IndexPrice
	}
	s.touch(q, 0)
	s.setLast(ct.Symbol, ct.LastPrice, 0)
}
