// Package engine matches orders on price-time order books and keeps each
// symbol's public tape and klines; it does no I/O and is not safe for
// concurrent use (the simulator guards it with its lock).
package engine

import "sort"

// Side is the side of an order: Buy or Sell.
type Side uint8

// The two sides of a book.
const (
	Buy Side = iota
	Sell
)

// Order is a limit order on a book. Price is in ticks and Qty (what is
// left of it) in lots of the market. Ref is the owner's own record of the
// order; nil marks the simulated market's orders.
type Order struct {
	ID    uint64
	Side  Side
	Price int64
	Qty   int64
	Ref   any
	lvl   *level
}

// Resting reports whether the order is on a book.
func (o *Order) Resting() bool { return o.lvl != nil }

// level is one price of one side: its orders in time order.
type level struct {
	price  int64
	total  int64
	orders []*Order
}

// half is one side of a book. Its levels are sorted from the worst price
// to the best, so the best is last and taking it is cheap.
type half struct {
	bids   bool
	levels []*level
}

// better reports whether price a is better than b on this side.
func (h *half) better(a, b int64) bool {
	if h.bids {
		return a > b
	}
	return a < b
}

// find returns the index where a level of price is or would go.
func (h *half) find(price int64) (int, bool) {
	i := sort.Search(len(h.levels), func(i int) bool { return !h.better(price, h.levels[i].price) })
	return i, i < len(h.levels) && h.levels[i].price == price
}

func (h *half) best() *level {
	if len(h.levels) == 0 {
		return nil
	}
	return h.levels[len(h.levels)-1]
}

func (h *half) add(o *Order) {
	i, ok := h.find(o.Price)
	if !ok {
		h.levels = append(h.levels, nil)
		copy(h.levels[i+1:], h.levels[i:])
		h.levels[i] = &level{price: o.Price}
	}
	l := h.levels[i]
	l.orders = append(l.orders, o)
	l.total += o.Qty
	o.lvl = l
}

func (h *half) drop(l *level) {
	if i, ok := h.find(l.price); ok {
		copy(h.levels[i:], h.levels[i+1:])
		h.levels[len(h.levels)-1] = nil
		h.levels = h.levels[:len(h.levels)-1]
	}
}

// remove takes o off its level, and the level off the side when empty.
func (h *half) remove(o *Order) {
	l := o.lvl
	for i, x := range l.orders {
		if x == o {
			copy(l.orders[i:], l.orders[i+1:])
			l.orders[len(l.orders)-1] = nil
			l.orders = l.orders[:len(l.orders)-1]
			break
		}
	}
	l.total -= o.Qty
	o.lvl = nil
	if len(l.orders) == 0 {
		h.drop(l)
	}
}

// Level is one aggregated price level: price in ticks, quantity in lots.
type Level struct {
	Price, Qty int64
}

// levels appends up to n levels from the best.
func (h *half) top(dst []Level, n int) []Level {
	for i := len(h.levels) - 1; i >= 0 && len(dst) < n; i-- {
		dst = append(dst, Level{h.levels[i].price, h.levels[i].total})
	}
	return dst
}

// Book is one symbol's order book.
type Book struct {
	bids, asks half
}

func newBook() *Book { return &Book{bids: half{bids: true}} }

func (b *Book) side(s Side) *half {
	if s == Buy {
		return &b.bids
	}
	return &b.asks
}

// Best returns the best price of a side and whether there is one.
func (b *Book) Best(s Side) (price, qty int64, ok bool) {
	l := b.side(s).best()
	if l == nil {
		return 0, 0, false
	}
	return l.price, l.total, true
}

// Depth appends up to n levels of a side, best first.
func (b *Book) Depth(s Side, n int, dst []Level) []Level { return b.side(s).top(dst, n) }

// crosses reports whether an order of side at price would take a resting
// order of the other side at p.
func crosses(side Side, price, p int64) bool {
	if side == Buy {
		return p <= price
	}
	return p >= price
}

// Crosses reports whether an order of side at price would trade at once.
func (b *Book) Crosses(side Side, price int64) bool {
	p, _, ok := b.Best(other(side))
	return ok && crosses(side, price, p)
}

// Available is the quantity an order of side could take at price or
// better (for fill-or-kill).
func (b *Book) Available(side Side, price int64) int64 {
	h := b.side(other(side))
	var n int64
	for i := len(h.levels) - 1; i >= 0 && crosses(side, price, h.levels[i].price); i-- {
		n += h.levels[i].total
	}
	return n
}

func other(s Side) Side { return 1 - s }
