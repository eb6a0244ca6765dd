package sim

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/sim/engine"
)

// exchange is the simulator's matching side, apart from its HTTP and
// WebSocket front end (Server): accounts and their balances, orders and
// positions, the books, tapes and klines (engine), the synthetic market
// and background activity, and the account events it publishes to the
// feed. It knows nothing of requests, keys or rate limits; the front end
// parses a request, checks it and calls the exchange under mu.
type exchange struct {
	opts *Options // the server's
	feed feed

	// mu guards the exchange (and the front end's listen keys). Events
	// are published under it, so they leave in change order.
	mu         sync.Mutex
	rnd        *rand.Rand
	accounts   map[string]*account
	demo       *account
	eng        *engine.Engine // books, tapes and klines of every symbol
	symbols    map[string]*symbol
	symbolList []*symbol // in brokerInfo order
	nextSpotID uint64
	nextCtrID  uint64
	nextClient uint64
	act        activityState
	published  uint64 // events published so far
	makerRate  decimal.Decimal
}

// newExchange builds the markets of opts and the demo account ("1").
func newExchange(opts *Options) *exchange {
	x := &exchange{
		opts:       opts,
		rnd:        rand.New(rand.NewPCG(uint64(opts.Seed), 0x9e3779b97f4a7c15)),
		accounts:   map[string]*account{},
		nextSpotID: 1_000_000_000_000,
		nextCtrID:  469_961_015_902_208_000,
		nextClient: 1_000_000_000,
		makerRate:  makerRate,
	}
	if opts.MakerRate != "" {
		x.makerRate = decimal.RequireFromString(opts.MakerRate)
	}
	x.initMarkets()
	x.demo = x.newDemoAccount("1")
	for range opts.RestingOrders {
		x.activityPlace(x.nowMs())
	}
	return x
}

// Now is the exchange clock: Options.Now plus Options.Skew.
func (x *exchange) Now() time.Time { return x.opts.Now().Add(x.opts.Skew) }

func (x *exchange) nowMs() int64 { return x.Now().UnixMilli() }

func (x *exchange) locked(f func()) {
	x.mu.Lock()
	defer x.mu.Unlock()
	f()
}
