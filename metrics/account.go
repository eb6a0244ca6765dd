package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/shopspring/decimal"

	"bhtop/dec"
	"bhtop/market"
	"bhtop/state"
	"bhtop/stream"
	"bhtop/value"
)

// Account is one followed account as the metrics read it.
type Account struct {
	// Name is the account label; "" is DefaultAccount.
	Name string
	// State is the account's state hub (required).
	State *state.Hub
	// Status reports the stream's status (required).
	Status func() stream.Status
	// Market is the quote hub equity and PnL are valued against; nil
	// means no market data (no bhtop_equity, no PnL).
	Market *market.Hub
	// ValueIn is the valuation asset; "" is USDT.
	ValueIn string
	// Now is the clock of the lag watcher; nil is time.Now.
	Now func() time.Time
}

// account is a registered Account.
type account struct {
	Account

	// The fill counters, brought up to date at each scrape from the
	// fills new since the last one (a scrape may run alongside another).
	mu      sync.Mutex
	scan    state.FillScan
	bySym   map[string]int64    // fills per symbol
	byAsset map[string]*feeSums // commissions per commission asset
}

// feeSums are the commissions of one asset, kept apart by sign so that
// each exported counter only grows: what was charged (a positive
// commission) and what was paid back (a negative one, a maker rebate,
// as its absolute value). Charged − rebated is the net.
type feeSums struct {
	charged, rebated decimal.Decimal
}

// add counts one commission.
func (s *feeSums) add(fee decimal.Decimal) {
	if fee.IsNegative() {
		s.rebated = s.rebated.Sub(fee)
	} else {
		s.charged = s.charged.Add(fee)
	}
}

// maxFillLabels bounds the symbols, and apart the fee assets, an account
// exports fill counters for; those past it are counted under "other", so
// that a service sending ever new names cannot grow the scrape.
const maxFillLabels = 500

// AddAccount exports a's metrics until ctx ends (then its series vanish).
// It starts the lag watcher, which observes bhtop_event_lag_seconds each
// time a published snapshot carries a newer event.
func (r *Registry) AddAccount(ctx context.Context, a Account) {
	if r == nil {
		return
	}
	if a.Name == "" {
		a.Name = DefaultAccount
	}
	if a.ValueIn == "" {
		a.ValueIn = "USDT"
	}
	if a.Now == nil {
		a.Now = time.Now
	}
	acc := &account{Account: a, bySym: map[string]int64{}, byAsset: map[string]*feeSums{}}
	r.mu.Lock()
	r.accounts = append(r.accounts, acc)
	r.mu.Unlock()
	obs := r.lag.WithLabelValues(a.Name)
	notice, unsub := a.State.Subscribe()
	go func() {
		defer unsub()
		watchLag(ctx, notice, a, obs)
		r.mu.Lock()
		for i, x := range r.accounts {
			if x == acc {
				r.accounts = append(r.accounts[:i:i], r.accounts[i+1:]...)
				break
			}
		}
		r.mu.Unlock()
	}()
}

// watchLag observes the lag of each newer event the hub publishes, on the
// server's clock (local now plus the measured offset), until ctx ends.
func watchLag(ctx context.Context, notice <-chan struct{}, a Account, obs prometheus.Observer) {
	var last int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-notice:
		}
		e := a.State.Latest().LastEventTime
		if e <= last {
			continue
		}
		last = e
		now := a.Now().Add(a.Status().ClockOffset)
		lag := now.Sub(time.UnixMilli(e)).Seconds()
		obs.Observe(max(lag, 0))
	}
}

// The per-account series, read at each scrape.
var (
	descEvents      = accountDesc("bhtop_events_total", "User-stream events decoded, by event type.", "type")
	descStale       = accountDesc("bhtop_events_stale_total", "Events refused by the ordering rules.")
	descMalformed   = accountDesc("bhtop_events_malformed_total", "Malformed frames and elements.")
	descUnknown     = accountDesc("bhtop_events_unknown_type_total", "Event objects of an unknown type.")
	descUp          = accountDesc("bhtop_stream_up", "1 when the user stream is live, else 0.")
	descReconnects  = accountDesc("bhtop_reconnects_total", "User-stream connections opened after the first.")
	descErrors      = accountDesc("bhtop_stream_errors_total", "Errors the stream session counted.")
	descWeight      = accountDesc("bhtop_request_weight_used", "REQUEST_WEIGHT used in the current rate-limit window.")
	descWeightLimit = accountDesc("bhtop_request_weight_limit",
		"REQUEST_WEIGHT limit of the window (absent when unknown).")
	descBalance = accountDesc("bhtop_balance",
		"Balance of an asset (free + locked), as the service reported it.", "asset")
	descOpenOrders = accountDesc("bhtop_open_orders", "Open orders (NEW or PARTIALLY_FILLED), by market.", "market")
	descEquity     = accountDesc("bhtop_equity",
		"Account equity in the valuation asset (balances and unrealized PnL).", "asset")
	descPnL = accountDesc("bhtop_position_unrealized_pnl",
		"Unrealized PnL of a contract position, in its PnL asset.", "symbol", "side")
	descFills = accountDesc("bhtop_fills_total", "Fills (executions) folded, by symbol.", "symbol")
	descFees  = accountDesc("bhtop_fees_total",
		"Commissions charged on the fills folded (positive commissions), by asset.", "asset")
	descRebates = accountDesc("bhtop_fee_rebates_total",
		"Commissions paid back on the fills folded (negative commissions, maker rebates), as positive amounts, by asset.", "asset")
)

// accountDesc describes a per-account series: its labels are account,
// then more.
func accountDesc(name, help string, more ...string) *prometheus.Desc {
	return prometheus.NewDesc(name, help, append([]string{"account"}, more...), nil)
}

