package state

import (
	"unsafe"

	"bhtop/event"
)

// packLits writes vals back to back into buf (reused when it has room),
// each one's end into ends, and returns the buffer holding them: the
// literals of an order, a fill or a position, rewritten in place on each
// update.
func packLits(buf []byte, ends []int32, vals ...[]byte) []byte {
	buf = buf[:0]
	for k, v := range vals {
		buf = append(buf, v...)
		ends[k] = int32(len(buf))
	}
	return buf
}

// litSlab hands out small byte buffers carved from shared blocks: the
// literals of new orders and fills, without an allocation each.
type litSlab struct{ free []byte }

// room returns an empty buffer with room for at least n bytes (and some
// to spare for a literal that grows).
func (l *litSlab) room(n int) []byte {
	c := (n + n/2 + 24) &^ 7
	if c > 1024 {
		return make([]byte, 0, c)
	}
	if len(l.free) < c {
		l.free = make([]byte, 32<<10)
	}
	b := l.free[:0:c]
	l.free = l.free[c:]
	return b
}

// litRoom is the room a packed buffer keeps past its literals: packAt
// writes up to 8 bytes at a time.
const litRoom = 16

// fillLitOffs places the literals of a fill in fillIn.v (packAt's offs).
var fillLitOffs = func() (offs [nFillLits]uintptr) {
	for k := range offs {
		offs[k] = uintptr(k) * unsafe.Sizeof([]byte(nil))
	}
	return offs
}()

// execFillOffs places the literals of the fill an update reports, but
// for the trade id and PnL (which come last), in the update.
var execFillOffs = [flTrade]uintptr{
	flOrder: unsafe.Offsetof(event.ExecView{}.OrderID),
	flPrice: unsafe.Offsetof(event.ExecView{}.LastPrice),
	flQty:   unsafe.Offsetof(event.ExecView{}.LastQty),
	flFee:   unsafe.Offsetof(event.ExecView{}.Commission),
	flZ:     unsafe.Offsetof(event.ExecView{}.CumQty),
}

// orderLitOffs places an order's literals (litPrice, ...) in its update.
var orderLitOffs = [nLits]uintptr{
	litPrice:    unsafe.Offsetof(event.ExecView{}.Price),
	litQty:      unsafe.Offsetof(event.ExecView{}.Quantity),
	litClient:   unsafe.Offsetof(event.ExecView{}.ClientOrderID),
	litZ:        unsafe.Offsetof(event.ExecView{}.CumQty),
	litCumQuote: unsafe.Offsetof(event.ExecView{}.CumQuote),
}

// packFill is packLits of a fill's literals, into buf or, when it lacks
// room, a buffer from the slab.
func (l *litSlab) packFill(buf []byte, ends *[nFillLits]int32, v *[nFillLits][]byte) []byte {
	return l.packAt(buf, ends[:], unsafe.Pointer(v), fillLitOffs[:])
}

// packOrder is packFill of an order's literals, from its update x, into
// *buf: when none is over 16 bytes and *buf has room (the usual update),
// unrolled, each literal copied by putLit, and only *buf's length set
// (no write barrier); else by packAt.
func (l *litSlab) packOrder(buf *[]byte, ends *[nLits]int32, x *event.ExecView) {
	e0 := len(x.Price)
	e1 := e0 + len(x.Quantity)
	e2 := e1 + len(x.ClientOrderID)
	e3 := e2 + len(x.CumQty)
	e4 := e3 + len(x.CumQuote)
	if len(x.Price)|len(x.Quantity)|len(x.ClientOrderID)|len(x.CumQty)|len(x.CumQuote) > 16 || cap(*buf)-litRoom < e4 {
		*buf = l.packAt(*buf, ends[:], unsafe.Pointer(x), orderLitOffs[:])
		return
	}
	d := unsafe.Pointer(unsafe.SliceData(*buf))
	putLit(d, unsafe.Pointer(unsafe.SliceData(x.Price)), e0)
	putLit(unsafe.Add(d, e0), unsafe.Pointer(unsafe.SliceData(x.Quantity)), e1-e0)
	putLit(unsafe.Add(d, e1), unsafe.Pointer(unsafe.SliceData(x.ClientOrderID)), e2-e1)
	putLit(unsafe.Add(d, e2), unsafe.Pointer(unsafe.SliceData(x.CumQty)), e3-e2)
	putLit(unsafe.Add(d, e3), unsafe.Pointer(unsafe.SliceData(x.CumQuote)), e4-e3)
	ends[0], ends[1], ends[2], ends[3], ends[4] = int32(e0), int32(e1), int32(e2), int32(e3), int32(e4)
	*buf = (*buf)[:e4]
}

