// Package reusetest holds test helpers for code that pools: it measures
// allocations without the two ways the standard tools hide them (pitfall
// P5), routes the debug build's reports to the test that caused them, and
// waits for the garbage collector without sleeping.
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
// # The debug build and the garbage collector
//
// FailOnMisuse and IgnoreLeaks decide where the debug build's reports
// (-tags reusedebug) go during a test: a leak fails the test whose Get took
// the object, never another. Collect runs a collection and waits for the
// cleanups it queued, and CollectUntil collects until a condition holds, so
// that tests of leaks and of what pools release wait on events, not on
// sleeps. KeepPooled turns the collector off for a test that expects Get to
// return what Put stored.
//
// Every helper that takes a test takes a TB, which *testing.T, *testing.B
// and *testing.F satisfy.
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
