package event

// The fast path for positions and account updates, as for order updates
// (fastexec.go): one pass when the object is written the usual way, the
// generic path for anything else.

// The type keys an object must start with to take these fast paths.
const (
	headPosition = `{"e":"outboundContractPositionInfo",`
	headAccount  = `{"e":"outboundAccountInfo",`
)

// A position's keys in the order the generic path checks them (position
// in fields.go), how each value is read, and (by the same index) where
// positionDsts puts it.
const positionKeys = "AsSpPafmr"

var positionKinds = [len(positionKeys)]textKind{textLiteral, textStr, textStr,
	textDec, textDec, textDec, textDec, textDec, textDec}

// positionDsts returns where each of positionKeys goes in p.
func positionDsts(p *PositionView) [len(positionKeys)]*[]byte {
	return [...]*[]byte{&p.AccountID, &p.Symbol, &p.Side, &p.AvgPrice, &p.Total,
		&p.Available, &p.LiquidationPrice, &p.Margin, &p.RealizedPnl}
}

var positionIndex = keyIndex(positionKeys)

// keyIndex maps each byte of keys to one more than its index, other
// bytes to 0.
func keyIndex(keys string) (ix [256]uint8) {
	for n := range len(keys) {
		ix[keys[n]] = uint8(n + 1)
	}
	return ix
}

// fastPosition decodes the fields of a position from b[i] (after its type),
// returning the index after the object; false when the generic path must
// decode it.
func fastPosition(b []byte, i, depth int, p *PositionView) (int, bool) {
	dsts := positionDsts(p)
	var seen uint16
	for {
		k, ok := keyAt(b, i)
		if !ok || k == 'e' {
			return 0, false
		}
		i += 4
		if n := int(positionIndex[k]) - 1; n >= 0 {
			*dsts[n], i, ok = textAt[positionKinds[n]](b, i)
			seen |= 1 << n
		} else {
			i, ok = skipAt(b, i, depth)
		}
		if i, ok = nextField(b, i, ok); !ok {
			return 0, false
		}
		if b[i-1] == '}' {
			return i, seen == 1<<len(positionKeys)-1
		}
	}
}

// nextField checks what follows a value ending at b[i] (read well when
// ok): a comma, or the object's closing brace; it returns the index
// after it.
func nextField(b []byte, i int, ok bool) (int, bool) {
	if !ok || i >= len(b) || (b[i] != ',' && b[i] != '}') {
		return 0, false
	}
	return i + 1, true
}

// An account update's flags in the order the generic path checks them
// (account in fields.go), and its fields kept as written; by the same
// index, accountFlags and accountRaws say where each goes.
const (
	accountFlagKeys = "TWD"
	accountRawKeys  = "mtbsu"
)

func accountFlags(a *AccountView) [len(accountFlagKeys)]*bool {
	return [...]*bool{&a.CanTrade, &a.CanWithdraw, &a.CanDeposit}
}

func accountRaws(a *AccountView) [len(accountRawKeys)]*[]byte {
	return [...]*[]byte{&a.MakerCommission, &a.TakerCommission, &a.BuyerCommission, &a.SellerCommission, &a.UpdateTime}
}

// accountIndex numbers the flags, then the fields kept as written.
var accountIndex = keyIndex(accountFlagKeys + accountRawKeys)

// fastAccount decodes the fields of an account update from b[i] (after
// its type), its balances into d.bals, returning the index after the
// object; false when the generic path must decode it (d.bals as before).
func (d *Decoder) fastAccount(b []byte, i, depth int, a *AccountView) (int, bool) {
	first := len(d.bals)
	flags, raws := accountFlags(a), accountRaws(a)
	for _, dst := range raws {
		*dst = nil
	}
	const need = 1<<(2+len(accountFlagKeys)) - 1 // E B and the flags
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
		case 'B':
			d.bals = d.bals[:first] // the last B counts
			i, ok = d.balancesAt(b, i)
			seen |= 2
		case 'e':
			ok = false
		default:
			switch n := int(accountIndex[k]) - 1; {
			case n < 0:
				i, ok = skipAt(b, i, depth)
			case n < len(flags):
				*flags[n], i, ok = boolAt(b, i)
				seen |= 4 << n
			default:
				*raws[n-len(flags)], i, ok = rawAt(b, i, depth)
			}
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
