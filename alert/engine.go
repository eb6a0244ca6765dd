package alert

import (
	"time"

	"github.com/shopspring/decimal"

	"bhtop/market"
	"bhtop/state"
	"bhtop/value"
)

// Input is what one evaluation sees of one account.
type Input struct {
	Account string    // the account's name ("default" for a single unnamed one)
	Now     time.Time // the evaluation's clock
	State   *state.Snapshot
	// Ready: State holds a REST snapshot (the stream went live once).
	// Until then balance, fill and rejection rules do not evaluate: an
	// empty state is not a zero balance.
	Ready  bool
	Market *market.Snapshot // nil or Version 0: no market data
	// ValueIn is the valuation asset of equity_below ("" is USDT).
	ValueIn string
	Stream  Stream
}

// Stream is what stream_silent needs of the user stream.
type Stream struct {
	// LastFrame is when the newest frame arrived (zero: none yet).
	LastFrame time.Time
	// Since is when following the stream began: silence is counted from
	// it while no frame has come.
	Since time.Time
}

// Firing is one alert: a rule that became true for an account.
type Firing struct {
	Time    time.Time
	Rule    string // Rule.ID
	Kind    Kind
	Account string // the account it was evaluated on
	Message string
	// Host is the rule's Host: a market alert's accounts (nil for an
	// alert of Account alone).
	Host []string
}

// Accounts are the accounts f concerns: whoever is shown any of them is
// shown f. Host for a market alert, else Account alone.
func (f Firing) Accounts() []string {
	if len(f.Host) > 0 {
		return f.Host
	}
	return []string{f.Account}
}

// Market reports whether f is a market alert (a price, no account's own).
func (f Firing) Market() bool { return len(f.Host) > 0 }

// Engine evaluates a rule set, remembering per rule, account and subject
// (a position, for liquidation_within) whether the condition holds, so
// that a rule fires when its condition becomes true and again only after
// it was false: never a storm. It is not safe for concurrent use.
type Engine struct {
	rules  []Rule
	active map[condKey]bool
	trades map[string]*tradeWatch // per account: fills and rejections seen
	// valuers values each account, remembering what did not move since
	// its last evaluation (value.Valuer).
	valuers map[string]*value.Valuer
	// told: the rules (by index) and accounts Unlisted has named.
	told map[condKey]bool
}

// condKey identifies one condition's edge state.
type condKey struct {
	rule    int
	account string
	subject string
}

// NewEngine returns an engine for rules (in their file order).
func NewEngine(rules []Rule) *Engine {
	return &Engine{rules: rules, active: map[condKey]bool{}, trades: map[string]*tradeWatch{}, valuers: map[string]*value.Valuer{},
		told: map[condKey]bool{}}
}

// NeverFires is a rule that can never fire: Text says why, Accounts are
// the accounts it concerns (a market rule's host, as Firing.Accounts, else
// the account alone), whose Events panes say so.
type NeverFires struct {
	Text     string
	Accounts []string
}

// Unlisted says, once per rule and account, why a rule of account's can
// never fire: it names a symbol that listed (the service's brokerInfo)
// does not know, a typo such as BTCUSTD. Nothing else would tell: such a
// symbol has no price, no position and no fill.
func (e *Engine) Unlisted(account string, listed func(symbol string) bool) []NeverFires {
	var out []NeverFires
	for i, r := range e.rules {
		k := condKey{rule: i, account: account}
		if r.Symbol == "" || (r.Account != "" && r.Account != account) || e.told[k] || listed(r.Symbol) {
			continue
		}
		e.told[k] = true
		concerns := r.Host
		if len(concerns) == 0 {
			concerns = []string{account}
		}
		out = append(out, NeverFires{Text: r.ID + ": the service lists no symbol " + r.Symbol + ": this rule can never fire", Accounts: concerns})
	}
	return out
}

// Rules returns the engine's rules.
func (e *Engine) Rules() []Rule { return e.rules }

