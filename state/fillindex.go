package state

import (
	"hash/maphash"
	"math/bits"

	"bhtop/event"
)

// The fills' hash index. Keys are 64-bit hashes of a fill's identity
// (trade key, z key, match key); a key found is always checked against
// the fill it names, so the hash only has to agree on equal identities.
// Each key hashes one canonical byte string (built on the stack) with
// maphash, and the index is an open-addressing table of (key, slot):
// a lookup is one probe into one array, where a Go map of uint64 took
// several, and folding a fill of a known order does a handful of them.

// keyIndex maps nonzero keys to values (fills' ring slots, orders):
// linear probing over a power of two table at most half full, homed by
// the key's low bits (keys must be well mixed), deletion by backward
// shift (no tombstones). The zero value is empty and ready.
type keyIndex[V comparable] struct {
	tab []keySlot[V]
	n   int
}

type keySlot[V comparable] struct {
	key uint64 // 0: empty
	val V
}

// get returns the value of key k.
func (x *keyIndex[V]) get(k uint64) (V, bool) {
	if len(x.tab) == 0 {
		var zero V
		return zero, false
	}
	mask := uint64(len(x.tab) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch x.tab[i].key {
		case k:
			return x.tab[i].val, true
		case 0:
			var zero V
			return zero, false
		}
	}
}

// find is get that also returns, when k is not there, the empty place
// where put would store it: putAt may store it there as long as nothing
// was put or dropped since.
func (x *keyIndex[V]) find(k uint64) (v V, at int, found bool) {
	if len(x.tab) == 0 {
		return v, -1, false
	}
	mask := uint64(len(x.tab) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch x.tab[i].key {
		case k:
			return x.tab[i].val, int(i), true
		case 0:
			return v, int(i), false
		}
	}
}

// putAt maps k (nonzero, not there) to v at the place find returned for
// it, with nothing put or dropped since; false (nothing done) when the
// table must grow first: then put.
func (x *keyIndex[V]) putAt(at int, k uint64, v V) bool {
	if at < 0 || 2*(x.n+1) > len(x.tab) {
		return false
	}
	x.tab[at] = keySlot[V]{k, v}
	x.n++
	return true
}

// put maps k (nonzero) to v.
func (x *keyIndex[V]) put(k uint64, v V) { x.swap(k, v) }

// swap maps k (nonzero) to v and returns the value it mapped to before,
// if any: a get and a put in one probe.
func (x *keyIndex[V]) swap(k uint64, v V) (old V, found bool) {
	if 2*(x.n+1) > len(x.tab) {
		x.grow()
	}
	mask := uint64(len(x.tab) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch x.tab[i].key {
		case k:
			old, x.tab[i].val = x.tab[i].val, v
			return old, true
		case 0:
			x.tab[i] = keySlot[V]{k, v}
			x.n++
			return old, false
		}
	}
}

// dropIf forgets key k if it maps to v.
func (x *keyIndex[V]) dropIf(k uint64, v V) {
	if k == 0 || len(x.tab) == 0 {
		return
	}
	mask := uint64(len(x.tab) - 1)
	i := k & mask
	for x.tab[i].key != k || x.tab[i].val != v { // (the fills' keys may repeat: a key of another fill goes by)
		if x.tab[i].key == 0 {
			return
		}
		i = (i + 1) & mask
	}
	// Backward shift: move each later entry of the run whose home is not
	// cyclically in (i, j] into the hole.
	for j := i; ; {
		j = (j + 1) & mask
		e := x.tab[j]
		if e.key == 0 {
			break
		}
		h := e.key & mask
		if (i <= j && i < h && h <= j) || (i > j && (i < h || h <= j)) {
			continue
		}
		x.tab[i] = e
		i = j
	}
	x.tab[i] = keySlot[V]{}
	x.n--
}

func (x *keyIndex[V]) grow() {
	old := x.tab
	x.tab = make([]keySlot[V], max(1024, 2*len(old)))
	x.n = 0
	for _, e := range old {
		if e.key != 0 {
			x.add(e.key, e.val)
		}
	}
}

// add maps k (nonzero) to v in a new entry, even when k is there
// already: the fills' index keeps an entry for each fill a key names (two
// identities may share a 64-bit key), and a lookup checks each one's
// fill (findZ, findTrade).
func (x *keyIndex[V]) add(k uint64, v V) {
	if 2*(x.n+1) > len(x.tab) {
		x.grow()
	}
	mask := uint64(len(x.tab) - 1)
	i := k & mask
	for x.tab[i].key != 0 {
		i = (i + 1) & mask
	}
	x.tab[i] = keySlot[V]{k, v}
	x.n++
}

