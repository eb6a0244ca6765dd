package event

// Kind says what one decoded element of a frame is.
type Kind uint8

// Element kinds. Only the four event kinds count as events.
const (
	KindMalformed         Kind = iota // not JSON, or failing the decoding rules
	KindPing                          // {"ping": N} heartbeat
	KindUnknown                       // an object whose e names no known type
	KindAccount                       // outboundAccountInfo
	KindExecution                     // executionReport (spot)
	KindContractExecution             // contractExecutionReport
	KindPosition                      // outboundContractPositionInfo
)

// MaxFrame is the largest frame decoded; larger ones are malformed.
const MaxFrame = 1 << 20

// Event is one decoded element of a frame. Byte slices point into the
// frame or into the Decoder's buffers: they are valid until the next
// Decode call and must be copied to be kept. Only the view that Kind
// names is meaningful; the others hold leftovers.
//
// Kind and the fields of Exec that folding an order update reads come
// first, in about four cache lines (of the 17 an Event spans): the
// parallel ingest's one writer reads each event right after another
// core decoded it, and every line of it it touches is a miss there.
type Event struct {
	Kind Kind
	Exec ExecView // KindExecution, KindContractExecution

	Reason   string       // why it is malformed (KindMalformed)
	Raw      []byte       // the element's JSON text (the whole frame when it is not JSON)
	Ping     []byte       // N of a heartbeat, exactly as received (KindPing)
	Type     []byte       // e of an unknown type (KindUnknown)
	Account  AccountView  // KindAccount
	Position PositionView // KindPosition
}

// ExecView is an order update, spot or contract. Ids and decimals are the
// exact literals. The fields the fold reads for every update come first
// (see Event).
type ExecView struct {
	EventTime   int64  // E
	Created     int64  // O
	Working     bool   // w
	Maker       bool   // m
	Close       bool   // C (contract only)
	ZScale      uint8  // (see ZNum)
	Symbol      []byte // s
	Side        []byte // S
	Type        []byte // o
	TimeInForce []byte // f
	Status      []byte // X
	// CommissionAsset is N as written (JSON null when none: "null"),
	// never validated.
	CommissionAsset []byte
	Leverage        []byte // v (contract only)
	OrderID         []byte // i, ASCII digits
	// IDNum is i's number plus one when the decoder read it as a plain
	// number (at most 19 digits, no leading zero), 0 when not known: a
	// view built any other way leaves it 0 and the reader parses OrderID.
	IDNum         uint64
	ClientOrderID []byte // c, as written (string or integer literal)
	Quantity      []byte // q
	Price         []byte // p
	CumQty        []byte // z
	// ZNum and ZScale are z's digits read as one number and 1 + the
	// digits after its point, when the decoder read them so (at most
	// eight digits); ZScale 0 when not known, as IDNum.
	ZNum     uint64
	CumQuote []byte // Z

	// Fields the state does not use, as written (strings unescaped,
	// other values as their JSON text; nil when absent). Never validated.
	LastQty      []byte // l: last executed quantity
	LastPrice    []byte // L: last executed price
	Commission   []byte // n
	ExecType     []byte // x (optional, spot): current execution type
	RejectReason []byte // r (optional, spot)
	TradeTime    []byte // T (optional): transaction time
	TradeID      []byte // t (optional): trade id of this execution; -1 or absent when none
	StopPrice    []byte // P (optional, spot)
	IcebergQty   []byte // F (optional, spot)
}

// AccountView is an account update.
type AccountView struct {
	EventTime   int64 // E
	CanTrade    bool  // T
	CanWithdraw bool  // W
	CanDeposit  bool  // D
	Balances    []BalanceView

	// Optional fields, as written (nil when absent). Never validated.
	MakerCommission  []byte // m, bips
	TakerCommission  []byte // t, bips
	BuyerCommission  []byte // b, bips
	SellerCommission []byte // s, bips
	UpdateTime       []byte // u, ms
}

// BalanceView is one element of B.
type BalanceView struct {
	Asset  []byte // a
	Free   []byte // f
	Locked []byte // l
}

// PositionView is a contract position update.
type PositionView struct {
	AccountID        []byte // A, as written
	Symbol           []byte // s
	Side             []byte // S
	AvgPrice         []byte // p
	Total            []byte // P
	Available        []byte // a
	LiquidationPrice []byte // f
	Margin           []byte // m
	RealizedPnl      []byte // r
}

