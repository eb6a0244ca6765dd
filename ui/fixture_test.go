package ui

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"bhtop/actions"
	"bhtop/rest"
	"bhtop/state"
	"bhtop/upstream"
)

// t0 is the fixed "now" of every test screen.
var t0 = time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

// testBackend serves real snapshots through a real state.Hub.
type testBackend struct {
	hub    state.Hub
	notes  upstream.NoteLog
	status atomic.Pointer[upstream.Status] // replaced whole by setStatus
	syms   []rest.Symbol

	symbolCalls, keepalives, resyncs atomic.Int32
	resyncErr                        error // what Resync answers
}

func newTestBackend(s *state.Snapshot) *testBackend {
	b := &testBackend{syms: testSymbols()}
	b.setStatus(liveStatus())
	if s != nil {
		b.hub.Publish(s)
	}
	b.notes.Add(t0.Add(-90*time.Second), upstream.NoteConnect, "connected to the user stream")
	b.notes.Add(t0.Add(-80*time.Second), upstream.NoteResync, "snapshot applied: 3 balances, 4 open orders")
	b.notes.Add(t0.Add(-40*time.Second), upstream.NoteFill, "fill BUY 0.5 ETHBTC @ 0.0345")
	b.notes.Add(t0.Add(-20*time.Second), upstream.NoteOrder, "rejected SELL 9 BTCUSDT: -2010 insufficient balance")
	b.notes.Add(t0.Add(-5*time.Second), upstream.NoteKeepalive, "keepalive ok, key expires 10:30:00")
	return b
}

func (b *testBackend) Hub() *state.Hub                              { return &b.hub }
func (b *testBackend) Status() upstream.Status                      { return *b.status.Load() }
func (b *testBackend) setStatus(s upstream.Status)                  { b.status.Store(&s) }
func (b *testBackend) Notes(after uint64) ([]upstream.Note, uint64) { return b.notes.Since(after) }
func (b *testBackend) Keepalive(context.Context) (time.Time, error) {
	b.keepalives.Add(1)
	return t0.Add(time.Hour), nil
}
func (b *testBackend) Resync(context.Context) error {
	b.resyncs.Add(1)
	return b.resyncErr
}
func (b *testBackend) Symbols(context.Context) ([]rest.Symbol, error) {
	b.symbolCalls.Add(1)
	return b.syms, nil
}

// testTrader records every call and answers with a fixed outcome.
type testTrader struct {
	mu      sync.Mutex
	placed  []rest.OrderRequest
	cancels []rest.CancelRequest
	// contract orders and cancel-all runs
	contract   []rest.ContractOrderRequest
	cancelAlls [][]actions.Target
	outcome    rest.Outcome
	// hold, when set, keeps CancelAll from returning until it is closed,
	// so a test can press keys while a cancel-all is surely running.
	hold chan struct{}
}

func (t *testTrader) PlaceOrder(_ context.Context, req rest.OrderRequest) rest.OrderResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.placed = append(t.placed, req)
	out := t.outcome
	if out == "" {
		out = rest.OutcomeAccepted
	}
	res := rest.OrderResult{Outcome: out, OrderID: "9001", ClientOrderID: "ui-test-1", Symbol: req.Symbol, Status: "NEW", HTTPStatus: 200}
	if out == rest.OutcomeRejected {
		res.HTTPStatus, res.Code, res.Msg = 400, -2010, "insufficient balance"
	}
	if out == rest.OutcomeUnknown {
		res.HTTPStatus = 504
	}
	return res
}

func (t *testTrader) CancelOrder(_ context.Context, req rest.CancelRequest) rest.OrderResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cancels = append(t.cancels, req)
	return rest.OrderResult{Outcome: rest.OutcomeAccepted, OrderID: req.OrderID, Status: "CANCELED", HTTPStatus: 200}
}

func (t *testTrader) PlaceContractOrder(_ context.Context, req rest.ContractOrderRequest) rest.OrderResult {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.contract = append(t.contract, req)
	return rest.OrderResult{Outcome: rest.OutcomeAccepted, OrderID: "9002", ClientOrderID: "ui-test-2", Symbol: req.Symbol, Status: "NEW", HTTPStatus: 200}
}

func (t *testTrader) Contracts(context.Context) ([]rest.ContractSymbol, error) {
	return testContracts(), nil
}

// CancelAll counts every target cancelled but the last, which closed
// meanwhile, reporting progress after each.
func (t *testTrader) CancelAll(_ context.Context, ts []actions.Target, progress func(actions.Summary)) actions.Summary {
	if t.hold != nil {
		<-t.hold
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cancelAlls = append(t.cancelAlls, ts)
	sum := actions.Summary{Total: len(ts), Errors: []string{}}
	for i := range ts {
		if i == len(ts)-1 && i > 0 {
			sum.AlreadyClosed++
		} else {
			sum.Cancelled++
		}
		if progress != nil {
			progress(sum)
		}
	}
	return sum
}

func (t *testTrader) calls() (placed, canceled int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.placed) + len(t.contract), len(t.cancels) + len(t.cancelAlls)
}

