//go:build unix

package kgzip_test

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU makes b report the process's CPU time (user and system, every
// thread, so the garbage collector's work counts) per iteration as
// "cpu-ns/op". On a machine shared with other busy processes, wall time
// includes the time spent waiting for a core; CPU time does not. Call it just
// before the loop and defer the result.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
