package stream

import (
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"bhtop/api"
	"bhtop/state"
)

// Notes for what the stream did to orders (fills, cancels, rejects, new
// orders), found by comparing a published snapshot with the one compared
// before (at most every noteEvery, so the cost of the pass over the orders
// stays bounded). The first snapshot is a baseline and makes no notes.

type orderMark struct{ status, executed string }

// orderNotes compares each published snapshot's orders with the previous
// one's and writes what changed to the events log, at most maxChangeNotes
// a second. It is used by the writer goroutine only.
type orderNotes struct {
	log *NoteLog
	now func() time.Time

	primed bool // prevOrders holds a baseline
	// prevOrders: the orders of the snapshot compared last
	prevOrders state.OrderRows

	// the rate limit
	noteWindow  time.Time
	noteBudget  int
	noteSkipped int
}

// maxChangeNotes bounds the order notes made per second, so that a busy
// account does not push connection and error notes out of the log; the
// rest are summarized in one line.
const maxChangeNotes = 10

// notePublished runs on the writer goroutine (see writer.noteChanges). It
// walks the orders that differ between the new snapshot and the previous
// one (state.OrderRows.Changes): rows and chunks of rows that did not
// change are shared by both and skipped by pointer, so the walk costs
// about what changed, and allocates nothing however many orders are
// retained.
func (s *orderNotes) notePublished(snap *state.Snapshot) {
	var changes []orderChange
	if s.primed {
		for prev, o := range snap.Orders.Changes(s.prevOrders) {
			if o == nil {
				continue // an order no longer retained
			}
			var before orderMark
			if prev != nil {
				before = orderMark{prev.Status, prev.ExecutedQty}
				if before == (orderMark{o.Status, o.ExecutedQty}) {
					continue
				}
			}
			if c := (orderChange{o, before, prev != nil}); c.what() != noNote {
				changes = append(changes, c)
			}
		}
	}
	s.prevOrders = snap.Orders
	primed := s.primed
	s.primed = s.primed || snap.Orders.Len() > 0 || snap.Account != nil
	if !primed {
		return
	}
	now := s.now()
	if now.Sub(s.noteWindow) >= time.Second {
		if s.noteSkipped > 0 {
			s.log.Add(now, NoteInfo, fmt.Sprintf("… and %d more order updates", s.noteSkipped))
		}
		s.noteWindow, s.noteBudget, s.noteSkipped = now, maxChangeNotes, 0
	}
	for _, c := range changes {
		if s.noteBudget <= 0 {
			s.noteSkipped++ // counted, not worded: the words cost more than the fold
			continue
		}
		s.noteBudget--
		kind := NoteOrder
		if c.what() == fillNote {
			kind = NoteFill
		}
		s.log.Add(now, kind, describe(c.o, c.before, c.seen))
	}
}

// orderChange is one order that changed since the snapshot compared
// before: before is what it was (zero when not seen then).
type orderChange struct {
	o      *state.Order
	before orderMark
	seen   bool
}

// noteCase is which note an order change makes.
type noteCase int

const (
	noNote noteCase = iota
	fillNote
	canceledNote
	rejectedNote
	newNote
	statusNote
)

// what classifies the change without wording it (see describe).
func (c orderChange) what() noteCase {
	o, before, seen := c.o, c.before, c.seen
	switch {
	case o.ExecutedQty != before.executed && (o.Status == api.StatusFilled || o.Status == api.StatusPartiallyFilled):
		return fillNote
	case o.Status == api.StatusCanceled:
		return canceledNote
	case o.Status == api.StatusRejected:
		return rejectedNote
	case !seen && o.Status == api.StatusNew:
		return newNote
	case o.Status != before.status && seen:
		return statusNote
	}
	return noNote
}

func describe(o *state.Order, before orderMark, seen bool) string {
	what := fmt.Sprintf("%s %s %s %s @ %s (order %s)", o.Side, o.Quantity, o.Symbol, o.Type, o.Price, o.OrderID)
	switch (orderChange{o, before, seen}).what() {
	case fillNote:
		// The price after @ is the order's: the average it filled at
		// says at what price it did (a marketable order fills below its
		// limit).
		avg := ""
		if o.AvgPrice != nil && *o.AvgPrice != "" {
			avg = " at avg " + readableAvg(*o.AvgPrice, o.Price)
		}
		return fmt.Sprintf("fill %s: executed %s%s, %s", what, o.ExecutedQty, avg, o.Status)
	case canceledNote:
		return "cancelled " + what
	case rejectedNote:
		return "rejected " + what
	case newNote:
		return "new " + what
	case statusNote:
		return fmt.Sprintf("%s %s", o.Status, what)
	}
	return ""
}

// readableAvg is the average fill price avg for reading: one that does
// not divide evenly ("100.333333333333333333") is rounded to the order's
// price's decimals + 2, and at least 8 significant digits, trailing
// zeros trimmed; one with no more decimals than that is kept as it is.
// The dump's avgPrice keeps every digit.
func readableAvg(avg, price string) string {
	a, err := decimal.NewFromString(avg)
	if err != nil || a.IsZero() {
		return avg
	}
	places := int32(2)
	if p, err := decimal.NewFromString(price); err == nil && p.Exponent() < 0 {
		places -= p.Exponent()
	}
	msd := int32(a.NumDigits()) + a.Exponent() - 1 // a's first digit is at 10^msd
	places = max(places, 7-msd)
	if -a.Exponent() <= places {
		return avg
	}
	return a.Round(places).String()
}
