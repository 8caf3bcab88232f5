package reusetest

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/reuse-go/reuse/internal/race"
)

// Allocs is the result of Measure.
type Allocs struct {
	// First and FirstBytes are the allocations, and their bytes, made by the
	// first call of the function, counted on their own.
	First, FirstBytes uint64
	// Runs is the number of steady-state calls measured after the first.
	Runs int
	// PerRun and BytesPerRun are the allocations and bytes per call over the
	// steady-state runs, as exact fractions: 0.5 when every other call
	// allocates once.
	PerRun, BytesPerRun float64
}

// String formats a as "first: 2 allocs (64 B); steady: 0.5 allocs/run (8 B/run) over 100 runs".
func (a Allocs) String() string {
	return fmt.Sprintf("first: %d allocs (%d B); steady: %g allocs/run (%g B/run) over %d runs",
		a.First, a.FirstBytes, a.PerRun, a.BytesPerRun, a.Runs)
}

// Measure calls f once and counts that call's allocations as First, then calls
// it runs more times and reports the average allocations per call as exact
// fractions. It panics if runs < 1 or f is nil.
func Measure(runs int, f func()) Allocs {
	if runs < 1 {
		panic("reusetest: Measure: runs < 1")
	}
	if f == nil {
		panic("reusetest: Measure: nil func")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))

	var m0, m1, m2 runtime.MemStats
	runtime.ReadMemStats(&m0)
	f()
	runtime.ReadMemStats(&m1)
	for i := 0; i < runs; i++ {
		f()
	}
	runtime.ReadMemStats(&m2)
	return Allocs{
		First:       m1.Mallocs - m0.Mallocs,
		FirstBytes:  m1.TotalAlloc - m0.TotalAlloc,
		Runs:        runs,
		PerRun:      float64(m2.Mallocs-m1.Mallocs) / float64(runs),
		BytesPerRun: float64(m2.TotalAlloc-m1.TotalAlloc) / float64(runs),
	}
}

// steadyRuns is how many steady-state calls AllocsAtMost measures.
const steadyRuns = 1000

// retries is how many times AllocsAtMost measures again when a measurement
// exceeded its bound.
const retries = 2

// AllocsAtMost measures f with Measure over 1000 steady-state runs and fails t
// (t.Errorf) when PerRun, the steady-state allocations per call, exceeds max;
// the message gives First and PerRun. max is a count of allocations per call
// and may be a fraction (0.5: at most one allocation every other call). The first call
// is not held to max: it may fill a pool. A measurement over max is taken
// again, up to twice, and t fails only when all three are over: the count
// includes every goroutine's allocations, and a collection (which empties
// pools and runs finalizers and cleanups) or a cleanup queued earlier can
// add a few to one measurement, which is not what f costs in steady state;
// a cost that f has every time shows in all three. Under the race detector,
// which makes sync.Pool drop values on purpose, it skips t instead. It
// returns the last measurement.
func AllocsAtMost(t TB, max float64, f func()) Allocs {
	t.Helper()
	if race.Enabled {
		t.Skip("reusetest: allocation counts are not meaningful under -race (sync.Pool drops values on purpose)")
		return Allocs{}
	}
	a := Measure(steadyRuns, f)
	for try := 0; a.PerRun > max && try < retries; try++ {
		a = Measure(steadyRuns, f)
	}
	if a.PerRun > max {
		t.Errorf("allocations: steady state %g allocs/run (%g B/run), want at most %g; first call: %d allocs (%d B)",
			a.PerRun, a.BytesPerRun, max, a.First, a.FirstBytes)
	}
	return a
}

// ReportAllocs makes b report allocations, and returns a function that adds
// the exact allocations per iteration to the benchmark's output as the metric
// "exact-allocs/op", beside the built-in allocs/op, which is rounded down to
// an integer. Call it just before the benchmark loop and defer the result:
//
//	defer reusetest.ReportAllocs(b)()
//	for b.Loop() {
//		...
//	}
//
// The count covers everything allocated between the two calls, by every
// goroutine, so setup belongs before ReportAllocs.
func ReportAllocs(b *testing.B) func() {
	b.Helper()
	b.ReportAllocs()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)
	return func() {
		var m1 runtime.MemStats
		runtime.ReadMemStats(&m1)
		if b.N > 0 {
			b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/float64(b.N), "exact-allocs/op")
		}
	}
}
