package state

import (
	"math/rand/v2"
	"testing"
)

// TestKeyIndexAgreesWithMap drives the fills' index and a Go map with the
// same random puts, swaps and conditional deletes over few home slots
// (long probe runs that wrap around the table) and compares every key.
func TestKeyIndexAgreesWithMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var x keyIndex[int32]
	want := map[uint64]int32{}
	key := func() uint64 { // a few homes in a 1024-slot table, many keys each
		return uint64(r.IntN(4))*1023 + uint64(r.IntN(600))<<10 + 1
	}
	for op := 0; op < 200_000; op++ {
		k, v := key(), int32(r.IntN(8))
		switch r.IntN(3) {
		case 0:
			x.put(k, v)
			want[k] = v
		case 1:
			old, found := x.swap(k, v)
			w, ok := want[k]
			if found != ok || (ok && old != w) {
				t.Fatalf("op %d: swap(%d) = %d %v, want %d %v", op, k, old, found, w, ok)
			}
			want[k] = v
		case 2:
			x.dropIf(k, v)
			if w, ok := want[k]; ok && w == v {
				delete(want, k)
			}
		}
		if op%1000 == 0 || op > 199_000 {
			if x.n != len(want) {
				t.Fatalf("op %d: %d keys, want %d", op, x.n, len(want))
			}
			for range 100 {
				if k := key(); want[k] == 0 {
					if _, in := want[k]; !in {
						if v, ok := x.get(k); ok {
							t.Fatalf("op %d: get(%d) = %d, want none", op, k, v)
						}
					}
				}
			}
			for k, w := range want {
				if v, ok := x.get(k); !ok || v != w {
					t.Fatalf("op %d: get(%d) = %d %v, want %d", op, k, v, ok, w)
				}
			}
		}
	}
}
