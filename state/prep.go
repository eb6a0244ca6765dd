package state

import (
	"unsafe"

	"bhtop/event"
)

// prep is what folding an order update needs that depends on the update
// alone: the order id's numKey, the status rank, whether l > 0 and z's
// value (decValue). The writer computes it as it folds (ApplyFrame,
// ApplyEvents), or the goroutine that decoded the event did
// (PrepareEvents, for ApplyPrepared), sparing the one writer that work.
type prep struct {
	idKey uint64 // numKey(OrderID)
	zSig  uint64 // decValue(CumQty)'s significant digits, when prepZ
	zExp  int32  // and its exponent (a z of at most 19 digits: |exp| is small)
	flags uint32 // prepFull, prepLPos, prepZ; the rank in prepRankShift's bits
}

const (
	prepFull      = 1 << iota // every field computed: lPos and z are known
	prepLPos                  // l > 0
	prepZ                     // z is present, its value is (zSig, zExp), and the order id is a number
	prepRankShift = 8
)

// PrepWords is how many uint64 words PrepareEvents appends per event.
const PrepWords = int(unsafe.Sizeof(prep{}) / 8)

// prepOrder sets what foldOrder needs of x: the id's key and the rank.
func (p *prep) prepOrder(x *event.ExecView) {
	p.idKey = numKey(x.OrderID)
	p.flags = uint32(rank(x.Status)) << prepRankShift
}

func (p *prep) rank() uint8 { return uint8(p.flags >> prepRankShift) }

// prepFill sets what foldExecFill needs of x besides the id's key: l > 0
// and, for a fill of an id numKey takes, z's value.
func (p *prep) prepFill(x *event.ExecView) {
	p.flags |= prepFull
	if !positiveDecimal(x.LastQty) {
		return
	}
	p.flags |= prepLPos
	if x.CumQty == nil || p.idKey == 0 {
		return
	}
	if sig, exp, ok := decValue(x.CumQty); ok && int64(int32(exp)) == exp {
		p.zSig, p.zExp = sig, int32(exp)
		p.flags |= prepZ
	}
}

// PrepareEvents appends to aux, for each of evs, PrepWords words of what
// folding it needs that depends on the event alone (an order update's id
// key, z's value, ...): called on the goroutine that decoded evs, it
// spares the writer that work (ApplyPrepared). It reads evs only.
func PrepareEvents(evs []event.Event, aux []uint64) []uint64 {
	for i := range evs {
		aux = append(aux, make([]uint64, PrepWords)...)
		ev := &evs[i]
		if ev.Kind != event.KindExecution && ev.Kind != event.KindContractExecution {
			continue
		}
		p := (*prep)(unsafe.Pointer(&aux[len(aux)-PrepWords]))
		p.prepOrder(&ev.Exec)
		p.prepFill(&ev.Exec)
	}
	return aux
}

// ApplyPrepared is ApplyEvents of events evs that PrepareEvents prepared
// into aux (its words for evs, in order); aux of another length is not
// used.
func (s *Store) ApplyPrepared(evs []event.Event, aux []uint64, onPing func(n []byte)) {
	if len(aux) != PrepWords*len(evs) {
		s.ApplyEvents(evs, onPing)
		return
	}
	for i := range evs {
		s.applyPrep(&evs[i], (*prep)(unsafe.Pointer(&aux[PrepWords*i])), onPing)
	}
}
