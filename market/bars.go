package market

// Bars is one series of Snapshot.Candles, oldest first. Every push
// rewrites the newest bar, so a snapshot holds its own copy of that one
// and shares the older bars with the store and with the snapshots before
// and after it: publishing a series costs no copy of its history (see
// Store.Publish). The zero value is an empty series. Like the rest of a
// Snapshot, it is read-only.
type Bars struct {
	older  []Candle // every bar but the newest; never changed once published
	newest Candle
	any    bool // newest is a bar
}

// NewBars makes a series of cs (oldest first), which it keeps: cs must
// not change afterwards.
func NewBars(cs []Candle) Bars {
	n := len(cs)
	if n == 0 {
		return Bars{}
	}
	return Bars{older: cs[: n-1 : n-1], newest: cs[n-1], any: true}
}

// Len is the number of bars.
func (b Bars) Len() int {
	if !b.any {
		return 0
	}
	return len(b.older) + 1
}

// At is bar i, 0 the oldest; it panics outside [0, Len).
func (b Bars) At(i int) Candle {
	if i == len(b.older) && b.any {
		return b.newest
	}
	return b.older[i]
}

// Tail is a new slice of the newest n bars (every bar when n >= Len),
// oldest first: the caller may change it.
func (b Bars) Tail(n int) []Candle {
	n = max(0, min(n, b.Len()))
	if n == 0 {
		return nil
	}
	out := make([]Candle, 0, n)
	out = append(out, b.older[len(b.older)-(n-1):]...)
	return append(out, b.newest)
}

// All is a new slice of every bar, oldest first (Tail(Len())).
func (b Bars) All() []Candle { return b.Tail(b.Len()) }
