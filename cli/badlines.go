package cli

import (
	"fmt"

	"bhtop/journal"
)

// maxBadNotes is how many unreadable lines replay names one by one in the
// dashboard's events; the rest are only counted.
const maxBadNotes = 5

// badLines tallies the journal lines replay could not fold (a truncated
// last line, binary junk, a line over journal.MaxLine), so that it can
// say where instead of folding on in silence.
type badLines struct {
	name      string // the journal, as named on the command line
	records   int    // records seen, folded or not
	count     int
	firstLine int
	firstWhy  string
}

// note counts rec, and it as bad when why is not ""; it returns how many
// bad lines there are so far.
func (b *badLines) note(rec journal.Record, why string) int {
	b.records++
	if why == "" {
		return b.count
	}
	if b.count == 0 {
		b.firstLine, b.firstWhy = rec.Line, why
	}
	b.count++
	return b.count
}

// summary is one line about the journal's defects, "" when it had none.
func (b *badLines) summary() string {
	switch {
	case b.records == 0:
		return fmt.Sprintf("%s: the journal is empty: nothing to fold", b.name)
	case b.count == 1:
		return fmt.Sprintf("%s: line %d: %s (counted as malformed)", b.name, b.firstLine, b.firstWhy)
	case b.count > 1:
		return fmt.Sprintf("%s: %d lines could not be folded and count as malformed; the first, line %d: %s",
			b.name, b.count, b.firstLine, b.firstWhy)
	}
	return ""
}
