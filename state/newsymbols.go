package state

// maxNotes bounds the symbols and assets noted between two
// TakeNewSymbols: a reader that never takes them (a replay) costs nothing
// more, and one that misses some finds them at its periodic recheck.
const maxNotes = 16

// noteSymbol notes that an order opened, or a position appeared, on sym
// (each once in a row).
func (s *Store) noteSymbol(sym string) {
	if n := len(s.newSyms); n < maxNotes && (n == 0 || s.newSyms[n-1] != sym) {
		s.newSyms = append(s.newSyms, sym)
	}
}

// TakeNewSymbols returns the symbols of the orders that opened and of the
// positions that appeared, and the assets of the balances that appeared,
// since the last call (a few at most; repeats possible), and forgets
// them. The slices are valid until the next change to the store. A
// client following the account's symbols (package market) asks whether
// any is new to it, rather than looking at the whole state after every
// change.
func (s *Store) TakeNewSymbols() (symbols, assets []string) {
	symbols, assets = s.newSyms, s.newAssets
	s.newSyms, s.newAssets = s.newSyms[:0], s.newAssets[:0]
	return symbols, assets
}
