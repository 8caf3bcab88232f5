// Package cputime reads the CPU time the process has used, for benchmarks
// that must compare two variants on a machine shared with other work, where
// wall-clock time per operation varies several-fold with the load while CPU
// time does not.
package cputime

import (
	"testing"
	"time"
)

// Supported reports whether Now reads the process's CPU time; when false,
// Now returns 0 and a benchmark should not report a CPU metric.
const Supported = supported

// Now returns the user plus system CPU time used so far by all threads of the
// process, so it includes the garbage collector's background work caused by
// the code being measured. It returns 0 where Supported is false.
func Now() time.Duration { return now() }

// Report returns a function that adds the process CPU time per iteration
// since the call to b's output as the metric "cpu-ns/op". Call it just before
// the benchmark loop and defer the result, like reusetest.ReportAllocs. Where
// Supported is false it reports nothing.
func Report(b *testing.B) func() {
	start := now()
	return func() {
		if supported && b.N > 0 {
			b.ReportMetric(float64(now()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