func testContracts() []rest.ContractSymbol {
	return []rest.ContractSymbol{
		{Symbol: rest.Symbol{Symbol: "BTC-PERP", Status: "TRADING", BaseAsset: "BTC", QuoteAsset: "USDT", MinPrice: "0.1", MaxPrice: "1000000", TickSize: "0.1", MinQty: "1", MaxQty: "100000", StepSize: "1", MinNotional: "5"},
			Multiplier: "0.001", MarginAsset: "USDT"},
		{Symbol: rest.Symbol{Symbol: "ETH-PERP", Status: "TRADING", BaseAsset: "ETH", QuoteAsset: "USDT", MinPrice: "0.01", MaxPrice: "100000", TickSize: "0.01", MinQty: "1", MaxQty: "100000", StepSize: "1", MinNotional: "5"},
			Multiplier: "0.01", MarginAsset: "USDT"},
	}
}

func liveStatus() upstream.Status {
	return upstream.Status{
		State:         upstream.StateLive,
		Simulated:     true,
		KeyCreated:    t0.Add(-12 * time.Minute),
		KeyExpires:    t0.Add(48 * time.Minute),
		LastKeepalive: t0.Add(-5 * time.Second),
		NextKeepalive: t0.Add(18 * time.Minute),
		ConnectedAt:   t0.Add(-62 * time.Minute),
		ConnMaxAge:    24 * time.Hour,
		LastFrame:     t0.Add(-2 * time.Second),
		LastSnapshot:  t0.Add(-80 * time.Second),
		EventsPerSec:  4.2,
		ClockOffset:   3 * time.Millisecond,
		WeightUsed:    12,
		WeightLimit:   1500,
	}
}

func testSymbols() []rest.Symbol {
	return []rest.Symbol{
		{Symbol: "BTCUSDT", Status: "TRADING", BaseAsset: "BTC", QuoteAsset: "USDT", MinPrice: "0.01", MaxPrice: "1000000", TickSize: "0.01", MinQty: "0.0001", MaxQty: "1000", StepSize: "0.0001", MinNotional: "10"},
		{Symbol: "ETHBTC", Status: "TRADING", BaseAsset: "ETH", QuoteAsset: "BTC", MinPrice: "0.000001", MaxPrice: "100", TickSize: "0.000001", MinQty: "0.001", MaxQty: "10000", StepSize: "0.001", MinNotional: "0.001"},
		{Symbol: "ETHUSDT", Status: "TRADING", BaseAsset: "ETH", QuoteAsset: "USDT", MinPrice: "0.01", MaxPrice: "100000", TickSize: "0.01", MinQty: "0.001", MaxQty: "5000", StepSize: "0.001", MinNotional: "10"},
	}
}

func ptr[T any](v T) *T { return &v }

