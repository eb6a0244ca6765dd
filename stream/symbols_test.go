package stream

import (
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"bhtop/event"
	"bhtop/internal/testkit"
)

// watcher is a SymbolWatcher wanting the symbols in want; at each
// Recheck it records whether the hub's latest state held them.
type watcher struct {
	s    *Session
	want []string

	mu      sync.Mutex
	asked   [][]string
	checked []bool // per Recheck: the published state held an open order on each wanted symbol
}

func (w *watcher) Wants(symbols, assets []string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = append(w.asked, append(slices.Clone(symbols), assets...))
	return slices.ContainsFunc(symbols, func(s string) bool { return slices.Contains(w.want, s) })
}

func (w *watcher) Recheck() {
	open := map[string]bool{}
	for _, o := range w.s.Hub().Latest().Orders.All() {
		open[o.Symbol] = open[o.Symbol] || o.Open()
	}
	held := true
	for _, sym := range w.want {
		held = held && open[sym]
	}
	w.mu.Lock()
	w.checked = append(w.checked, held)
	w.mu.Unlock()
}

func (w *watcher) state() (asked [][]string, checked []bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.asked), slices.Clone(w.checked)
}

// TestNewSymbolsPublishedAndRechecked: the writer asks the symbol
// watcher about each order that opens on a symbol (once in a row); when
// it wants one, the state holding it is published at once, long before
// PublishIdle, and only then is the watcher asked to look.
func TestNewSymbolsPublishedAndRechecked(t *testing.T) {
	w := &watcher{want: []string{"LTCBTC"}}
	s := writerOnly(t, "ws://127.0.0.1:1", Config{Symbols: w, PublishIdle: time.Hour})
	w.s = s
	order := func(id string, e int64, sym, status string) []byte {
		r := event.ExecutionReport{EventTime: e, Symbol: sym, ClientOrderID: "c" + id, Side: "BUY", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "1", Price: "0.1", Status: status, OrderID: id, LastQty: "0", CumQty: "0",
			LastPrice: "0", Commission: "0", Working: true, Created: 1, CumQuote: "0"}
		return event.AppendExecution(nil, &r, event.EncodeOptions{})
	}
	s.in <- item{frame: order("1", 10, "ETHBTC", "NEW")}
	s.in <- item{frame: order("1", 11, "ETHBTC", "CANCELED")}
	s.do(func(*writer) {})
	v := s.Hub().Latest().Version
	s.in <- item{frame: order("2", 12, "ETHBTC", "NEW")}
	s.in <- item{frame: order("3", 13, "LTCBTC", "NEW")}
	testkit.Eventually(t, 5*time.Second, func() bool { _, c := w.state(); return len(c) > 0 }, "a recheck")
	asked, checked := w.state()
	if want := [][]string{{"ETHBTC"}, {"ETHBTC"}, {"LTCBTC"}}; !slices.EqualFunc(asked, want, slices.Equal) {
		t.Errorf("asked about %q, want %q", asked, want)
	}
	if !slices.Equal(checked, []bool{true}) {
		t.Errorf("rechecks found the LTCBTC order published: %v, want [true]", checked)
	}
	if got := s.Hub().Latest().Version; got != v+1 {
		t.Errorf("version %d after %d: want one publication, for the wanted symbol (PublishIdle is an hour)", got, v)
	}
}

// TestNewSymbolsPublishAtTheWritersPace: while the watcher still wants a
// symbol (the market client has not followed it yet, or its session is
// down), a burst of orders opening on it publishes no more often than
// the writer's pace (publishGap) allows: not a snapshot per frame.
func TestNewSymbolsPublishAtTheWritersPace(t *testing.T) {
	w := &watcher{want: []string{"LTCBTC"}}
	// PublishEvery an hour: the gap between two publications is minutes.
	s := writerOnly(t, "ws://127.0.0.1:1", Config{Symbols: w, PublishEvery: time.Hour, PublishIdle: time.Hour})
	w.s = s
	s.do(func(*writer) {})
	v := s.Hub().Latest().Version
	for n := range 200 {
		r := event.ExecutionReport{EventTime: int64(10 + n), Symbol: "LTCBTC", ClientOrderID: "c", Side: "BUY", Type: "LIMIT",
			TimeInForce: "GTC", Quantity: "1", Price: "0.1", Status: "NEW", OrderID: strconv.Itoa(n + 1), LastQty: "0", CumQty: "0",
			LastPrice: "0", Commission: "0", Working: true, Created: 1, CumQuote: "0"}
		s.in <- item{frame: event.AppendExecution(nil, &r, event.EncodeOptions{})}
	}
	s.do(func(*writer) {})
	if got := s.Hub().Latest().Version - v; got > 2 {
		t.Errorf("%d publications for 200 orders on a wanted symbol within the writer's gap, want at most 2", got)
	}
}
