package market

import (
	"slices"

	"bhtop/state"
)

// Touched lists, sorted and without repeats, the symbols whose market an
// account needs (DESIGN.md 'Market context'): for each balance asset the
// symbols that price it in valueIn (A+V, else V+A, else through BTC, then
// any other bridge), the symbols of open orders and of positions, and the
// watch list. Only symbols in instruments (brokerInfo) are kept.
func Touched(s *state.Snapshot, instruments map[string]Instrument, valueIn string, watch []string) []string {
	set := map[string]bool{}
	add := func(sym string) bool {
		if _, ok := instruments[sym]; ok {
			set[sym] = true
			return true
		}
		return false
	}
	if s != nil {
		var pairs map[string][]string // asset -> assets it trades against (spot)
		for _, b := range s.Balances {
			if b.Asset == valueIn || add(b.Asset+valueIn) || add(valueIn+b.Asset) {
				continue
			}
			if pairs == nil {
				pairs = spotPairs(instruments)
			}
			routeVia(b.Asset, valueIn, pairs, instruments, add)
		}
		for _, o := range s.Orders.All() {
			if o.Open() {
				add(o.Symbol)
			}
		}
		for _, p := range s.Positions {
			add(p.Symbol)
		}
	}
	for _, w := range watch {
		add(w)
	}
	out := make([]string, 0, len(set))
	for sym := range set {
		out = append(out, sym)
	}
	slices.Sort(out)
	return out
}

// spotPairs maps each asset to the assets a spot symbol pairs it with.
func spotPairs(instruments map[string]Instrument) map[string][]string {
	pairs := map[string][]string{}
	for _, ins := range instruments {
		if ins.Contract {
			continue
		}
		pairs[ins.Base] = append(pairs[ins.Base], ins.Quote)
		pairs[ins.Quote] = append(pairs[ins.Quote], ins.Base)
	}
	for _, v := range pairs {
		slices.Sort(v)
	}
	return pairs
}

// routeVia adds the two symbols of the first bridge route from asset to
// in: BTC first, then the other assets asset trades against, sorted.
func routeVia(asset, in string, pairs map[string][]string, instruments map[string]Instrument, add func(string) bool) {
	leg := func(a, b string) string {
		if _, ok := instruments[a+b]; ok {
			return a + b
		}
		if _, ok := instruments[b+a]; ok {
			return b + a
		}
		return ""
	}
	for _, via := range append([]string{"BTC"}, pairs[asset]...) {
		if via == asset || via == in {
			continue
		}
		l1, l2 := leg(asset, via), leg(via, in)
		if l1 != "" && l2 != "" {
			add(l1)
			add(l2)
			return
		}
	}
}
