package sim

import (
	"math/rand/v2"
	"sort"
	"time"
)

// wsFaults reshapes one connection's event delivery as Faults asks:
// duplicates, out-of-order release within a window, and array frames. It
// is owned by the connection's writer goroutine. The zero Faults pass
// every event through as its own text frame, in order.
type wsFaults struct {
	f    Faults
	rng  *rand.Rand
	held []heldEvent // events waiting for their release time (reordering)
}

type heldEvent struct {
	at  time.Time
	obj []byte
}

// wsMaxHeld bounds the reorder buffer: beyond it events are released at
// once (still shuffled), so a slow release never grows memory.
const wsMaxHeld = 8192

func newWSFaults(f Faults, seed int64) *wsFaults {
	return &wsFaults{f: f, rng: rand.New(rand.NewPCG(uint64(seed), 0x5eed))}
}

// accept takes a batch of events in feed order and returns the frames to
// write now (the rest is held for reordering).
func (w *wsFaults) accept(batch [][]byte, now time.Time) [][]byte {
	events := batch
	if w.f.DuplicateRate > 0 {
		events = make([][]byte, 0, len(batch)+4)
		for _, obj := range batch {
			events = append(events, obj)
			if w.rng.Float64() < w.f.DuplicateRate {
				events = append(events, obj)
			}
		}
	}
	if w.f.ReorderWindow <= 0 {
		return w.frames(events)
	}
	for _, obj := range events {
		delay := time.Duration(w.rng.Int64N(int64(w.f.ReorderWindow) + 1))
		w.held = append(w.held, heldEvent{at: now.Add(delay), obj: obj})
	}
	if len(w.held) > wsMaxHeld {
		return w.release(len(w.held))
	}
	return w.due(now)
}

// due returns the frames of held events whose release time has come,
// ordered by release time (so out of feed order within the window).
func (w *wsFaults) due(now time.Time) [][]byte {
	if len(w.held) == 0 {
		return nil
	}
	sort.SliceStable(w.held, func(i, j int) bool { return w.held[i].at.Before(w.held[j].at) })
	n := sort.Search(len(w.held), func(i int) bool { return w.held[i].at.After(now) })
	return w.release(n)
}

// release frames the first n held events and forgets them.
func (w *wsFaults) release(n int) [][]byte {
	if n == 0 {
		return nil
	}
	out := make([][]byte, n)
	for i := range n {
		out[i] = w.held[i].obj
	}
	w.held = append(w.held[:0], w.held[n:]...)
	return w.frames(out)
}

// frames turns events into text frames: one object each, or with
// ArrayFrames JSON arrays of one to four of them.
func (w *wsFaults) frames(events [][]byte) [][]byte {
	if !w.f.ArrayFrames {
		return events
	}
	var out [][]byte
	for len(events) > 0 {
		n := min(len(events), 1+w.rng.IntN(4))
		size := 2 + n - 1
		for _, e := range events[:n] {
			size += len(e)
		}
		buf := make([]byte, 0, size)
		buf = append(buf, '[')
		for i, e := range events[:n] {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, e...)
		}
		buf = append(buf, ']')
		out = append(out, buf)
		events = events[n:]
	}
	return out
}
