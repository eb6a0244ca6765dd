//go:build !amd64 && !arm64

package event

import (
	"encoding/binary"
	"unsafe"
)

// w is the eight bytes from i, which the caller has checked (i <= lim),
// little endian.
func (f lineBuf) w(i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(f.p, i))[:])
}