// Decoder turns frames into Events, reusing its memory: after warming up
// it does not allocate. The zero value is ready; it is not safe for
// concurrent use.
type Decoder struct {
	events  []Event
	bals    []BalanceView
	scratch []byte
	slots   [len(usedKeys) + 1]span // by slotOf; slot 0 takes every other key
	ping    span
	base    int  // the index in events of the current frame's first event
	generic bool // never take the fast path (tests compare the two)
	noLine  bool // fast path without execLine (tests compare the two)
}

// Reasons a frame or an element is malformed.
const (
	ReasonEmpty     = "empty frame"
	ReasonTooLarge  = "frame larger than 1 MiB"
	ReasonNotJSON   = "not JSON"
	ReasonNotObject = "neither an object nor an array of objects"
	ReasonNoType    = "no event type e"
	ReasonBadType   = "event type e is not a string"
)

var badField [128]string

func init() {
	for c := 'A'; c <= 'z'; c++ {
		badField[c] = "missing or invalid field " + string(c)
	}
}

// Decode decodes one text frame: an event object, an array of them, or a
// heartbeat. The result (one Event per element; one KindMalformed Event
// when the frame as a whole is not valid) is valid until the next call.
func (d *Decoder) Decode(frame []byte) []Event {
	d.Reset()
	if cap(d.scratch) < len(frame) {
		d.scratch = make([]byte, 0, len(frame)+len(frame)/4)
	}
	if cap(d.events) == 0 {
		return d.decode(frame)
	}
	// decode, with d.events empty and d.base 0 (a call less)
	line, ok := d.lineFrame(frame, &d.events[:1][0])
	if ok {
		d.events = d.events[:1]
		return d.events
	}
	return d.decodeOther(frame, line)
}

// DecodeKeep decodes one frame as Decode does, but the events of the
// frames decoded by DecodeKeep since the last Reset stay valid: a batch
// of frames is decoded on one goroutine and folded on another. It returns
// this frame's events.
func (d *Decoder) DecodeKeep(frame []byte) []Event {
	d.base = len(d.events)
	if cap(d.scratch)-len(d.scratch) < len(frame) {
		// Unescaped text never outgrows its frame; a new block leaves the
		// earlier frames' text where it is.
		d.scratch = make([]byte, 0, max(len(frame)+len(frame)/4, 64<<10))
	}
	return d.decode(frame)
}

// DropLast forgets the events of the last DecodeKeep (a frame decoded on
// a guess that proved wrong).
func (d *Decoder) DropLast() { d.events = d.events[:d.base] }

// Reset starts a new batch: the events of earlier calls are overwritten
// by the next ones.
func (d *Decoder) Reset() {
	d.events, d.bals, d.scratch, d.base = d.events[:0], d.bals[:0], d.scratch[:0], 0
}

// decode decodes frame, appending its events to d.events after d.base.
// A frame of one execution report written the service's way, nearly
// every frame of a user stream, is read by its line (lineFrame) in a
// function of its own: decodeOther's large frame and spills stay off
// that path.
func (d *Decoder) decode(frame []byte) []Event {
	n := len(d.events)
	if n == cap(d.events) {
		d.events = append(d.events, Event{})[:n]
	}
	evs := d.events[:n+1]
	line, ok := d.lineFrame(frame, &evs[n])
	if ok {
		d.events = evs
		return evs[d.base:]
	}
	return d.decodeOther(frame, line)
}

// lineFrame reads frame into ev when it is one execution report written
// the service's way (ok). Else line says whether the other paths try the
// line: not when it was tried and did not read the report (ev then holds
// leftovers; it is the next event's place, which they overwrite).
func (d *Decoder) lineFrame(frame []byte, ev *Event) (line, ok bool) {
	if d.generic || d.noLine || len(frame) > MaxFrame {
		return !d.generic && !d.noLine, false
	}
	f, kind := lineOf(frame, 0)
	var end int
	switch kind {
	case 0:
		return true, false
	case 1:
		ev.Kind, end = KindExecution, execSpotLine(f, len(lineHeadSpot), &ev.Exec)
	default:
		ev.Kind, end = KindContractExecution, execContractLine(f, lineHead, &ev.Exec)
	}
	if end == len(frame)-1 && frame[end] == '}' {
		ev.Reason, ev.Raw, ev.Ping, ev.Type = "", frame, nil, nil
		return true, true
	}
	// Not the frame's end (white space, another field, another object):
	// when the line read the report, tryFast has it read again and
	// fastExec's keyed loop go on; else it is not tried.
	return end > 0, false
}

