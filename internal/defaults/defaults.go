// Package defaults fills the unset fields of an options struct: a
// duration, count or rate that is zero or negative takes its default.
package defaults

// Fill gives *p the default v when *p is zero or negative (unset).
func Fill[T ~int | ~int64 | ~float64](p *T, v T) {
	if *p <= 0 {
		*p = v
	}
}
