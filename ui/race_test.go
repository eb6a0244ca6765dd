//go:build race

package ui

// raceOn: drawing is one goroutine's work, and the race detector makes
// it some 15 times slower: the every-size loops take a sample of widths.
const raceOn = true
