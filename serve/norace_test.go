//go:build !race

package serve

// raceEnabled: the race detector multiplies memory and CPU, so heap
// bounds are not checked under it.
const raceEnabled = false
