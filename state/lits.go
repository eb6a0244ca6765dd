package state

import (
	"encoding/binary"

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

// litRoom is the room a packed buffer keeps past its literals: putLit
// writes 16 bytes at a time.
const litRoom = 16

// putLit copies v to buf[k:] and returns where it ends there; buf must
// have litRoom bytes of room past that. A literal of at most 16 bytes
// whose array goes on for 16 (one in a frame, nearly always) is copied
// as two words, bytes past it included (the next literal overwrites
// them, and the buffer's length leaves the last ones out).
func putLit(buf []byte, k int, v []byte) int {
	if len(v) <= 16 && cap(v) >= 16 {
		w, d := v[:16], buf[k:k+16]
		binary.LittleEndian.PutUint64(d, binary.LittleEndian.Uint64(w))
		binary.LittleEndian.PutUint64(d[8:], binary.LittleEndian.Uint64(w[8:]))
	} else {
		copy(buf[k:], v)
	}
	return k + len(v)
}

// packFill is packLits of a fill's literals (buf grown, from the slab, at
// most once).
func (l *litSlab) packFill(buf []byte, ends *[nFillLits]int32, v *[nFillLits][]byte) []byte {
	n := len(v[0]) + len(v[1]) + len(v[2]) + len(v[3]) + len(v[4]) + len(v[5]) + len(v[6])
	if cap(buf) < n+litRoom {
		buf = l.room(n + litRoom)
	}
	buf = buf[:cap(buf)]
	k := putLit(buf, 0, v[0])
	ends[0] = int32(k)
	k = putLit(buf, k, v[1])
	ends[1] = int32(k)
	k = putLit(buf, k, v[2])
	ends[2] = int32(k)
	k = putLit(buf, k, v[3])
	ends[3] = int32(k)
	k = putLit(buf, k, v[4])
	ends[4] = int32(k)
	k = putLit(buf, k, v[5])
	ends[5] = int32(k)
	putLit(buf, k, v[6])
	ends[6] = int32(n)
	return buf[:n]
}

// packOrder is packFill of an order's literals, from its update x.
func (l *litSlab) packOrder(buf []byte, ends *[nLits]int32, x *event.ExecView) []byte {
	n := len(x.Price) + len(x.Quantity) + len(x.ClientOrderID) + len(x.CumQty) + len(x.CumQuote)
	if cap(buf) < n+litRoom {
		buf = l.room(n + litRoom)
	}
	buf = buf[:cap(buf)]
	k := putLit(buf, 0, x.Price)
	ends[litPrice] = int32(k)
	k = putLit(buf, k, x.Quantity)
	ends[litQty] = int32(k)
	k = putLit(buf, k, x.ClientOrderID)
	ends[litClient] = int32(k)
	k = putLit(buf, k, x.CumQty)
	ends[litZ] = int32(k)
	putLit(buf, k, x.CumQuote)
	ends[litCumQuote] = int32(n)
	return buf[:n]
}