// verdict is a condition's value for one subject: Known false means
// unknown (the edge state stays as it was).
type verdict struct {
	subject string
	known   bool
	holds   bool
	message string
}

// Evaluate returns the firings of in's account, in rule order.
func (e *Engine) Evaluate(in Input) []Firing {
	if in.State == nil {
		in.State = &state.Snapshot{}
	}
	vr := e.valuers[in.Account]
	if vr == nil {
		vr = &value.Valuer{}
		e.valuers[in.Account] = vr
	}
	ev := evaluation{Input: in, valuer: vr}
	var tw *tradeWatch
	fresh := false
	var out []Firing
	for i, r := range e.rules {
		if r.Account != "" && r.Account != in.Account {
			continue
		}
		var vs []verdict
		switch r.Kind {
		case KindFill, KindOrderRejected:
			if !in.Ready {
				continue
			}
			if tw == nil {
				tw = e.trades[in.Account]
				if tw == nil {
					tw = &tradeWatch{}
					e.trades[in.Account] = tw
				}
				fresh = tw.update(in.State, in.Now)
			}
			// Events, not levels: each new fill or rejection fires once,
			// coalesced per evaluation (per published snapshot).
			if msg := tw.message(r); fresh && msg != "" {
				out = append(out, Firing{Time: in.Now, Rule: r.ID, Kind: r.Kind, Account: in.Account, Message: msg, Host: r.Host})
			}
			continue
		default:
			if vs = ev.verdicts(r); vs == nil {
				continue // nothing known (no market data): every subject keeps its state
			}
		}
		out = append(out, e.edges(i, r, in, vs)...)
	}
	return out
}

// edges turns verdicts into firings and updates the edge state; subjects
// of the rule and account not in vs (a position that closed) are re-armed.
func (e *Engine) edges(i int, r Rule, in Input, vs []verdict) []Firing {
	var out []Firing
	seen := make(map[string]bool, len(vs))
	for _, v := range vs {
		seen[v.subject] = true
		if !v.known {
			continue
		}
		k := condKey{i, in.Account, v.subject}
		if v.holds && !e.active[k] {
			out = append(out, Firing{Time: in.Now, Rule: r.ID, Kind: r.Kind, Account: in.Account, Message: v.message, Host: r.Host})
		}
		if v.holds {
			e.active[k] = true
		} else {
			delete(e.active, k)
		}
	}
	for k := range e.active {
		if k.rule == i && k.account == in.Account && !seen[k.subject] {
			delete(e.active, k)
		}
	}
	return out
}

// evaluation computes the level conditions of one Input, valuing the
// account at most once.
type evaluation struct {
	Input
	valued bool
	val    *value.Valuation
	valuer *value.Valuer // the account's
}

// valueIn is the valuation asset (USDT unless ValueIn says).
func (ev *evaluation) valueIn() string {
	if ev.ValueIn == "" {
		return "USDT"
	}
	return ev.ValueIn
}

// priced reports whether there is market data to value the account with.
func (ev *evaluation) priced() bool { return ev.Market != nil && ev.Market.Version > 0 && ev.Ready }

// valuation is the account valued in ValueIn, or nil without market data.
func (ev *evaluation) valuation() *value.Valuation {
	if !ev.valued {
		ev.valued = true
		if ev.priced() {
			ev.val = ev.valuer.Of(ev.State, ev.Market, ev.valueIn())
		}
	}
	return ev.val
}

// equity is the account's equity in ValueIn (ok false without market
// data): the valuation's when there is one, else the equity alone (the
// account's Valuer's Equity), which costs a fraction of a whole valuation.
func (ev *evaluation) equity() (eq decimal.Decimal, in string, ok bool) {
	if ev.valued {
		if ev.val == nil {
			return decimal.Decimal{}, "", false
		}
		return ev.val.Equity, ev.val.Asset, true
	}
	if !ev.priced() {
		return decimal.Decimal{}, "", false
	}
	eq, _, ok = ev.valuer.Equity(ev.State, ev.Market, ev.valueIn())
	return eq, ev.valueIn(), ok
}
