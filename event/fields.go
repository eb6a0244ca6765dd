package event

// Typed reads of the values recorded for one object. Each returns false
// (or the offending key) when the value has the wrong type or form.

// str returns a string value's text, unescaped into the scratch buffer
// when it holds escapes.
func (d *Decoder) str(b []byte, v span) []byte {
	text := b[v.start:v.end]
	if !v.esc {
		return text
	}
	n := len(d.scratch)
	d.scratch = unescape(d.scratch, text)
	return d.scratch[n:len(d.scratch):len(d.scratch)]
}

func (d *Decoder) strField(b []byte, k byte, dst *[]byte) bool {
	v := d.slot(k)
	if v.kind != vString {
		return false
	}
	*dst = d.str(b, v)
	return true
}

// timeField reads an int64 written as a JSON integer or a string of an
// optional '-' and digits.
func (d *Decoder) timeField(b []byte, k byte, dst *int64) bool {
	v := d.slot(k)
	var text []byte
	switch v.kind {
	case vNumber:
		text = b[v.start:v.end]
	case vString:
		text = d.str(b, v)
	default:
		return false
	}
	n, ok := ParseTime(text)
	*dst = n
	return ok
}

// idField reads an order id: ASCII digits as a JSON number or a string.
func (d *Decoder) idField(b []byte, k byte, dst *[]byte) bool {
	v := d.slot(k)
	switch v.kind {
	case vNumber:
		*dst = b[v.start:v.end]
	case vString:
		*dst = d.str(b, v)
	default:
		return false
	}
	return IsDigits(*dst)
}

// literalField reads a string or an integer literal, kept as written.
func (d *Decoder) literalField(b []byte, k byte, dst *[]byte) bool {
	v := d.slot(k)
	switch v.kind {
	case vNumber:
		*dst = b[v.start:v.end]
		return isIntLiteral(*dst)
	case vString:
		*dst = d.str(b, v)
		return true
	}
	return false
}

// decField reads a decimal written as a string or a JSON number.
func (d *Decoder) decField(b []byte, k byte, dst *[]byte) bool {
	v := d.slot(k)
	switch v.kind {
	case vNumber:
		*dst = b[v.start:v.end]
		return true // a JSON number is a decimal literal
	case vString:
		*dst = d.str(b, v)
		return IsDecimal(*dst)
	}
	return false
}

func (d *Decoder) boolField(k byte, dst *bool) bool {
	switch d.slot(k).kind {
	case vTrue:
		*dst = true
	case vFalse:
		*dst = false
	default:
		return false
	}
	return true
}

// fieldReader reads required fields in order, keeping the first key
// that is missing or bad; once one is, the later reads do nothing.
type fieldReader struct {
	d   *Decoder
	b   []byte
	bad byte
}

// note keeps k as the first bad key unless one is already kept.
func (r *fieldReader) note(k byte, ok bool) {
	if !ok {
		r.bad = k
	}
}

func (r *fieldReader) str(k byte, dst *[]byte) {
	if r.bad == 0 {
		r.note(k, r.d.strField(r.b, k, dst))
	}
}

func (r *fieldReader) time(k byte, dst *int64) {
	if r.bad == 0 {
		r.note(k, r.d.timeField(r.b, k, dst))
	}
}

func (r *fieldReader) id(k byte, dst *[]byte) {
	if r.bad == 0 {
		r.note(k, r.d.idField(r.b, k, dst))
	}
}

func (r *fieldReader) literal(k byte, dst *[]byte) {
	if r.bad == 0 {
		r.note(k, r.d.literalField(r.b, k, dst))
	}
}

func (r *fieldReader) dec(k byte, dst *[]byte) {
	if r.bad == 0 {
		r.note(k, r.d.decField(r.b, k, dst))
	}
}

// textKind is how a field kept as text is read: each has a fieldReader
// method and a fast reader (textAt).
type textKind uint8

const (
	textStr     textKind = iota // a string
	textLiteral                 // a string or an integer literal
	textDec                     // a decimal, string or number
)

// textAt are the fast path's readers by kind.
var textAt = [...]func(b []byte, i int) ([]byte, int, bool){textStr: strAt, textLiteral: literalAt, textDec: decAt}

// text reads the field k of kind kind.
func (r *fieldReader) text(kind textKind, k byte, dst *[]byte) {
	switch kind {
	case textStr:
		r.str(k, dst)
	case textLiteral:
		r.literal(k, dst)
	default:
		r.dec(k, dst)
	}
}

func (r *fieldReader) bool(k byte, dst *bool) {
	if r.bad == 0 {
		r.note(k, r.d.boolField(k, dst))
	}
}

