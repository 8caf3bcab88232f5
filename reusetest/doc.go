// Package reusetest measures allocations without the two ways the standard
// tools hide them (pitfall P5).
//
// testing.AllocsPerRun calls the function once before it starts counting, so
// allocations made only on the first call (lazy initialisation, a pool's first
// New) never show, and it returns the average rounded down to an integer, so a
// function that allocates on every other call reads 0. A benchmark's allocs/op
// column is rounded down the same way: 4 allocations over 5 iterations print
// as 0 allocs/op.
//
// Measure reports both parts separately and exactly: First is what the very
// first call allocated, PerRun and BytesPerRun are the steady-state averages
// over the following runs, as fractions. AllocsAtMost turns that into a test
// assertion, and ReportAllocs adds the exact figure to a benchmark's output
// beside the rounded built-in one.
//
// # Concurrency
//
// Like testing.AllocsPerRun, Measure sets GOMAXPROCS to 1 while it measures, so
// that other goroutines rarely run and allocate during the measurement. The
// counts come from runtime.ReadMemStats and include every goroutine's
// allocations; do not measure while other tests run in parallel.
//
// # Race detector
//
// Under -race, sync.Pool drops a quarter of Puts at random, so pooled code
// allocates where it would not otherwise. AllocsAtMost skips its test when the
// race detector is on; Measure still measures.
package reusetest