// decodeOther decodes a frame lineFrame did not read, trying the line
// again only when line.
func (d *Decoder) decodeOther(frame []byte, line bool) []Event {
	if len(frame) > MaxFrame {
		return d.whole(frame, ReasonTooLarge)
	}
	s := scanner{b: frame}
	s.ws()
	if s.i >= len(frame) {
		return d.whole(frame, ReasonEmpty)
	}
	switch frame[s.i] {
	case '{':
		d.object(&s, 1, line)
	case '[':
		s.i++
		s.ws()
		if s.i < len(frame) && frame[s.i] == ']' {
			s.i++
			break
		}
		for !s.bad {
			s.ws()
			if s.i < len(frame) && frame[s.i] == '{' {
				d.object(&s, 2, !d.noLine)
			} else {
				start := s.i
				s.value(1)
				d.events = append(d.events, Event{Kind: KindMalformed, Reason: ReasonNotObject, Raw: frame[start:s.i]})
			}
			if !s.next(']') {
				break
			}
		}
	default:
		s.value(0)
		if !s.bad {
			s.ws()
			if s.i == len(frame) {
				return d.whole(frame, ReasonNotObject)
			}
		}
		return d.whole(frame, ReasonNotJSON)
	}
	s.ws()
	if s.bad || s.i != len(frame) {
		return d.whole(frame, ReasonNotJSON)
	}
	return d.events[d.base:]
}

func (d *Decoder) whole(frame []byte, reason string) []Event {
	d.events = append(d.events[:d.base], Event{Kind: KindMalformed, Reason: reason, Raw: frame})
	return d.events[d.base:]
}

// letters the decoder records; every other key is skipped.
const usedKeys = "eEscSofqpXizwmOZCvTWDBAParlLnNxtFbu"

// slotOf maps a one-letter key to its slot in Decoder.slots (0: unused).
var slotOf = func() (t [256]uint8) {
	for i := 0; i < len(usedKeys); i++ {
		t[usedKeys[i]] = uint8(i + 1)
	}
	return t
}()

// slot returns the value recorded for the one-letter key k.
func (d *Decoder) slot(k byte) span { return d.slots[slotOf[k]] }

// object scans the object at s.i and appends its Event. One-letter keys
// and string values, nearly all of a payload, take a fast path on locals.
func (d *Decoder) object(s *scanner, depth int, line bool) {
	b := s.b
	start := s.i
	if !d.generic && d.tryFast(s, depth, line) {
		return
	}
	d.slots = [len(usedKeys) + 1]span{}
	d.ping = span{}
	i := skipWS(b, start+1)
	if i < len(b) && b[i] == '}' {
		s.i = i + 1
		d.build(b, b[start:s.i])
		return
	}
	var kbuf [16]byte
	for {
		i = skipWS(b, i)
		if i >= len(b) || b[i] != '"' {
			s.bad = true
			return
		}
		var key []byte
		if i+2 < len(b) && b[i+2] == '"' && strPlain[b[i+1]] {
			key = b[i+1 : i+2]
			i += 3
		} else {
			end, esc, ok := scanStr(b, i+1)
			if !ok {
				s.bad = true
				return
			}
			key = b[i+1 : end]
			if esc && len(key) <= 6*4 {
				key = unescape(kbuf[:0], key)
			}
			i = end + 1
		}
		i = skipWS(b, i)
		if i >= len(b) || b[i] != ':' {
			s.bad = true
			return
		}
		i = skipWS(b, i+1)
		if i >= len(b) {
			s.bad = true
			return
		}
		// Write the value's span straight into its slot, field by field:
		// building it in a local and copying it whole stalls on store
		// forwarding, which showed as the decoder's hottest line.
		sl := &d.slots[0] // keys the decoder does not use
		if len(key) == 1 {
			sl = &d.slots[slotOf[key[0]]]
		} else if string(key) == "ping" {
			sl = &d.ping
		}
		sl.raw, sl.esc = int32(i), false
		switch c := b[i]; {
		case c == '"':
			j := i + 1
			for j < len(b) && strPlain[b[j]] {
				j++
			}
			if j < len(b) && b[j] == '"' { // no escapes: the common case, inline
				sl.start, sl.end, sl.kind = int32(i+1), int32(j), vString
				i = j + 1
				break
			}
			end, esc, ok := scanStr(b, i+1)
			if !ok {
				s.bad = true
				return
			}
			sl.start, sl.end, sl.kind, sl.esc = int32(i+1), int32(end), vString, esc
			i = end + 1
		case c == 't' && i+4 <= len(b) && string(b[i:i+4]) == "true":
			sl.start, sl.end, sl.kind = int32(i), int32(i+4), vTrue
			i += 4
		case c == 'f' && i+5 <= len(b) && string(b[i:i+5]) == "false":
			sl.start, sl.end, sl.kind = int32(i), int32(i+5), vFalse
			i += 5
		case c == '-' || isDigit(c):
			if c != '-' && c != '0' {
				j := i + 1
				for j < len(b) && isDigit(b[j]) {
					j++
				}
				if j < len(b) && b[j] != '.' && b[j] != 'e' && b[j] != 'E' { // an integer, inline
					sl.start, sl.end, sl.kind = int32(i), int32(j), vNumber
					i = j
					break
				}
			}
			end, ok := scanNumber(b, i)
			if !ok {
				s.bad = true
				return
			}
			sl.start, sl.end, sl.kind = int32(i), int32(end), vNumber
			i = end
		default:
			s.i = i
			v := s.value(depth)
			if s.bad {
				return
			}
			sl.start, sl.end, sl.kind = v.start, v.end, v.kind
			i = s.i
		}
		i = skipWS(b, i)
		if i >= len(b) {
			s.bad = true
			return
		}
		if b[i] == ',' {
			i++
			continue
		}
		if b[i] != '}' {
			s.bad = true
			return
		}
		s.i = i + 1
		d.build(b, b[start:s.i])
		return
	}
}