// accountCollector collects every registered account at scrape time.
type accountCollector struct{ r *Registry }

// Describe sends the descriptors of the per-account series.
func (c accountCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descEvents, descStale, descMalformed, descUnknown, descUp,
		descReconnects, descErrors, descWeight, descWeightLimit, descBalance, descOpenOrders, descEquity, descPnL, descFills, descFees, descRebates} {
		ch <- d
	}
}

// Collect reads each account's latest snapshots and status.
func (c accountCollector) Collect(ch chan<- prometheus.Metric) {
	c.r.mu.Lock()
	accs := append([]*account(nil), c.r.accounts...)
	c.r.mu.Unlock()
	for _, a := range accs {
		a.collect(ch)
	}
}

func (a *account) collect(ch chan<- prometheus.Metric) {
	n := a.Name
	counter := func(d *prometheus.Desc, v int64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), append([]string{n}, labels...)...)
	}
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, append([]string{n}, labels...)...)
	}
	// The status first: the stream publishes a resync's state before its
	// status says synced, so the state read after it is at least that.
	st := a.Status()
	snap := a.State.Latest()
	for i, t := range state.EventTypes() {
		counter(descEvents, snap.Stats.ByType[i], t)
	}
	counter(descStale, snap.Stats.Stale)
	counter(descMalformed, snap.Stats.Malformed)
	counter(descUnknown, snap.Stats.UnknownType)
	up := 0.0
	if st.State == stream.StateLive {
		up = 1
	}
	gauge(descUp, up)
	counter(descReconnects, int64(max(st.Connects-1, 0)))
	counter(descErrors, int64(st.Errors))
	a.collectFills(snap, ch)
	gauge(descWeight, float64(st.WeightUsed))
	if st.WeightLimit > 0 {
		gauge(descWeightLimit, float64(st.WeightLimit))
	}
	// Never synced from a REST snapshot (a wrong key, a stream down from
	// the start): the equity is unknown, and an absent series says so
	// where a 0 would be a false value (as the All view's "—").
	if snap.Version != 0 && !st.LastSnapshot.IsZero() {
		collectHoldings(snap, gauge)
		a.collectValue(ch, snap, gauge)
	}
}

// collectFills counts the fills new since the last scrape and exports the
// fill and fee counters. Only the fills appended since are read, none when
// they did not change; a fill evicted from the state's retention before a
// scrape saw it is not counted. Commissions add up exactly (decimal) and
// become float64 only here. A counter never goes down (Prometheus reads a
// decrease as a restart): a negative commission (a maker rebate) is
// counted in bhtop_fee_rebates_total, never taken off bhtop_fees_total.
// Every asset seen has both series (0 when none), so that fees − rebates
// matches in PromQL.
func (a *account) collectFills(snap *state.Snapshot, ch chan<- prometheus.Metric) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.scan.Scan(snap.Fills, func(f *state.Fill) {
		a.bySym[boundedLabel(a.bySym, f.Symbol)]++
		if fee, ok := dec.Parse(f.Commission); ok && f.CommissionAsset != "" {
			asset := boundedLabel(a.byAsset, f.CommissionAsset)
			if a.byAsset[asset] == nil {
				a.byAsset[asset] = &feeSums{}
			}
			a.byAsset[asset].add(fee)
		}
	})
	for sym, n := range a.bySym {
		ch <- prometheus.MustNewConstMetric(descFills, prometheus.CounterValue, float64(n), a.Name, sym)
	}
	for asset, s := range a.byAsset {
		ch <- prometheus.MustNewConstMetric(descFees, prometheus.CounterValue, s.charged.InexactFloat64(), a.Name, asset)
		ch <- prometheus.MustNewConstMetric(descRebates, prometheus.CounterValue, s.rebated.InexactFloat64(), a.Name, asset)
	}
}

// boundedLabel is name, or "other" once m holds maxFillLabels names and
// not this one.
func boundedLabel[V any](m map[string]V, name string) string {
	if _, ok := m[name]; ok || len(m) < maxFillLabels {
		return name
	}
	return "other"
}

// collectHoldings exports the balances and the open orders per market
// (both markets always, so that none open reads 0, not absent).
func collectHoldings(snap *state.Snapshot, gauge func(*prometheus.Desc, float64, ...string)) {
	for _, b := range snap.Balances {
		gauge(descBalance, dec.Sum(b.Free, b.Locked).InexactFloat64(), b.Asset)
	}
	spot, contract := 0, 0
	for _, o := range snap.Orders.All() {
		switch {
		case !o.Open():
		case o.Market == state.MarketContract:
			contract++
		default:
			spot++
		}
	}
	gauge(descOpenOrders, float64(spot), state.MarketSpot)
	gauge(descOpenOrders, float64(contract), state.MarketContract)
}

// collectValue exports equity and PnL when market data is there (and the
// account was synced). The
// values become float64 only here, at the Prometheus boundary: bhtop's
// own arithmetic stays decimal.
func (a *account) collectValue(ch chan<- prometheus.Metric, snap *state.Snapshot, gauge func(*prometheus.Desc, float64, ...string)) {
	if a.Market == nil {
		return
	}
	m := a.Market.Latest()
	if m.Version == 0 {
		return
	}
	v := value.Of(snap, m, a.ValueIn)
	if v == nil {
		return
	}
	gauge(descEquity, v.Equity.InexactFloat64(), v.Asset)
	seen := map[[2]string]bool{}
	for _, p := range v.Positions {
		k := [2]string{p.Symbol, p.Side}
		if p.Unrealized == nil || seen[k] {
			continue // one series per (symbol, side); accountId is not a label
		}
		seen[k] = true
		gauge(descPnL, p.Unrealized.InexactFloat64(), p.Symbol, p.Side)
	}
}
