//go:build race

// Package race reports whether the race detector is compiled in.
//
// sync.Pool drops a quarter of Puts at random under the race detector, so tests
// that expect Get to return what Put stored, and allocation contracts, skip when
// Enabled is true.
package race

// Enabled is true when the binary is built with -race.
const Enabled = true
