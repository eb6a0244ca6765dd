//go:build !race

package ui

// raceOn: see race_test.go.
const raceOn = false
