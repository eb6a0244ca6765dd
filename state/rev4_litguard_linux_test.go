//go:build linux

package state

import (
	"bytes"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"bhtop/event"
)

// guarded returns a function placing literals back to back down from
// the end of a page followed by an unreadable one: the first ends right
// at it, so that reading a byte past it faults.
func guarded(t *testing.T) (tail func(lit string) []byte) {
	t.Helper()
	pg := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 2*pg, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skip("mmap:", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	if err := syscall.Mprotect(mem[pg:], syscall.PROT_NONE); err != nil {
		t.Skip("mprotect:", err)
	}
	page, used := mem[:pg], pg
	return func(lit string) []byte { // literals laid back to back from the page's end
		if used -= len(lit); used < 1 {
			t.Fatal("guard page full")
		}
		b := page[used : used+len(lit) : used+len(lit)]
		copy(b, lit)
		used-- // a byte between: none starts where another ends
		return b
	}
}

// TestPackOrderGuardPage: packOrder of literals of every length 0 to 40
// in every field, the field's literal ending at an unreadable page,
// reads nothing past any literal (no fault), writes nothing past the
// literals but into the buffer's room, and reads each back.
func TestPackOrderGuardPage(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var slab litSlab
	var o order
	for field := range nLits {
		for n := 0; n <= 40; n++ {
			for round := range 4 {
				var lits [nLits]string
				var v [nLits][]byte
				put := guarded(t)
				for k := range nLits {
					m := n
					if k != field {
						m = r.IntN(17)
						if round == 3 {
							m = r.IntN(41)
						}
					}
					lits[k] = rev4Dec(r, max(m, 1))[:m]
				}
				v[field] = put(lits[field]) // right at the page's end
				for k := range nLits {
					if k != field {
						v[k] = put(lits[k])
					}
				}
				x := event.ExecView{Price: v[litPrice], Quantity: v[litQty], ClientOrderID: v[litClient], CumQty: v[litZ], CumQuote: v[litCumQuote]}
				if round == 2 { // a buffer just big enough (room litRoom), its room marked
					total := 0
					for _, l := range lits {
						total += len(l)
					}
					o.lits = bytes.Repeat([]byte{'#'}, total+litRoom)[:0]
				}
				slab.packOrder(&o.lits, &o.ends, &x)
				for k := range nLits {
					if got := string(o.lit(k)); got != lits[k] {
						t.Fatalf("field %d n %d round %d: literal %d = %q, want %q", field, n, round, k, got, lits[k])
					}
				}
				if end := int(o.ends[nLits-1]); len(o.lits) != end || cap(o.lits)-end < litRoom {
					t.Fatalf("field %d n %d: %d bytes, cap %d, literals end at %d", field, n, len(o.lits), cap(o.lits), end)
				}
			}
		}
	}
}

// TestPutLitEveryLength: putLit of m = 0..16 bytes ending at an
// unreadable page writes exactly d[0:m] (the bytes around unchanged).
func TestPutLitEveryLength(t *testing.T) {
	for m := 0; m <= 16; m++ {
		src := guarded(t)(rev4Dec(rand.New(rand.NewPCG(uint64(m), 1)), max(m, 1))[:m])
		dst := bytes.Repeat([]byte{'#'}, 40)
		putLit(unsafePtr(dst[8:]), unsafePtr(src), m)
		want := string(bytes.Repeat([]byte{'#'}, 8)) + string(src) + string(bytes.Repeat([]byte{'#'}, 32-m))
		if string(dst) != want {
			t.Fatalf("m %d: %q, want %q", m, dst, want)
		}
	}
}

// unsafePtr is b's data pointer (for putLit; b may be empty).
func unsafePtr(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }
