package engine

// Trade is one execution on the public tape: price in ticks, quantity in
// lots, time in ms. BuyerMaker is true when the resting (maker) order was
// the buy. Maker and Taker are the orders that met (set on the trades a
// match returns, nil on the tape's copies).
type Trade struct {
	ID         uint64
	Time       int64
	Price, Qty int64
	BuyerMaker bool
	Maker      *Order
	Taker      *Order
}

// tapeSize is how many trades each symbol's tape keeps.
const tapeSize = 1000

// tape is a ring of the newest trades of one symbol.
type tape struct {
	ring  [tapeSize]Trade
	n     int // trades held, at most tapeSize
	next  int // index of the next write
	total uint64
}

func (t *tape) add(tr Trade) {
	tr.Maker, tr.Taker = nil, nil
	t.ring[t.next] = tr
	t.next = (t.next + 1) % tapeSize
	if t.n < tapeSize {
		t.n++
	}
	t.total++
}

// newest appends up to n trades with ids above after, newest first.
func (t *tape) newest(dst []Trade, n int, after uint64) []Trade {
	for i := 0; i < t.n && i < n; i++ {
		tr := t.ring[(t.next-1-i+2*tapeSize)%tapeSize]
		if tr.ID <= after {
			break
		}
		dst = append(dst, tr)
	}
	return dst
}