// tryFast appends the Event of the object at s.i by fastExec (with
// execLine first when line), fastPosition or fastAccount, when it takes
// the fast path.
func (d *Decoder) tryFast(s *scanner, depth int, line bool) bool {
	n := len(d.events)
	if n == cap(d.events) {
		d.events = append(d.events, Event{})[:n]
	}
	ev := &d.events[:n+1][n]
	var end int
	var ok bool
	// The type's first letter tells the heads apart: order updates, the
	// most frequent, are tried at once.
	switch b := s.b; {
	case len(b)-s.i <= 6 || b[s.i+6] != 'o':
		end, ok = fastExec(b, s.i, depth, ev, line)
	case hasAt(b, s.i, headPosition):
		ev.Kind = KindPosition
		end, ok = fastPosition(b, s.i+len(headPosition), depth, &ev.Position)
	case hasAt(b, s.i, headAccount):
		ev.Kind = KindAccount
		end, ok = d.fastAccount(b, s.i+len(headAccount), depth, &ev.Account)
	}
	if !ok {
		return false
	}
	ev.Reason, ev.Raw, ev.Ping, ev.Type = "", s.b[s.i:end], nil, nil
	d.events = d.events[:n+1]
	s.i = end
	return true
}

func skipWS(b []byte, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// build interprets the recorded slots of one object and appends its Event.
func (d *Decoder) build(b, raw []byte) {
	n := len(d.events)
	if n < cap(d.events) {
		// Reuse the element without zeroing it all: fill sets every field
		// of the view its Kind names, and the other views are unspecified.
		d.events = d.events[:n+1]
		ev := &d.events[n]
		ev.Reason, ev.Raw, ev.Ping, ev.Type = "", raw, nil, nil
	} else {
		d.events = append(d.events, Event{Raw: raw})
	}
	d.fill(b, &d.events[n])
}

func (d *Decoder) fill(b []byte, ev *Event) {
	e := d.slot('e')
	switch e.kind {
	case vNone:
		if d.ping.kind != vNone {
			ev.Kind = KindPing
			ev.Ping = b[d.ping.raw:d.ping.end]
			if d.ping.kind == vString {
				ev.Ping = b[d.ping.raw : d.ping.end+1]
			}
			return
		}
		bad(ev, ReasonNoType)
		return
	case vString:
	default:
		bad(ev, ReasonBadType)
		return
	}
	typ := d.str(b, e)
	switch string(typ) {
	case TypeExecution:
		ev.Kind = KindExecution
		if c := d.exec(b, &ev.Exec, false); c != 0 {
			bad(ev, badField[c])
		}
	case TypeContractExecution:
		ev.Kind = KindContractExecution
		if c := d.exec(b, &ev.Exec, true); c != 0 {
			bad(ev, badField[c])
		}
	case TypeAccount:
		ev.Kind = KindAccount
		if reason := d.account(b, &ev.Account); reason != "" {
			bad(ev, reason)
		}
	case TypePosition:
		ev.Kind = KindPosition
		if c := d.position(b, &ev.Position); c != 0 {
			bad(ev, badField[c])
		}
	default:
		ev.Kind = KindUnknown
		ev.Type = typ
	}
}

func bad(ev *Event, reason string) {
	*ev = Event{Kind: KindMalformed, Reason: reason, Raw: ev.Raw}
}