// findZ returns the slot of the fill of in's (market, orderId, z), whose
// z key is zk, checking each fill zk names (a key shared by chance never
// passes one fill for another); when there is none, at is where byKey.add
// would put zk (putAt's place).
func (b *fillBook) findZ(zk uint64, in *fillIn) (i int32, at int, ok bool) {
	x := &b.byKey
	if len(x.tab) == 0 {
		return 0, -1, false
	}
	mask := uint64(len(x.tab) - 1)
	for j := zk & mask; ; j = (j + 1) & mask {
		switch e := &x.tab[j]; e.key {
		case zk:
			if b.isZ(e.val, in) {
				return e.val, int(j), true
			}
		case 0:
			return 0, int(j), false
		}
	}
}

// findTrade is findZ of in's (market, orderId, trade id), whose trade
// key is tk.
func (b *fillBook) findTrade(tk uint64, in *fillIn) (int32, bool) {
	x := &b.byKey
	if len(x.tab) == 0 {
		return 0, false
	}
	mask := uint64(len(x.tab) - 1)
	for j := tk & mask; ; j = (j + 1) & mask {
		switch e := &x.tab[j]; e.key {
		case tk:
			if b.isTrade(e.val, in) {
				return e.val, true
			}
		case 0:
			return 0, false
		}
	}
}

// each calls fn for every value, in no particular order.
func (x *keyIndex[V]) each(fn func(V)) {
	for _, e := range x.tab {
		if e.key != 0 {
			fn(e.val)
		}
	}
}

// keyBuf is the stack buffer a key's canonical bytes are built in.
type keyBuf [192]byte

// sum hashes the canonical bytes b into a nonzero key.
func (b *fillBook) sum(k []byte) uint64 {
	return max(maphash.Bytes(b.seed, k), 1) | b.keyOr
}

// appendExp appends the adjusted exponent of a decimal (8 bytes); a
// decimal by value is that and its significant digits (no sign).
func appendExp(k []byte, d *event.Dec) []byte {
	e := uint64(d.Exp)
	k = append(k, byte(e), byte(e>>8), byte(e>>16), byte(e>>24), byte(e>>32), byte(e>>40), byte(e>>48), byte(e>>56))
	return k
}

// tradeKey is the key of (market, orderId, trade id by value): the two
// executions of a self-trade (the account's order on each side) share a
// trade id, and are two fills.
func (b *fillBook) tradeKey(m uint8, orderID, id []byte) uint64 {
	var buf keyBuf
	k := append(buf[:0], 't', m)
	k = append(append(k, trimID(orderID)...), '/')
	return b.sum(append(k, trimID(id)...))
}

// zKey is the key of (market, orderId, z by value). The usual one (an
// order id numKey takes, a z of at most 19 significant digits) is mixed
// from numbers, without building and hashing its bytes; which way a key
// is made depends on the identity only, never on how z is written.
func (b *fillBook) zKey(m uint8, orderID, z []byte) uint64 {
	return b.zKeyOf(m, numKey(orderID), orderID, z)
}

// zKeyOf is zKey of an order id whose numKey is id.
func (b *fillBook) zKeyOf(m uint8, id uint64, orderID, z []byte) uint64 {
	if id != 0 {
		if len(z) <= 19 { // the usual z: shortDecValue at once (decValue's first case)
			if sig, exp, ok, plain := shortDecValue(z); plain && ok {
				return b.zKeyMix(m, id, sig, exp)
			}
		}
		if sig, exp, ok := decValue(z); ok {
			return b.zKeyMix(m, id, sig, exp)
		}
	}
	return b.zKeyText(m, orderID, z)
}

// zKeyOfPrep is zKeyOf of the update p prepared (prepFill's fields set).
func (b *fillBook) zKeyOfPrep(m uint8, p *prep, orderID, z []byte) uint64 {
	if p.flags&prepZ != 0 {
		return b.zKeyMix(m, p.idKey, p.zSig, int64(p.zExp))
	}
	return b.zKeyOf(m, p.idKey, orderID, z)
}

