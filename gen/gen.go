// Package gen writes deterministic synthetic user-stream journals for
// benchmarks and tests.
package gen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"

	"bhtop/api"
	"bhtop/event"
)

// Options shape a synthetic stream. The zero value of each field but
// Events means its default.
type Options struct {
	Events     int    // event objects to write (duplicates included, pings not)
	Seed       uint64 // same seed, same output
	OpenOrders int    // open orders to keep working at once (default 200)
	Start      int64  // E of the first event, ms (default 1700000000000)
	InOrder    bool   // no out-of-order or duplicate delivery, no arrays, no pings
}

// Frame is one frame as delivered, with its local receive time.
type Frame struct {
	Recv int64
	Data []byte
}

// Frames generates the frames of o in delivery order.
func Frames(o Options) []Frame {
	var out []Frame
	Each(o, func(f Frame) { out = append(out, f) })
	return out
}

// batch is how many objects are generated before they are delivered;
// reordering and duplicates stay within a batch, so memory stays bounded.
const batch = 8192

// Each generates the frames of o in delivery order and calls fn for each
// (each f.Data is freshly allocated and may be kept).
func Each(o Options, fn func(Frame)) {
	g := newGenerator(o)
	for g.count < o.Events {
		g.step()
		if len(g.objs) >= batch || g.count >= o.Events {
			for _, f := range g.deliver() {
				fn(f)
			}
			g.objs = g.objs[:0]
		}
	}
}

// Write writes the journal of o to w: one {"recv","frame"} line per frame.
func Write(w io.Writer, o Options) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	var err error
	Each(o, func(f Frame) {
		line = append(line[:0], `{"recv":`...)
		line = strconv.AppendInt(line, f.Recv, 10)
		line = append(line, `,"frame":`...)
		line = append(line, f.Data...)
		line = append(line, "}\n"...)
		if _, werr := bw.Write(line); werr != nil && err == nil {
			err = fmt.Errorf("write journal: %w", werr)
		}
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return nil
}

// obj is one generated event object in generation (E) order.
type obj struct {
	e    int64
	data []byte
	dup  bool
	key  int
}

type genOrder struct {
	contract           bool
	id, client, symbol string
	side, typ, tif     string
	qty, price         int64 // units of 1e-4 and 1e-2
	filled, quote      int64 // units of 1e-4 and 1e-6
	created            int64
	leverage           string
	close              bool
}

type generator struct {
	o        Options
	r        *rand.Rand
	now      int64
	count    int
	objs     []obj
	open     []*genOrder
	spotID   int64
	contID   int64
	clientN  int64
	balances map[string]int64
	lastPos  map[string]int64
	recv     int64
}

var (
	spotSymbols     = []string{"ETHBTC", "LTCBTC", "BTCUSDT", "ETHUSDT", "XRPUSDT"}
	contractSymbols = []string{"BTC-PERP-REV", "ETH-PERP-REV"}
	assets          = []string{"BTC", "ETH", "LTC", "USDT", "XRP"}
)

func newGenerator(o Options) *generator {
	if o.OpenOrders <= 0 {
		o.OpenOrders = 200
	}
	if o.Start == 0 {
		o.Start = 1700000000000
	}
	g := &generator{
		o: o, r: rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15)), now: o.Start,
		spotID: 4293153, contID: 469961015902208000, clientN: 1000087761,
		balances: map[string]int64{}, lastPos: map[string]int64{},
	}
	for _, a := range assets {
		g.balances[a] = 1_000_000_0000 + g.r.Int64N(1_000_000_0000)
	}
	return g
}