// exec fills x and returns 0, or the first key that is missing or bad.
func (d *Decoder) exec(b []byte, x *ExecView, contract bool) byte {
	r := fieldReader{d: d, b: b}
	r.time('E', &x.EventTime)
	r.str('s', &x.Symbol)
	r.literal('c', &x.ClientOrderID)
	r.str('S', &x.Side)
	r.str('o', &x.Type)
	r.str('f', &x.TimeInForce)
	r.dec('q', &x.Quantity)
	r.dec('p', &x.Price)
	r.str('X', &x.Status)
	r.id('i', &x.OrderID)
	x.IDNum, x.ZScale = 0, 0 // not read here
	r.dec('z', &x.CumQty)
	r.bool('w', &x.Working)
	r.bool('m', &x.Maker)
	r.time('O', &x.Created)
	r.dec('Z', &x.CumQuote)
	if r.bad != 0 {
		return r.bad
	}
	for n, dst := range execRaws(x) {
		*dst = nil
		if execRawKept(n, contract) {
			*dst = d.rawField(b, execRawKeys[n])
		}
	}
	if !contract {
		x.Close, x.Leverage = false, nil
		return 0
	}
	r.bool('C', &x.Close)
	r.dec('v', &x.Leverage)
	return r.bad
}

// position fills p and returns 0, or the first key that is missing or bad.
func (d *Decoder) position(b []byte, p *PositionView) byte {
	r := fieldReader{d: d, b: b}
	for n, dst := range positionDsts(p) {
		r.text(positionKinds[n], positionKeys[n], dst)
	}
	return r.bad
}

// Reasons an account event is malformed beyond a missing field.
const (
	ReasonBadBalance = "a balance in B is not an object with a, f and l"
)

// account fills a and returns "", or why the event is malformed.
func (d *Decoder) account(b []byte, a *AccountView) string {
	if !d.timeField(b, 'E', &a.EventTime) {
		return badField['E']
	}
	for n, dst := range accountFlags(a) {
		if k := accountFlagKeys[n]; !d.boolField(k, dst) {
			return badField[k]
		}
	}
	for n, dst := range accountRaws(a) {
		*dst = d.rawField(b, accountRawKeys[n])
	}
	arr := d.slot('B')
	if arr.kind != vArray {
		return badField['B']
	}
	first := len(d.bals)
	s := scanner{b: b[:arr.end], i: int(arr.start) + 1}
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		a.Balances = d.bals[first:first:first]
		return ""
	}
	for {
		s.ws()
		if s.b[s.i] != '{' {
			return ReasonBadBalance
		}
		bal, ok := d.balance(&s)
		if !ok {
			return ReasonBadBalance
		}
		d.bals = append(d.bals, bal)
		if !s.next(']') {
			break
		}
	}
	a.Balances = d.bals[first:len(d.bals):len(d.bals)]
	return ""
}

// balance reads one balance object at s.i (already known to be valid JSON).
func (d *Decoder) balance(s *scanner) (BalanceView, bool) {
	b := s.b
	var fa, ff, fl span
	s.i++
	s.ws()
	if b[s.i] == '}' {
		s.i++
		return BalanceView{}, false
	}
	var kbuf [16]byte
	for {
		s.ws()
		k := s.str()
		s.ws()
		s.i++ // ':'
		s.ws()
		raw := s.i
		v := s.value(0)
		v.raw = int32(raw)
		key := b[k.start:k.end]
		if k.esc && len(key) <= 6*4 {
			key = unescape(kbuf[:0], key)
		}
		switch string(key) {
		case "a":
			fa = v
		case "f":
			ff = v
		case "l":
			fl = v
		}
		if !s.next('}') {
			break
		}
	}
	var bal BalanceView
	if fa.kind != vString || (ff.kind != vString && ff.kind != vNumber) || (fl.kind != vString && fl.kind != vNumber) {
		return bal, false
	}
	bal.Asset = d.str(b, fa)
	bal.Free, bal.Locked = d.decText(b, ff), d.decText(b, fl)
	return bal, IsDecimal(bal.Free) && IsDecimal(bal.Locked)
}

func (d *Decoder) decText(b []byte, v span) []byte {
	if v.kind == vNumber {
		return b[v.start:v.end]
	}
	return d.str(b, v)
}

// rawField returns an unvalidated field as written: a string's unescaped
// text, another value's JSON text, nil when absent.
func (d *Decoder) rawField(b []byte, k byte) []byte {
	v := d.slot(k)
	switch v.kind {
	case vNone:
		return nil
	case vString:
		return d.str(b, v)
	}
	return b[v.start:v.end]
}
