package state

import (
	"unsafe"

	"bhtop/event"
)

// prep is what folding an order update needs that depends on the update
// alone: the order id's numKey, the status rank, whether l > 0 and z's
// value (decValue). The goroutine that decoded the event computes it
// (PrepareEvents, for ApplyPrepared), sparing the one writer that work
// (ApplyFrame and ApplyEvents compute these as they fold);
// that one also packs the order's literals and its fill's as the writer
// keeps them (prepPacked), right after the prep in aux, so that the
// writer copies each run in words instead of reading the literals one
// by one from the frame.
type prep struct {
	words     uint32 // this event's words in aux, the prep's own included (PrepareEvents); first: any other event has only this word
	orderLen  uint16 // bytes of the order's packed literals (prepPacked)
	fillLen   uint16 // and of its fill's (the usual fill's, l > 0), the next word on
	flags     uint32 // prepLPos, prepZ, prepPacked, prepUsual, prepT; the rank in prepRankShift's bits
	zExp      int32  // z's exponent, when prepZ (a z of at most 19 digits: |exp| is small)
	idKey     uint64 // numKey(OrderID)
	zSig      uint64 // decValue(CumQty)'s significant digits, when prepZ
	tTime     int64  // T, when prepT
	orderEnds [nLits]int32
	fillEnds  [flTrade]int32
}

const (
	prepLPos      = 1 << iota // l > 0
	prepZ                     // z is present, its value is (zSig, zExp), and the order id is a number
	prepPacked                // the literals follow (orderLen, fillLen)
	prepUsual                 // z present, no trade id, a fee (n not null): addExecFill may take it
	prepT                     // T is a time above 0: tTime
	prepRankShift = 8
)

// prepWords is the words of a prep in aux.
const prepWords = int(unsafe.Sizeof(prep{}) / 8)

// orderLits is where the order's packed literals are (prepPacked):
// orderLen bytes, then zeros to the next word (p itself when there are
// none: nothing is read, and aux may end there).
func (p *prep) orderLits() unsafe.Pointer {
	if p.orderLen == 0 {
		return unsafe.Pointer(p)
	}
	return unsafe.Add(unsafe.Pointer(p), prepWords*8)
}

// fillLits is where the fill's packed literals are (prepPacked; p when
// there are none).
func (p *prep) fillLits() unsafe.Pointer {
	if p.fillLen == 0 {
		return unsafe.Pointer(p)
	}
	return unsafe.Add(unsafe.Pointer(p), prepWords*8+(int(p.orderLen)+7)&^7)
}

// prepOrder sets what foldOrder needs of x: the id's key and the rank.
func (p *prep) prepOrder(x *event.ExecView) {
	p.idKey = idKey(x)
	p.flags = uint32(rank(x.Status)) << prepRankShift
}

func (p *prep) rank() uint8 { return uint8(p.flags >> prepRankShift) }

// prepFill sets what foldExecFill needs of x besides the id's key: l > 0
// and, for a fill of an id numKey takes, z's value.
func (p *prep) prepFill(x *event.ExecView) {
	if !positiveDecimal(x.LastQty) {
		return
	}
	p.flags |= prepLPos
	if usualFill(x) {
		p.flags |= prepUsual
	}
	if len(x.TradeTime) > 0 {
		if t, ok := event.ParseTime(x.TradeTime); ok && t > 0 {
			p.tTime = t
			p.flags |= prepT
		}
	}
	if x.CumQty == nil || p.idKey == 0 {
		return
	}
	if x.ZScale != 0 { // z's number from the decoder
		sig, exp := scaledDec(x.ZNum, int(x.ZScale)-1)
		p.zSig, p.zExp = sig, int32(exp)
		p.flags |= prepZ
	} else if sig, exp, ok := decValue(x.CumQty); ok && int64(int32(exp)) == exp {
		p.zSig, p.zExp = sig, int32(exp)
		p.flags |= prepZ
	}
}

// PrepareEvents appends to aux, for each of evs, what folding it needs
// that depends on the event alone (an order update's id key, z's value,
// its literals packed as the store keeps them, ...): called on the
// goroutine that decoded evs, it spares the writer that work
// (ApplyPrepared). It changes evs only in pointing an update's short
// texts at copies in aux (moveTexts): the same bytes, valid as long as
// aux's words.
func PrepareEvents(evs []event.Event, aux []uint64) []uint64 {
	for i := range evs {
		start := len(aux)
		ev := &evs[i]
		if ev.Kind != event.KindExecution && ev.Kind != event.KindContractExecution {
			aux = append(aux, 0)
			*(*uint32)(unsafe.Pointer(&aux[start])) = 1 // words: only this one
			continue
		}
		aux = append(aux, make([]uint64, prepWords)...)
		x := &ev.Exec
		var p prep
		p.prepOrder(x)
		p.prepFill(x)
		no, nf := litsLen(x, orderLitOffs[:]), 0
		if p.flags&(prepLPos|prepUsual) == prepLPos|prepUsual { // what addExecFill may take
			nf = litsLen(x, execFillOffs[:])
		}
		if no <= 0xffff && nf <= 0xffff {
			p.flags |= prepPacked
			p.orderLen, p.fillLen = uint16(no), uint16(nf)
			wo, wf := (no+7)/8, (nf+7)/8
			aux = append(aux, make([]uint64, wo+wf)...)
			if no > 0 { // (else aux may end here: no pointer past it)
				packInto(unsafe.Slice((*byte)(unsafe.Pointer(&aux[start+prepWords])), no), p.orderEnds[:], x, orderLitOffs[:])
			}
			if nf > 0 {
				packInto(unsafe.Slice((*byte)(unsafe.Pointer(&aux[start+prepWords+wo])), nf), p.fillEnds[:], x, execFillOffs[:])
			}
		}
		if nt := litsLen(x, textOffs[:]); nt <= maxTexts {
			at := len(aux)
			aux = append(aux, make([]uint64, (nt+7)/8)...)
			if nt > 0 { // (else aux may end here: no pointer past it)
				moveTexts(unsafe.Add(unsafe.Pointer(unsafe.SliceData(aux)), at*8), x)
			}
		}
		p.words = uint32(len(aux) - start)
		*(*prep)(unsafe.Pointer(&aux[start])) = p
	}
	return aux
}

