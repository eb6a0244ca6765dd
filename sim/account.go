package sim

import (
	"cmp"
	"maps"
	"slices"

	"bhtop/event"

	"github.com/shopspring/decimal"
)

// account is one exchange account: balances, orders and contract
// positions. Every change marks the balances it touched; flushAccounts
// publishes them as one outboundAccountInfo.
type account struct {
	id         string
	contractID string // A of position events
	balances   map[string]*balance
	updateTime int64 // E of the last account event (REST updateTime)
	dirty      []string
	orders     map[uint64]*order    // retained orders by id
	byClient   map[string]*order    // latest order of each client order id
	closed     []uint64             // closed order ids, oldest first, for pruning
	positions  map[string]*position // "symbol/side"
	lastExecE  int64
	trades     []accountTrade // fills, oldest first
}

type balance struct {
	free, locked decimal.Decimal
	dirty        bool
}

// maxClosedOrders bounds the closed orders kept per account for queries
// and history; older ones are forgotten (queries then answer -2013).
const maxClosedOrders = 50_000

var demoBalances = [][2]string{
	{"BTC", "10.5"}, {"ETH", "240"}, {"USDT", "1000000"}, {"LTC", "17366.18538083"},
	{"XRP", "50000"}, {"BHT", "250000"},
}

func (x *exchange) newDemoAccount(id string) *account {
	a := &account{
		id: id, contractID: id,
		balances:  map[string]*balance{},
		orders:    map[uint64]*order{},
		byClient:  map[string]*order{},
		positions: map[string]*position{},
	}
	for _, b := range demoBalances {
		a.balances[b[0]] = &balance{free: decimal.RequireFromString(b[1])}
	}
	a.updateTime = x.nowMs()
	x.accounts[id] = a
	return a
}

// bal returns the balance of asset, creating a zero one.
func (a *account) bal(asset string) *balance {
	b := a.balances[asset]
	if b == nil {
		b = &balance{}
		a.balances[asset] = b
	}
	if !b.dirty {
		b.dirty = true
		a.dirty = append(a.dirty, asset)
	}
	return b
}

// flushAccounts publishes one outboundAccountInfo per account with the
// balances changed since the last flush. E is strictly increasing per
// account, so balance updates never tie.
func (x *exchange) flushAccounts(now int64) {
	if x.act.batching {
		return
	}
	for _, a := range x.accountList() {
		if len(a.dirty) == 0 {
			continue
		}
		e := now
		if e <= a.updateTime {
			e = a.updateTime + 1
		}
		a.updateTime = e
		info := event.AccountInfo{EventTime: e, CanTrade: true, CanWithdraw: true, CanDeposit: true}
		for _, asset := range a.dirty {
			b := a.balances[asset]
			b.dirty = false
			info.Balances = append(info.Balances, event.BalanceChange{Asset: asset, Free: b.free.String(), Locked: b.locked.String()})
		}
		a.dirty = a.dirty[:0]
		x.emit(a.id, event.AppendAccount(nil, &info, x.encodeOpts()))
	}
}

// emit publishes one encoded event of account id on the feed and counts it.
func (x *exchange) emit(id string, obj []byte) {
	x.published++
	x.feed.publish(id, obj)
}

func (x *exchange) accountList() []*account {
	if len(x.accounts) == 1 {
		return []*account{x.demo}
	}
	return slices.SortedFunc(maps.Values(x.accounts), func(a, b *account) int { return cmp.Compare(a.id, b.id) })
}

func (x *exchange) encodeOpts() event.EncodeOptions {
	return event.EncodeOptions{Optional: x.opts.Faults.OptionalFields}
}

// execTime is the E of an order event: the server time, never before the
// account's previous order event.
func (a *account) execTime(now int64) int64 {
	if now < a.lastExecE {
		now = a.lastExecE
	}
	a.lastExecE = now
	return now
}

type balanceJSON struct {
	Asset  string `json:"asset"`
	Free   string `json:"free"`
	Locked string `json:"locked"`
}

func (s *Server) handleAccount(c *call) (any, *apiError) {
	a := c.key.account
	assets := slices.AppendSeq(make([]string, 0, len(a.balances)), maps.Keys(a.balances))
	slices.Sort(assets)
	bals := make([]balanceJSON, 0, len(assets))
	for _, k := range assets {
		b := a.balances[k]
		bals = append(bals, balanceJSON{k, b.free.String(), b.locked.String()})
	}
	return map[string]any{
		"canTrade": true, "canWithdraw": true, "canDeposit": true,
		"updateTime": a.updateTime, "balances": bals,
	}, nil
}

// AccountTruth is the account of apiKey as GET /openapi/v1/account would
// report it: asset -> [free, locked]. For tests.
func (s *Server) AccountTruth(apiKey string) map[string][2]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ki := s.keys[apiKey]
	if ki == nil {
		return nil
	}
	out := map[string][2]string{}
	for k, b := range ki.account.balances {
		out[k] = [2]string{b.free.String(), b.locked.String()}
	}
	return out
}