// zKeyMix is the z key of an order id whose numKey is id (not 0) and a z
// whose decValue is (sig, exp).
func (b *fillBook) zKeyMix(m uint8, id, sig uint64, exp int64) uint64 {
	// Two mixes: with one mix of the three parts (fixed odd multiples
	// XORed), the salt cancels between two z of one order, and a pair
	// sharing a key could be built from the constants alone (then a
	// repeat of the fill whose key the other holds is added again).
	// The second mix's argument has its low bit set, so the key is
	// never 0 (mix64 is a bijection) without a max (that kept it from
	// being inlined).
	h := mix64(id ^ b.salt ^ sig*0x9e3779b97f4a7c15)
	h = mix64(h ^ uint64(exp)<<8 ^ uint64(m)<<1 | 1)
	return h | b.keyOr
}

// zKeyText is zKey made from the canonical bytes of the identity.
func (b *fillBook) zKeyText(m uint8, orderID, z []byte) uint64 {
	var buf keyBuf
	k := append(buf[:0], 'z', m)
	k = append(k, orderID...)
	k = append(k, '/')
	if p, ok := appendPlainDec(k, z); ok {
		return b.sum(p)
	}
	if d, _ := event.ParseDec(z); !d.IsZero() {
		k = d.Digits(appendExp(k, &d))
	}
	return b.sum(k)
}

// appendPlainDec appends what appendExp and Digits append for the usual
// literal (digits and an optional fraction: every z of the wire) without
// splitting it first; false for any other literal.
func appendPlainDec(k, z []byte) ([]byte, bool) {
	n := 0 // digits of the integer part
	for n < len(z) && isDigit(z[n]) {
		n++
	}
	if n == 0 {
		return k, false
	}
	whole, frac := z[:n], z[n:]
	if len(frac) > 0 {
		if len(frac) == 1 || frac[0] != '.' {
			return k, false
		}
		frac = frac[1:]
		for _, c := range frac {
			if !isDigit(c) {
				return k, false
			}
		}
	}
	lead := 0 // leading zeros
	for lead < n && whole[lead] == '0' {
		lead++
	}
	var d event.Dec
	if lead < n {
		d.Exp = int64(n - lead)
		k = append(appendExp(k, &d), whole[lead:]...)
	} else {
		f := 0
		for f < len(frac) && frac[f] == '0' {
			f++
		}
		if f == len(frac) {
			return k, true // zero: no digits
		}
		d.Exp = int64(-f)
		k = appendExp(k, &d)
		frac = frac[f:]
	}
	k = append(k, frac...)
	for k[len(k)-1] == '0' { // trailing zeros; a nonzero digit comes first
		k = k[:len(k)-1]
	}
	return k, true
}

// mix64 is splitmix64's finalizer (a bijection).
func mix64(v uint64) uint64 {
	v = (v ^ v>>30) * 0xbf58476d1ce4e5b9
	v = (v ^ v>>27) * 0x94d049bb133111eb
	return v ^ v>>31
}

// decValue returns a decimal literal's value as its significant digits
// (a number, no leading or trailing zeros) and adjusted exponent, as
// appendExp and Digits write them: zero (and text that is no decimal,
// which zKey takes as zero) is (0, 0); false when there are more than 19
// significant digits.
func decValue(z []byte) (sig uint64, exp int64, ok bool) {
	if sig, exp, ok, plain := plainDecValue(z); plain {
		return sig, exp, ok
	}
	d, _ := event.ParseDec(z)
	if d.IsZero() {
		return 0, 0, true
	}
	var buf [20]byte
	digits := d.Digits(buf[:0])
	if len(digits) > 19 {
		return 0, 0, false
	}
	for _, c := range digits {
		sig = sig*10 + uint64(c-'0')
	}
	return sig, d.Exp, true
}

// plainDecValue is decValue for the usual literal (digits and an
// optional fraction, as appendPlainDec takes) in one pass; plain is
// false for any other literal.
func plainDecValue(z []byte) (sig uint64, exp int64, ok, plain bool) {
	if len(z) <= 19 { // at most 19 digits: the value in one pass, as a number
		return shortDecValue(z)
	}
	n := 0 // digits of the integer part
	for n < len(z) && isDigit(z[n]) {
		n++
	}
	if n == 0 {
		return 0, 0, false, false
	}
	whole, frac := z[:n], z[n:]
	if len(frac) > 0 {
		if len(frac) == 1 || frac[0] != '.' {
			return 0, 0, false, false
		}
		frac = frac[1:]
	}
	lead := 0 // leading zeros
	for lead < n && whole[lead] == '0' {
		lead++
	}
	var nd, zeros int // digits taken; zeros pending (kept only if a nonzero digit follows)
	if lead < n {
		exp = int64(n - lead)
		sig, nd, zeros = addDigits(sig, nd, zeros, whole[lead:])
	} else {
		f := 0
		for f < len(frac) && frac[f] == '0' {
			f++
		}
		exp, frac = int64(-f), frac[f:]
	}
	for _, c := range frac {
		if !isDigit(c) {
			return 0, 0, false, false
		}
	}
	sig, nd, _ = addDigits(sig, nd, zeros, frac)
	if nd == 0 {
		return 0, 0, true, true
	}
	return sig, exp, nd <= 19, true
}