// testSnapshot is a small account: balances (one zero), spot and
// contract orders open and closed, a pending and an unknown order, and
// two positions.
func testSnapshot() *state.Snapshot {
	ms := func(d time.Duration) int64 { return t0.Add(-d).UnixMilli() }
	return &state.Snapshot{
		Version: 7,
		Account: &state.Account{CanTrade: true, CanWithdraw: true, CanDeposit: true, Updated: ms(time.Second)},
		Balances: []state.Balance{
			{Asset: "BTC", Free: "1.23456789", Locked: "0.5", Updated: ms(time.Minute)},
			{Asset: "DOGE", Free: "0", Locked: "0", Updated: ms(time.Hour)},
			{Asset: "ETH", Free: "12.5", Locked: "0", Updated: ms(time.Minute)},
			{Asset: "USDT", Free: "10250.75", Locked: "1034.5", Updated: ms(time.Minute)},
		},
		Orders: state.NewOrderRows([]*state.Order{
			{Market: "contract", Symbol: "BTC-PERP", OrderID: "77", ClientOrderID: "c77", Side: "BUY_OPEN", Type: "LIMIT", TimeInForce: "GTC", Price: "60000", Quantity: "2", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true, Created: ms(3 * time.Hour), Leverage: ptr("10"), Close: ptr(false)},
			{Market: "spot", Symbol: "BTCUSDT", OrderID: "1001", ClientOrderID: "a1", Side: "BUY", Type: "LIMIT", TimeInForce: "GTC", Price: "61000.5", Quantity: "0.01", ExecutedQty: "0.004", CumulativeQuoteQty: "244.002", AvgPrice: ptr("61000.5"), Status: "PARTIALLY_FILLED", Working: true, Created: ms(5 * time.Minute)},
			{Market: "spot", Symbol: "ETHBTC", OrderID: "1002", ClientOrderID: "a2", Side: "SELL", Type: "LIMIT_MAKER", Price: "0.0345", Quantity: "1.5", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true, Created: ms(50 * time.Second)},
			{Market: "spot", Symbol: "ETHUSDT", OrderID: "1003", ClientOrderID: "a3", Side: "BUY", Type: "LIMIT", TimeInForce: "IOC", Price: "2100", Quantity: "3", ExecutedQty: "3", CumulativeQuoteQty: "6299.7", AvgPrice: ptr("2099.9"), Status: "FILLED", Created: ms(2 * time.Hour)},
			{Market: "spot", Symbol: "BTCUSDT", OrderID: "1004", ClientOrderID: "a4", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC", Price: "65000", Quantity: "0.25", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "CANCELED", Created: ms(26 * time.Hour)},
			{Market: "spot", Symbol: "ETHUSDT", OrderID: "1005", ClientOrderID: "a5", Side: "SELL", Type: "LIMIT", TimeInForce: "GTC", Price: "2500.25", Quantity: "10", ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true, Created: ms(30 * time.Minute)},
		}...),
		Positions: []state.Position{
			{AccountID: "1", Symbol: "BTC-PERP", Side: "LONG", AvgPrice: "59800.5", Total: "3", Available: "2", LiquidationPrice: "41000", Margin: "17940.15", RealizedPnl: "120.5"},
			{AccountID: "1", Symbol: "ETH-PERP", Side: "SHORT", AvgPrice: "2150", Total: "10", Available: "10", LiquidationPrice: "2800.75", Margin: "2150", RealizedPnl: "-35.25"},
		},
		Pending: []state.Pending{
			{ClientOrderID: "bh-1", Symbol: "ETHUSDT", Side: "BUY", Status: state.PendingSent, Since: ms(time.Second)},
			{ClientOrderID: "bh-2", Symbol: "BTCUSDT", Side: "SELL", Status: state.PendingUnknown, Since: ms(4 * time.Second), Reason: "HTTP 504"},
		},
		Fills: []state.Fill{
			{Market: "spot", Symbol: "BTCUSDT", OrderID: "1001", TradeID: "5001", Side: "BUY", Price: "61000.5", Qty: "0.004", QuoteQty: "244.002", Commission: "0.000004", CommissionAsset: "BTC", Maker: true, Time: ms(4 * time.Minute)},
			{Market: "contract", Symbol: "BTC-PERP", OrderID: "70", TradeID: "5002", Side: "SELL_CLOSE", Price: "61200", Qty: "1", QuoteQty: "61.2", Commission: "0.03672", CommissionAsset: "USDT", Time: ms(3 * time.Minute), RealizedPnl: "1.4"},
			{Market: "spot", Symbol: "ETHUSDT", OrderID: "1003", TradeID: "5003", Side: "BUY", Price: "2099.9", Qty: "3", QuoteQty: "6299.7", Commission: "6.2997", CommissionAsset: "USDT", Time: ms(2 * time.Minute)},
			{Market: "contract", Symbol: "ETH-PERP", OrderID: "71", TradeID: "5004", Side: "SELL_OPEN", Price: "2150", Qty: "10", QuoteQty: "215", Commission: "0.129", CommissionAsset: "USDT", Time: ms(time.Minute), RealizedPnl: "-0.5"},
		},
		Stats:         state.Stats{Events: 120, Applied: 118, Stale: 2},
		LastEventTime: ms(150 * time.Millisecond),
	}
}

// bigSnapshot has n open orders, nb balances and np positions.
func bigSnapshot(n, nb, np int) *state.Snapshot {
	s := &state.Snapshot{Version: 1, LastEventTime: t0.UnixMilli()}
	for i := range nb {
		s.Balances = append(s.Balances, state.Balance{Asset: fmt.Sprintf("A%04d", i), Free: fmt.Sprintf("%d.%d", i*37, i%97), Locked: fmt.Sprintf("%d", i%5)})
	}
	rows := make([]*state.Order, 0, n)
	for i := range n {
		rows = append(rows, &state.Order{
			Market: "spot", Symbol: fmt.Sprintf("S%03dUSDT", i%300), OrderID: fmt.Sprint(100000 + i), ClientOrderID: fmt.Sprint("c", i),
			Side: []string{"BUY", "SELL"}[i%2], Type: "LIMIT", TimeInForce: "GTC",
			Price: fmt.Sprintf("%d.%02d", 100+i%1000, i%100), Quantity: fmt.Sprintf("%d.%03d", 1+i%7, i%1000),
			ExecutedQty: "0", CumulativeQuoteQty: "0", Status: "NEW", Working: true, Created: t0.Add(-time.Duration(i) * time.Second).UnixMilli(),
		})
	}
	s.Orders = state.NewOrderRows(rows...)
	for i := range np {
		s.Positions = append(s.Positions, state.Position{AccountID: "1", Symbol: fmt.Sprintf("P%03d-PERP", i), Side: []string{"LONG", "SHORT"}[i%2],
			AvgPrice: fmt.Sprintf("%d.5", 1000+i), Total: fmt.Sprint(i + 1), Available: fmt.Sprint(i), LiquidationPrice: fmt.Sprintf("%d", 500+i),
			Margin: fmt.Sprintf("%d.25", 100+i), RealizedPnl: fmt.Sprintf("-%d.1", i)})
	}
	return s
}
