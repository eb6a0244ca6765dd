package cli

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"bhtop/actions"
	"bhtop/config"
	"bhtop/rest"
	"bhtop/signer"
	"bhtop/sim"
	"bhtop/state"
	"bhtop/ui"
)

// account is one followed account (DESIGN.md 'Accounts'): its name and
// its upstream, which holds the stream session and state, its own REST
// client and its market client. The REST client's rate governor counts
// its own orders, but shares request weight and the 429/418 gates with
// the other accounts of the same host (hostLimits). The desk keeps
// its metrics and alert state under the same name. A problem in one
// account stays in its upstream and never stops the others.
type account struct {
	name     string
	readOnly bool
	up       *upstream
	// cancels is the Trader the dashboard has (nil before uiAccounts
	// gave it one): the session, keeping the cancels not settled.
	cancels *cancelWatch
}

// accounts is the list a command follows, in the order given, with the
// in-process simulator they share (if any), closed after them.
type accounts struct {
	list []*account
	sim  *sim.Server
}

// openAccounts opens one upstream per account. With several accounts,
// those without credentials and base URL share one in-process simulator
// with as many independent accounts; a single one opens as it always did.
func openAccounts(ctx context.Context, accts []config.Account, o upstreamOptions) (*accounts, error) {
	as := &accounts{}
	if len(accts) > 1 {
		if err := as.startSim(accts, o); err != nil {
			return nil, err
		}
	}
	// Opened side by side: one account's slow clock sync (an unreachable
	// service) does not hold up the others.
	as.list = make([]*account, len(accts))
	errs := make([]error, len(accts))
	limits := hostLimits{}
	var wg sync.WaitGroup
	for i, a := range accts {
		oa := o
		oa.trade = o.trade && !a.ReadOnly
		oa.simulated = as.sim != nil && a.BaseURL == as.sim.URL()
		gates := o.getenv
		if oa.simulated {
			gates = nil // a simulator of this run: no other process knows it
		}
		oa.limits = limits.of(a.BaseURL, gates)
		if len(accts) > 1 {
			oa.logger = o.logger.With("account", a.Name) // which one a line is about
			oa.name = a.Name
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			up, err := openUpstream(ctx, a.Conn, oa)
			if err != nil {
				errs[i] = fmt.Errorf("account %s: %w", a.Name, err)
				return
			}
			as.list[i] = &account{name: a.Name, readOnly: a.ReadOnly, up: up}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		as.Close()
		return nil, err
	}
	return as, nil
}

// hostLimits gives the accounts of one host one rest.HostLimits: the
// service counts request weight, and answers 429 and bans (418), per IP,
// so the accounts' clients of one host pace together and all hold back
// after a 429 or 418 to any of them (DESIGN.md 'Accounts').
type hostLimits map[string]*rest.HostLimits

// of is the limits of baseURL's host, made on first use; with getenv
// (not nil) they keep their gates in the host's gate file, shared with
// the other bhtop processes (persistGates).
func (m hostLimits) of(baseURL string, getenv func(string) string) *rest.HostLimits {
	k := hostKey(baseURL)
	if m[k] == nil {
		m[k] = rest.NewHostLimits()
		if getenv != nil {
			persistGates(getenv, baseURL, m[k])
		}
	}
	return m[k]
}

// hostKey is config.HostKey: one key per service host, however its base
// URL is spelled.
func hostKey(baseURL string) string { return config.HostKey(baseURL) }

// startSim starts one simulator for the accounts with neither
// credentials nor base URL, and points each at its own simulated account.
func (as *accounts) startSim(accts []config.Account, o upstreamOptions) error {
	var need []int
	for i, a := range accts {
		if !a.HasCredentials() && a.BaseURL == "" {
			need = append(need, i)
		}
	}
	if len(need) == 0 {
		return nil
	}
	srv := sim.New(sim.Options{Activity: o.simActivity, RestingOrders: o.simResting, Accounts: len(need)})
	if err := srv.Start(); err != nil {
		return fmt.Errorf("start the simulator: %w", err)
	}
	as.sim = srv
	keys := srv.Accounts(sim.DemoSecret)
	for k, i := range need {
		c := &accts[i].Conn
		c.BaseURL, c.WSURL, c.APIKey = srv.URL(), srv.WSURL(), keys[k].APIKey
		c.Secret = signer.NewSecret(keys[k].SecretKey)
	}
	o.logger.Info("no credentials: the accounts use the built-in simulator", "url", srv.URL(), "accounts", len(need))
	return nil
}

// Start starts every account's stream and market client.
func (as *accounts) Start() {
	for _, a := range as.list {
		a.up.Start()
	}
}

// follow hands every account to the desk (metrics and alert rules).
func (as *accounts) follow(d *desk) {
	d.notes.of(as)
	for _, a := range as.list {
		d.follow(a.name, a.up)
	}
}

// Close closes every account (DELETE of its listenKeys), then the shared
// simulator. It returns the first closing error.
func (as *accounts) Close() error {
	var first error
	for _, a := range as.list {
		if a == nil {
			continue // never opened
		}
		if err := a.up.Close(); err != nil && first == nil {
			first = fmt.Errorf("account %s: %w", a.name, err)
		}
	}
	if as.sim != nil {
		_ = as.sim.Close()
		as.sim = nil
	}
	return first
}

// RecordErr is the first --record journal error of any account.
func (as *accounts) RecordErr() error {
	for _, a := range as.list {
		if err := a.up.RecordErr(); err != nil {
			return fmt.Errorf("account %s: %w", a.name, err)
		}
	}
	return nil
}

// uiAccounts are the accounts as the dashboard sees them; readOnly drops
// every Trader (serve, --read-only).
func (as *accounts) uiAccounts(readOnly bool) []ui.Account {
	out := make([]ui.Account, len(as.list))
	for i, a := range as.list {
		out[i] = ui.Account{Name: a.name, Backend: a.up.sess}
		if len(as.list) == 1 && a.name == config.DefaultAccount {
			out[i].Name = "" // no [accounts.NAME] tables: nothing names it
		}
		if !readOnly && !a.readOnly {
			if a.cancels == nil {
				a.cancels = &cancelWatch{Trader: a.up.sess}
			}
			out[i].Trader = a.cancels
		}
		if a.up.market != nil {
			out[i].Market, out[i].ValueIn = a.up.market.Hub(), a.up.valueIn
			out[i].Candles = a.up.market
		}
	}
	return out
}

// unsettledOrders returns a function that lists the orders sent from
// the dashboard whose outcome was still unknown (PENDING: no answer or no
// report yet; UNKNOWN: a 5XX or timeout), and the open orders whose cancel
// was (cancelWatch), so that a quit while one is in flight, or a second
// interrupt during the shutdown, does not leave it unsaid. Called once
// the accounts are closed, or while they close.
func (as *accounts) unsettledOrders() func() []string {
	hubs := make([]*state.Hub, len(as.list))
	for i, a := range as.list {
		hubs[i] = a.up.sess.Hub()
	}
	return func() []string { return as.unsettled(hubs) }
}

// unknownOutcome ends every line of unsettled.
const unknownOutcome = "at exit: its outcome is unknown; check it on the exchange"

func (as *accounts) unsettled(hubs []*state.Hub) []string {
	var out []string
	for i, a := range as.list {
		s := hubs[i].Latest()
		if s == nil {
			continue
		}
		var lines []string
		for _, p := range s.Pending {
			if p.Status != state.PendingSent && p.Status != state.PendingUnknown {
				continue
			}
			why := "sent, not confirmed by the user stream"
			if p.Status == state.PendingUnknown {
				why = "sent, its answer lost"
				if p.Reason != "" {
					why += " (" + p.Reason + ")"
				}
			}
			lines = append(lines, fmt.Sprintf("order %s (client order id %s) %s %s",
				orderTerms(p.Side, p.Quantity, p.Symbol, p.Type, p.Price), p.ClientOrderID, why, unknownOutcome))
		}
		if a.cancels != nil {
			lines = append(lines, a.cancels.unsettled(s)...)
		}
		for _, l := range lines {
			if len(as.list) > 1 {
				l = "account " + a.name + ": " + l
			}
			out = append(out, l)
		}
	}
	return out
}

// orderTerms is an order's terms as a line names them ("BUY 100 XRPUSDT
// LIMIT @ 0.1"; no price when it has none).
func orderTerms(side, qty, symbol, typ, price string) string {
	what := side + " " + qty + " " + symbol + " " + typ
	if price != "" {
		what += " @ " + price
	}
	return what
}

// cancelWatch is an account's Trader as the dashboard has it: the
// session, keeping the cancels sent whose outcome is not known (no
// answer yet, or a 5XX or timeout: the stream tells, if it comes), so
// that a quit can name their orders still open (unsettled). The state
// keeps no cancel in flight: the order's row changes only on its report.
type cancelWatch struct {
	ui.Trader
	mu   sync.Mutex
	next int
	sent map[int]cancelSent
}

// cancelSent is one cancel request (a cancel-all's: many targets) and
// why its outcome is not known.
type cancelSent struct {
	targets []actions.Target
	why     string
}

// start keeps targets as sent for why, until end.
func (w *cancelWatch) start(targets []actions.Target, why string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent == nil {
		w.sent = map[int]cancelSent{}
	}
	w.next++
	w.sent[w.next] = cancelSent{targets: targets, why: why}
	return w.next
}

// end forgets cancel id when its outcome is known (lost == ""), else
// keeps it with why its outcome is not.
func (w *cancelWatch) end(id int, lost string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if lost == "" {
		delete(w.sent, id)
		return
	}
	c := w.sent[id]
	c.why = lost
	w.sent[id] = c
}

// CancelOrder sends one cancel, kept until its answer says what it did.
func (w *cancelWatch) CancelOrder(ctx context.Context, req rest.CancelRequest) rest.OrderResult {
	t := actions.Target{Market: state.MarketSpot, Symbol: req.Symbol, OrderID: req.OrderID, ClientOrderID: req.ClientOrderID}
	if req.Contract {
		t.Market = state.MarketContract
	}
	id := w.start([]actions.Target{t}, "sent, not answered")
	res := w.Trader.CancelOrder(ctx, req)
	lost := ""
	if res.Outcome == rest.OutcomeUnknown {
		lost = "sent, its answer lost (" + res.Msg + ")"
	}
	w.end(id, lost)
	return res
}

// CancelAll cancels every target, kept until every answer came: the
// summary does not say which target's answer was lost.
func (w *cancelWatch) CancelAll(ctx context.Context, targets []actions.Target, progress func(actions.Summary)) actions.Summary {
	id := w.start(targets, "in a cancel-all under way")
	sum := w.Trader.CancelAll(ctx, targets, progress)
	lost := ""
	if sum.Unknown > 0 {
		lost = fmt.Sprintf("in a cancel-all that lost %d of %d answers", sum.Unknown, sum.Total)
	}
	w.end(id, lost)
	return sum
}

// unsettled names the orders still open in s whose cancel's outcome is
// not known.
func (w *cancelWatch) unsettled(s *state.Snapshot) []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := slices.Sorted(maps.Keys(w.sent))
	var out []string
	for _, id := range ids {
		c := w.sent[id]
		for _, t := range c.targets {
			o, _ := s.Orders.Find(t.Market, t.OrderID)
			if o == nil || !o.Open() {
				continue // closed: whatever the cancel did is known
			}
			out = append(out, fmt.Sprintf("cancel of order %s (order %s, client order id %s) %s %s",
				orderTerms(o.Side, o.Quantity, o.Symbol, o.Type, o.Price), o.OrderID, o.ClientOrderID, c.why, unknownOutcome))
		}
	}
	return out
}