// shortDecValue is plainDecValue of a literal of at most 19 bytes: its
// digits read as one number v (leading zeros vanish), the fraction's
// length f; the significant digits are v's decimal digits (nd), the
// exponent nd-f, and v's trailing zeros are dropped (each lowers nd and
// f alike).
func shortDecValue(z []byte) (sig uint64, exp int64, ok, plain bool) {
	var v uint64
	n, i := len(z), 0
	for ; i < n; i++ { // the integer part
		d := z[i] - '0'
		if d > 9 {
			break
		}
		v = v*10 + uint64(d)
	}
	f := 0 // digits after the '.'
	if i < n {
		if i == 0 || z[i] != '.' || i == n-1 {
			return 0, 0, false, false
		}
		for j := i + 1; j < n; j++ {
			d := z[j] - '0'
			if d > 9 {
				return 0, 0, false, false
			}
			v = v*10 + uint64(d)
		}
		f = n - 1 - i
	} else if n == 0 {
		return 0, 0, false, false
	}
	if v == 0 {
		return 0, 0, true, true
	}
	exp = int64(decDigits(v) - f)
	if z[n-1] == '0' { // trailing zeros
		for v%10 == 0 {
			v /= 10
		}
	}
	return v, exp, true, true
}

// scaledDec is decValue of a decimal whose digits, read as one number,
// are v, f of them after its point (at most 19 digits in all).
func scaledDec(v uint64, f int) (sig uint64, exp int64) {
	if v == 0 {
		return 0, 0
	}
	exp = int64(decDigits(v) - f)
	for v%10 == 0 {
		v /= 10
	}
	return v, exp
}

// decDigits is the number of decimal digits of v (v > 0).
func decDigits(v uint64) int {
	t := bits.Len64(v) * 1233 >> 12 // log10(2) is about 1233/4096: t or t+1 digits
	if v >= pow10[t] {
		t++
	}
	return t
}

// pow10 holds 10^t for t up to 19 (decDigits).
var pow10 = func() (p [20]uint64) {
	p[0] = 1
	for t := 1; t < len(p); t++ {
		p[t] = p[t-1] * 10
	}
	return p
}()

// addDigits appends the ASCII digits of run to the significant digits
// sig (nd of them, zeros pending after them), dropping trailing zeros
// until a nonzero digit follows; past 19 digits sig means nothing.
func addDigits(sig uint64, nd, zeros int, run []byte) (uint64, int, int) {
	for _, c := range run {
		if c == '0' {
			zeros++
			continue
		}
		for ; zeros > 0; zeros-- {
			sig *= 10
			nd++
		}
		sig = sig*10 + uint64(c-'0')
		nd++
	}
	return sig, nd, zeros
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// sameByValue reports whether the decimal literals a and b are one value
// as matchKeys hashes them (the adjusted exponent and significant digits
// of ParseDec's split, which any text gets) and as CompareDecimal
// compares them: a match key found is checked by it, so a key shared by
// chance pairs nothing matchKeys would not (".0" and "0.0", malformed
// and not, compare equal but hash apart).
func sameByValue(a, b []byte) bool {
	if event.CompareDecimal(a, b) != 0 {
		return false
	}
	var ba, bb [64]byte
	da, _ := event.ParseDec(a)
	db, _ := event.ParseDec(b)
	return string(da.Digits(appendExp(ba[:0], &da))) == string(db.Digits(appendExp(bb[:0], &db)))
}

// matchKeys returns the keys of what pairs an event fill lacking its
// trade id with a record lacking its z: (market, orderId, qty and price
// by value), for the chain of event fills (e) and of records (r).
func (b *fillBook) matchKeys(m uint8, orderID, qty, price []byte) (e, r uint64) {
	var buf keyBuf
	k := append(buf[:0], 'e', m)
	k = append(k, orderID...)
	for _, lit := range [2][]byte{qty, price} {
		d, _ := event.ParseDec(lit)
		k = d.Digits(append(appendExp(k, &d), '/'))
	}
	e = b.sum(k)
	k[0] = 'r'
	return e, b.sum(k)
}
