package event

// The fast path for positions and account updates, as for order updates
// (fastexec.go): one pass when the object is written the usual way, the
// generic path for anything else.

// The type keys an object must start with to take these fast paths.
const (
	headPosition = `{"e":"outboundContractPositionInfo",`
	headAccount  = `{"e":"outboundAccountInfo",`
)

// fastPosition decodes the fields of a position from b[i] (after its type),
// returning the index after the object; false when the generic path must
// decode it.
func fastPosition(b []byte, i, depth int, p *PositionView) (int, bool) {
	var seen uint16
	for {
		k, ok := keyAt(b, i)
		if !ok {
			return 0, false
		}
		i += 4
		var dst *[]byte
		read := decAt
		switch k {
		case 'A':
			dst, read = &p.AccountID, literalAt
		case 's':
			dst, read = &p.Symbol, strAt
		case 'S':
			dst, read = &p.Side, strAt
		case 'p':
			dst = &p.AvgPrice
		case 'P':
			dst = &p.Total
		case 'a':
			dst = &p.Available
		case 'f':
			dst = &p.LiquidationPrice
		case 'm':
			dst = &p.Margin
		case 'r':
			dst = &p.RealizedPnl
		case 'e':
			return 0, false
		}
		if dst != nil {
			*dst, i, ok = read(b, i)
			seen |= 1 << positionBit[k]
		} else {
			i, ok = skipAt(b, i, depth)
		}
		if i, ok = nextField(b, i, ok); !ok {
			return 0, false
		}
		if b[i-1] == '}' {
			return i, seen == 1<<9-1
		}
	}
}

// positionBit numbers a position's nine fields.
var positionBit = [256]uint8{'A': 0, 's': 1, 'S': 2, 'p': 3, 'P': 4, 'a': 5, 'f': 6, 'm': 7, 'r': 8}

// nextField checks what follows a value ending at b[i] (read well when
// ok): a comma, or the object's closing brace; it returns the index
// after it.
func nextField(b []byte, i int, ok bool) (int, bool) {
	if !ok || i >= len(b) || (b[i] != ',' && b[i] != '}') {
		return 0, false
	}
	return i + 1, true
}

// fastAccount decodes the fields of an account update from b[i] (after
// its type), its balances into d.bals, returning the index after the
// object; false when the generic path must decode it (d.bals as before).
func (d *Decoder) fastAccount(b []byte, i, depth int, a *AccountView) (int, bool) {
	first := len(d.bals)
	a.MakerCommission, a.TakerCommission, a.BuyerCommission, a.SellerCommission, a.UpdateTime = nil, nil, nil, nil, nil
	const need = 1<<5 - 1 // E T W D B
	var seen uint8
	for {
		k, ok := keyAt(b, i)
		if !ok {
			break
		}
		i += 4
		switch k {
		case 'E':
			a.EventTime, i, ok = timeAt(b, i)
			seen |= 1
		case 'T':
			a.CanTrade, i, ok = boolAt(b, i)
			seen |= 2
		case 'W':
			a.CanWithdraw, i, ok = boolAt(b, i)
			seen |= 4
		case 'D':
			a.CanDeposit, i, ok = boolAt(b, i)
			seen |= 8
		case 'B':
			d.bals = d.bals[:first] // the last B counts
			i, ok = d.balancesAt(b, i)
			seen |= 16
		case 'm':
			a.MakerCommission, i, ok = rawAt(b, i, depth)
		case 't':
			a.TakerCommission, i, ok = rawAt(b, i, depth)
		case 'b':
			a.BuyerCommission, i, ok = rawAt(b, i, depth)
		case 's':
			a.SellerCommission, i, ok = rawAt(b, i, depth)
		case 'u':
			a.UpdateTime, i, ok = rawAt(b, i, depth)
		case 'e':
			ok = false
		default:
			i, ok = skipAt(b, i, depth)
		}
		if i, ok = nextField(b, i, ok); !ok {
			break
		}
		if b[i-1] == '}' {
			if seen != need {
				break
			}
			n := len(d.bals)
			a.Balances = d.bals[first:n:n]
			return i, true
		}
	}
	d.bals = d.bals[:first]
	return 0, false
}

// after returns the index after text at b[i], which must be followed by
// a byte.
func after(b []byte, i int, text string) (int, bool) {
	return i + len(text), hasAt(b, i, text) && i+len(text) < len(b)
}

// balancesAt reads an array of balances written as {"a":..,"f":..,"l":..}
// into d.bals, returning the index after it.
func (d *Decoder) balancesAt(b []byte, i int) (int, bool) {
	if b[i] != '[' {
		return i, false
	}
	i++
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var bal BalanceView
		var ok bool
		if i, ok = after(b, i, `{"a":`); !ok {
			return i, false
		}
		if bal.Asset, i, ok = strAt(b, i); !ok {
			return i, false
		}
		if i, ok = after(b, i, `,"f":`); !ok {
			return i, false
		}
		if bal.Free, i, ok = decAt(b, i); !ok {
			return i, false
		}
		if i, ok = after(b, i, `,"l":`); !ok {
			return i, false
		}
		if bal.Locked, i, ok = decAt(b, i); !ok || !hasAt(b, i, `}`) {
			return i, false
		}
		d.bals = append(d.bals, bal)
		i++
		switch {
		case i >= len(b):
			return i, false
		case b[i] == ']':
			return i + 1, true
		case b[i] != ',':
			return i, false
		}
		i++
	}
}