// step generates one event object.
func (g *generator) step() {
	g.now += 1 + g.r.Int64N(3) // every event has its own E
	n := len(g.open)
	wNew := 5
	if n < g.o.OpenOrders {
		wNew = 40
	}
	wClose := 5
	if n >= g.o.OpenOrders {
		wClose = 30
	}
	if n == 0 {
		wClose = 0
	}
	wFill := 35
	if n == 0 {
		wFill = 0
	}
	x := g.r.IntN(wNew + wFill + wClose + 15 + 5)
	switch {
	case x < wNew:
		g.newOrder()
	case x < wNew+wFill:
		g.fill(g.open[g.r.IntN(n)], false)
	case x < wNew+wFill+wClose:
		i := g.r.IntN(n)
		if g.r.IntN(3) == 0 {
			g.cancel(i)
		} else {
			g.fill(g.open[i], true)
		}
	case x < wNew+wFill+wClose+15:
		g.account()
	default:
		g.position()
	}
}

func (g *generator) newOrder() {
	o := &genOrder{contract: g.r.IntN(4) == 0, side: "BUY", typ: "LIMIT", tif: "GTC", created: g.now}
	if g.r.IntN(2) == 0 {
		o.side = "SELL"
	}
	o.qty = (1 + g.r.Int64N(500)) * 100
	o.price = 100 + g.r.Int64N(1_000_000)
	g.clientN++
	if o.contract {
		g.contID += 1 + g.r.Int64N(5000)
		o.id = strconv.FormatInt(g.contID, 10)
		o.client = "c" + strconv.FormatInt(g.clientN, 36)
		o.symbol = contractSymbols[g.r.IntN(len(contractSymbols))]
		o.leverage = strconv.Itoa(1 + g.r.IntN(20))
		o.close = g.r.IntN(4) == 0
		o.tif = "IOC"
	} else {
		g.spotID += 1 + g.r.Int64N(3)
		o.id = strconv.FormatInt(g.spotID, 10)
		o.client = strconv.FormatInt(g.clientN, 10)
		if g.r.IntN(3) == 0 {
			o.client = "bh-" + strconv.FormatInt(g.clientN, 36)
		}
		o.symbol = spotSymbols[g.r.IntN(len(spotSymbols))]
	}
	if g.r.IntN(50) == 0 {
		g.emitOrder(o, api.StatusRejected, 0)
		return
	}
	g.open = append(g.open, o)
	g.emitOrder(o, api.StatusNew, 0)
}

// fill executes part of o (or all of it when all is set).
func (g *generator) fill(o *genOrder, all bool) {
	left := o.qty - o.filled
	l := left
	if !all && left > 100 {
		l = 1 + g.r.Int64N(left-1)
	}
	o.filled += l
	o.quote += l * o.price
	status := api.StatusPartiallyFilled
	if o.filled == o.qty {
		status = api.StatusFilled
		g.remove(o)
	}
	g.emitOrder(o, status, l)
	if o.contract {
		g.positionOf(o.symbol)
	}
}

func (g *generator) cancel(i int) {
	o := g.open[i]
	g.remove(o)
	g.emitOrder(o, api.StatusCanceled, 0)
}

func (g *generator) remove(o *genOrder) {
	for i, p := range g.open {
		if p == o {
			g.open[i] = g.open[len(g.open)-1]
			g.open = g.open[:len(g.open)-1]
			return
		}
	}
}

func (g *generator) emitOrder(o *genOrder, status string, last int64) {
	r := event.ExecutionReport{
		Contract: o.contract, EventTime: g.now, Symbol: o.symbol, ClientOrderID: o.client,
		Side: o.side, Type: o.typ, TimeInForce: o.tif, Quantity: fixed(o.qty, 4), Price: fixed(o.price, 2),
		Status: status, OrderID: o.id, LastQty: fixed(last, 4), CumQty: fixed(o.filled, 4),
		LastPrice: fixed(o.price, 2), Commission: "0", Working: true, Maker: g.r.IntN(2) == 0,
		Created: o.created, CumQuote: fixed(o.quote, 6), Close: o.close, Leverage: o.leverage,
	}
	if o.contract {
		r.CommissionAsset = "USDT"
	}
	opt := event.EncodeOptions{Optional: g.r.IntN(10) == 0}
	g.add(event.AppendExecution(nil, &r, opt))
}

