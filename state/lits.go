package state

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

// pack5 is packLits of five literals, in one copy each (buf grown, from
// slab, at most once).
func (l *litSlab) pack5(buf []byte, ends *[5]int32, a, b, c, d, e []byte) []byte {
	n := len(a) + len(b) + len(c) + len(d) + len(e)
	if cap(buf) < n {
		buf = l.room(n)
	}
	buf = buf[:n]
	k := copy(buf, a)
	ends[0] = int32(k)
	k += copy(buf[k:], b)
	ends[1] = int32(k)
	k += copy(buf[k:], c)
	ends[2] = int32(k)
	k += copy(buf[k:], d)
	ends[3] = int32(k)
	copy(buf[k:], e)
	ends[4] = int32(n)
	return buf
}

// pack7 is pack5 of seven literals.
func (l *litSlab) pack7(buf []byte, ends *[7]int32, a, b, c, d, e, f, g []byte) []byte {
	n := len(a) + len(b) + len(c) + len(d) + len(e) + len(f) + len(g)
	if cap(buf) < n {
		buf = l.room(n)
	}
	buf = buf[:n]
	k := copy(buf, a)
	ends[0] = int32(k)
	k += copy(buf[k:], b)
	ends[1] = int32(k)
	k += copy(buf[k:], c)
	ends[2] = int32(k)
	k += copy(buf[k:], d)
	ends[3] = int32(k)
	k += copy(buf[k:], e)
	ends[4] = int32(k)
	k += copy(buf[k:], f)
	ends[5] = int32(k)
	copy(buf[k:], g)
	ends[6] = int32(n)
	return buf
}
