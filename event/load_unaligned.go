//go:build amd64 || arm64

package event

import "unsafe"

// w is the eight bytes from i, which the caller has checked (i <= lim),
// little endian: on these machines, which are little endian and load
// unaligned words, one plain load (and no call inlined in it, whose
// inline mark would cost an instruction where it is inlined).
func (f lineBuf) w(i int) uint64 { return *(*uint64)(unsafe.Add(f.p, i)) }
