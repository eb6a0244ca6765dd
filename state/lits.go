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
