package value

import (
	"math/big"
	"math/bits"
	"reflect"
	"unsafe"

	"github.com/shopspring/decimal"
)

// decBlock turns many nums into decimal.Decimals with two allocations in
// all, instead of two per decimal: the big.Ints and their words come from
// one block each. decimal.Decimal has no constructor that takes a
// *big.Int without copying it, so the decimal is laid out by hand, as the
// struct decimalLayout, when (and only when) decimal.Decimal has exactly
// that shape (checked once, by reflection; otherwise each decimal is made
// with decimal.NewFromBigInt). The zero value is ready; it is not safe for
// concurrent use, and the decimals it made share no mutable state (no
// decimal operation changes its operands).
type decBlock struct {
	ints  []big.Int
	words []big.Word
}

// decimalLayout is decimal.Decimal's shape in shopspring/decimal v1.6.0.
type decimalLayout struct {
	value *big.Int
	exp   int32
}

// layoutMatches says whether decimal.Decimal is laid out as decimalLayout.
var layoutMatches = func() bool {
	t, l := reflect.TypeFor[decimal.Decimal](), reflect.TypeFor[decimalLayout]()
	if bits.UintSize != 64 || t.Size() != l.Size() || t.NumField() != l.NumField() {
		return false
	}
	for i := range t.NumField() {
		f, g := t.Field(i), l.Field(i)
		if f.Name != g.Name || f.Type != g.Type || f.Offset != g.Offset {
			return false
		}
	}
	return true
}()

// grow makes room for n more decimals.
func (b *decBlock) grow(n int) {
	if cap(b.ints)-len(b.ints) < n {
		b.ints = make([]big.Int, 0, n)
		b.words = make([]big.Word, 0, 2*n)
	}
}

// dec is n as a decimal.Decimal, from the block.
func (b *decBlock) dec(n num) decimal.Decimal {
	if n.big != nil {
		return *n.big
	}
	if !layoutMatches {
		return n.dec()
	}
	b.grow(1)
	w := len(b.words)
	b.words = append(b.words, big.Word(n.lo), big.Word(n.hi))
	b.ints = b.ints[:len(b.ints)+1]
	z := &b.ints[len(b.ints)-1]
	z.SetBits(b.words[w : w+2 : w+2])
	if n.neg {
		z.Neg(z)
	}
	l := decimalLayout{value: z, exp: n.e}
	return *(*decimal.Decimal)(unsafe.Pointer(&l))
}

// ptr is n as a *decimal.Decimal stored in dst.
func (b *decBlock) ptr(dst *decimal.Decimal, n num) *decimal.Decimal {
	*dst = b.dec(n)
	return dst
}