// textOffs are the texts of an update that the writer compares with
// the order's (or the fill's) every time: PrepareEvents copies them
// next to the prep (moveTexts).
var textOffs = [...]uintptr{
	unsafe.Offsetof(event.ExecView{}.Symbol),
	unsafe.Offsetof(event.ExecView{}.Side),
	unsafe.Offsetof(event.ExecView{}.Type),
	unsafe.Offsetof(event.ExecView{}.TimeInForce),
	unsafe.Offsetof(event.ExecView{}.Status),
	unsafe.Offsetof(event.ExecView{}.CommissionAsset),
	unsafe.Offsetof(event.ExecView{}.Leverage),
}

// maxTexts bounds the bytes moveTexts copies (the usual texts take
// ~30).
const maxTexts = 256

// moveTexts copies x's texts at textOffs back to back to dst and points
// them there (same bytes, capacity their length; an empty one is left
// as it is). The writer then reads them from the lines of aux it reads
// for the prep, not from the frame's: in the parallel ingest each line
// of a frame it touches is a miss, the frame written on another core.
// Should aux move as it grows, they keep the bytes where they were
// copied, as valid as the frame's.
func moveTexts(dst unsafe.Pointer, x *event.ExecView) {
	at := 0 // (an offset: a pointer past the last text could point past aux)
	for _, off := range textOffs {
		f := (*[]byte)(unsafe.Add(unsafe.Pointer(x), off))
		n := len(*f)
		if n == 0 {
			continue
		}
		d := unsafe.Slice((*byte)(unsafe.Add(dst, at)), n)
		copy(d, *f)
		*f = d
		at += n
	}
}

// litsLen is the bytes of x's literals at offs (orderLitOffs,
// execFillOffs).
func litsLen(x *event.ExecView, offs []uintptr) int {
	n := 0
	for _, off := range offs {
		n += len(*(*[]byte)(unsafe.Add(unsafe.Pointer(x), off)))
	}
	return n
}

// packInto writes x's literals at offs back to back into dst, each
// one's end into ends: what packAt writes.
func packInto(dst []byte, ends []int32, x *event.ExecView, offs []uintptr) {
	n := 0
	for k, off := range offs {
		n += copy(dst[n:], *(*[]byte)(unsafe.Add(unsafe.Pointer(x), off)))
		ends[k] = int32(n)
	}
}

// ApplyPrepared is ApplyEvents of events evs that PrepareEvents prepared
// into aux (what it appended for evs, all of it). Should aux end early,
// the events past its end are folded unprepared.
func (s *Store) ApplyPrepared(evs []event.Event, aux []uint64, onPing func(n []byte)) {
	at := 0
	for i := range evs {
		var p *prep
		if at < len(aux) {
			w := int(*(*uint32)(unsafe.Pointer(&aux[at]))) // p.words
			switch {
			case w < 1 || at+w > len(aux):
				at = len(aux) // not PrepareEvents' words: the rest unprepared
			case w >= prepWords:
				p = (*prep)(unsafe.Pointer(&aux[at]))
				fallthrough
			default: // (another kind of event: its one word)
				at += w
			}
		}
		s.applyPrep(&evs[i], p, onPing)
	}
}

// packedLits is packAt of literals prepared apart: the n bytes at src
// (readable to the next word: PrepareEvents pads them) into buf or, when
// it lacks room, a buffer from the slab, copied by words.
func (l *litSlab) packedLits(buf []byte, src unsafe.Pointer, n int) []byte {
	if cap(buf)-litRoom < n {
		buf = l.room(n + litRoom)
	}
	d := unsafe.Pointer(unsafe.SliceData(buf))
	for k := 0; k < n; k += 8 { // past n by at most 7 bytes: into the room
		*(*uint64)(unsafe.Add(d, k)) = *(*uint64)(unsafe.Add(src, k))
	}
	return buf[:n]
}

// packedInto is packedLits into *buf: when it has room, only its length
// is set (no write barrier).
func (l *litSlab) packedInto(buf *[]byte, src unsafe.Pointer, n int) {
	if cap(*buf)-litRoom < n {
		*buf = l.packedLits(*buf, src, n)
		return
	}
	d := unsafe.Pointer(unsafe.SliceData(*buf))
	for k := 0; k < n; k += 8 { // as packedLits
		*(*uint64)(unsafe.Add(d, k)) = *(*uint64)(unsafe.Add(src, k))
	}
	*buf = (*buf)[:n]
}