func (g *generator) account() {
	a := event.AccountInfo{EventTime: g.now, CanTrade: true, CanWithdraw: g.r.IntN(20) != 0, CanDeposit: true}
	for k := 1 + g.r.IntN(3); k > 0; k-- {
		asset := assets[g.r.IntN(len(assets))]
		g.balances[asset] += g.r.Int64N(2_000_000) - 1_000_000
		free := g.balances[asset]
		a.Balances = append(a.Balances, event.BalanceChange{Asset: asset, Free: fixed(free, 8), Locked: fixed(g.r.Int64N(100000), 8)})
	}
	g.add(event.AppendAccount(nil, &a, event.EncodeOptions{Optional: g.r.IntN(10) == 0}))
}

func (g *generator) position() { g.positionOf(contractSymbols[g.r.IntN(len(contractSymbols))]) }

func (g *generator) positionOf(symbol string) {
	side := "LONG"
	if g.r.IntN(2) == 0 {
		side = "SHORT"
	}
	total := g.r.Int64N(5000)
	p := event.PositionInfo{
		AccountID: "1", Symbol: symbol, Side: side, AvgPrice: fixed(800000+g.r.Int64N(100000), 2),
		Total: strconv.FormatInt(total, 10), Available: strconv.FormatInt(total, 10),
		LiquidationPrice: fixed(700000+g.r.Int64N(50000), 2), Margin: fixed(g.r.Int64N(1000000), 8),
		RealizedPnl: fixed(g.r.Int64N(20000)-10000, 8),
	}
	g.add(event.AppendPosition(nil, &p, event.EncodeOptions{}))
}

func (g *generator) add(b []byte) {
	if g.count >= g.o.Events {
		return // a step may emit two objects: never more than asked
	}
	g.objs = append(g.objs, obj{e: g.now, data: b})
	g.count++
	if !g.o.InOrder && g.count < g.o.Events && g.r.IntN(50) == 0 {
		g.count++ // a duplicate, delivered later
		g.objs = append(g.objs, obj{e: g.now, data: b, dup: true})
	}
}

// fixed formats n × 10^-scale.
func fixed(n int64, scale int) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

// deliver turns the generated objects into frames: some are delayed (out
// of order), duplicates arrive later than the original, a few frames are
// arrays of several objects, and a few are heartbeats.
func (g *generator) deliver() []Frame {
	objs := g.objs
	for i := range objs {
		objs[i].key = i * 4
		if g.o.InOrder {
			continue
		}
		switch {
		case objs[i].dup:
			objs[i].key += 4 * (1 + g.r.IntN(20))
		case g.r.IntN(15) == 0:
			objs[i].key += 4*(1+g.r.IntN(8)) + 2
		}
	}
	slices.SortStableFunc(objs, func(a, b obj) int { return a.key - b.key })
	var frames []Frame
	recv := g.recv
	for i := 0; i < len(objs); {
		n := 1
		if !g.o.InOrder && g.r.IntN(20) == 0 {
			n = 2 + g.r.IntN(3)
		}
		n = min(n, len(objs)-i)
		var data []byte
		maxE := int64(0)
		if n > 1 {
			data = append(data, '[')
		}
		for k := 0; k < n; k++ {
			if k > 0 {
				data = append(data, ',')
			}
			data = append(data, objs[i+k].data...)
			maxE = max(maxE, objs[i+k].e)
		}
		if n > 1 {
			data = append(data, ']')
		}
		i += n
		recv = max(recv, maxE+2+g.r.Int64N(3))
		frames = append(frames, Frame{Recv: recv, Data: data})
		if !g.o.InOrder && g.r.IntN(100) == 0 {
			frames = append(frames, Frame{Recv: recv, Data: []byte(`{"ping":` + strconv.FormatInt(recv, 10) + `}`)})
		}
	}
	g.recv = recv
	return frames
}