// putLit copies the m ≤ 16 bytes at s to d by two words that may
// overlap (8+8 or 4+4; the first, middle and last byte of a shorter
// one), reading nothing outside them. (Written so as to be inlined.)
func putLit(d, s unsafe.Pointer, m int) {
	switch {
	case m >= 8:
		*(*uint64)(d), *(*uint64)(unsafe.Add(d, m-8)) = *(*uint64)(s), *(*uint64)(unsafe.Add(s, m-8))
	case m >= 4:
		*(*uint32)(d), *(*uint32)(unsafe.Add(d, m-4)) = *(*uint32)(s), *(*uint32)(unsafe.Add(s, m-4))
	case m > 0:
		*(*byte)(d), *(*byte)(unsafe.Add(d, m>>1)), *(*byte)(unsafe.Add(d, m-1)) = *(*byte)(s), *(*byte)(unsafe.Add(s, m>>1)), *(*byte)(unsafe.Add(s, m-1))
	}
}

// packAt is packLits of the literals whose slices are at base+offs[k]
// (len(ends) of them), into buf or, when it lacks room, a buffer from
// the slab. Each is copied inline by loads and stores of words, the
// last two of which may overlap, reading nothing outside it (the
// decoder's slices end at their literal) and writing nothing past its
// end but into the buffer's room: no call to memmove, no bounds check.
func (l *litSlab) packAt(buf []byte, ends []int32, base unsafe.Pointer, offs []uintptr) []byte {
	offs = offs[:len(ends)]
	for {
		d0 := unsafe.Pointer(unsafe.SliceData(buf))
		d, room := d0, cap(buf)-litRoom
		for i, off := range offs {
			v := *(*[]byte)(unsafe.Add(base, off))
			s, m := unsafe.Pointer(unsafe.SliceData(v)), len(v)
			if room -= m; room < 0 {
				break
			}
			switch {
			case m >= 8:
				for ; m > 16; m -= 8 { // a literal longer than 16 (rare): 9 to 16 left
					*(*uint64)(d) = *(*uint64)(s)
					d, s = unsafe.Add(d, 8), unsafe.Add(s, 8)
				}
				a, b := *(*uint64)(s), *(*uint64)(unsafe.Add(s, m-8))
				*(*uint64)(d), *(*uint64)(unsafe.Add(d, m-8)) = a, b
			case m >= 4:
				a, b := *(*uint32)(s), *(*uint32)(unsafe.Add(s, m-4))
				*(*uint32)(d), *(*uint32)(unsafe.Add(d, m-4)) = a, b
			case m > 0: // 1, 2 or 3 bytes: the first, the middle and the last
				a, b, c := *(*byte)(s), *(*byte)(unsafe.Add(s, m/2)), *(*byte)(unsafe.Add(s, m-1))
				*(*byte)(d), *(*byte)(unsafe.Add(d, m/2)), *(*byte)(unsafe.Add(d, m-1)) = a, b, c
			}
			d = unsafe.Add(d, m)
			ends[i] = int32(uintptr(d) - uintptr(d0))
		}
		if room >= 0 {
			return buf[:uintptr(d)-uintptr(d0)]
		}
		n := 0 // no room: a buffer from the slab, and again
		for _, off := range offs {
			n += len(*(*[]byte)(unsafe.Add(base, off)))
		}
		buf = l.room(n + litRoom)
	}
}
