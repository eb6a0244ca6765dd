package market

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// defaultKeepFor is how long a symbol that left the touched set stays
// subscribed (hidden) before it is dropped: open orders come and go, and
// a symbol coming back within it costs no REST snapshot (240 bars, the
// book, the trades).
const defaultKeepFor = 2 * time.Minute

// Hide leaves symbol out of the published snapshots, as Remove would,
// but keeps its data, which pushes go on updating; Show brings it back.
func (s *Store) Hide(symbol string) {
	if !s.hidden[symbol] {
		s.hidden[symbol] = true
		s.shownOrHidden(symbol)
	}
}

// Show publishes a hidden symbol again, with the data it kept.
func (s *Store) Show(symbol string) {
	if s.hidden[symbol] {
		delete(s.hidden, symbol)
		s.shownOrHidden(symbol)
	}
}

// shownOrHidden marks what a symbol's change of visibility changes in the
// next publication.
func (s *Store) shownOrHidden(symbol string) {
	if _, had := s.quotes[symbol]; had {
		s.movedSyms = append(s.movedSyms, symbol)
	}
	if _, had := s.trades[symbol]; had {
		s.dirtyTrades[symbol] = true
	}
	s.candlesMoved = true
	s.dirty = true
}

// keySymbol is the symbol of a CandleKey.
func keySymbol(key string) string {
	sym, _, _ := strings.Cut(key, "@")
	return sym
}

// keep hides symbols that left the touched set, still subscribed, from
// now on (the loop's).
func (c *Client) keep(symbols []string) {
	now := c.cfg.Now()
	for _, s := range symbols {
		c.kept[s] = now
		c.store.Hide(s)
	}
}

// unkeep shows again the symbols of added that are kept and returns the
// others, which need a subscription and a snapshot.
func (c *Client) unkeep(added []string) (fresh []string) {
	for _, s := range added {
		if _, ok := c.kept[s]; ok {
			delete(c.kept, s)
			c.store.Show(s)
			continue
		}
		fresh = append(fresh, s)
	}
	return fresh
}

// dropExpired cancels and forgets the symbols kept for KeepFor or longer.
func (c *Client) dropExpired(sock *socket) error {
	now := c.cfg.Now()
	var old []string
	for s, since := range c.kept {
		if now.Sub(since) < c.cfg.KeepFor {
			continue
		}
		if c.charted(s) {
			c.kept[s] = now // a chart shows it: kept (hidden) for KeepFor after the chart moves on
			continue
		}
		old = append(old, s)
	}
	if len(old) == 0 {
		return nil
	}
	slices.Sort(old)
	for _, s := range old {
		delete(c.kept, s)
		c.store.Forget(s) // pushes sent before the cancel still come
		// Its extra series go with it: a chart asking again follows them anew.
		for _, b := range c.extraBars {
			if b.symbol == s && b.interval != "1m" {
				if err := sock.topic("cancel", TopicKline+"_"+b.interval, []string{s}); err != nil {
					return err
				}
			}
		}
		c.extraBars = slices.DeleteFunc(c.extraBars, func(b barSeries) bool { return b.symbol == s })
		c.wanted = slices.DeleteFunc(c.wanted, func(b barSeries) bool { return b.symbol == s })
		maps.DeleteFunc(c.failed, func(b barSeries, _ time.Time) bool { return b.symbol == s })
	}
	c.cfg.Logger.Info("market symbols dropped", "symbols", old, "after", c.cfg.KeepFor)
	return sock.subscribe("cancel", old)
}

// forgetKept removes every kept symbol: a new socket does not carry
// their subscriptions.
func (c *Client) forgetKept() {
	for s := range c.kept {
		c.store.Remove(s)
	}
	clear(c.kept)
}
