package report

import (
	"testing"
	"time"

	"github.com/reuse-go/reuse/internal/cputime"
)

// TestRoundRerunsWhenCPUClockStalls replaces the CPU clock with one that
// does not advance across the first rounds, as a coarse virtual machine clock
// did in CI, and checks that no round with zero CPU time is kept.
func TestRoundRerunsWhenCPUClockStalls(t *testing.T) {
	if !cputime.Supported {
		t.Skip("no process CPU time on this platform")
	}
	defer func(f func() time.Duration) { cpuNow = f }(cpuNow)
	var reads int
	var clock time.Duration
	cpuNow = func() time.Duration {
		reads++
		if reads > 4 { // two stalled rounds, then one that advances
			clock += time.Millisecond
		}
		return clock
	}
	ops := 0
	m := start(VariantDef{Name: "count", New: func() Op {
		return func(func(any)) error { ops++; return nil }
	}})
	m.n = 10
	before := ops
	m.round()
	if got := ops - before; got != 30 {
		t.Errorf("round ran %d ops, want 30: two stalled rounds and one measured", got)
	}
	v := m.variant()
	if v.Rounds != 1 || v.CPUNsPerOp <= 0 {
		t.Errorf("Rounds = %d, CPUNsPerOp = %v; want 1 round with positive CPU time", v.Rounds, v.CPUNsPerOp)
	}
	if v.Ops != 30 {
		t.Errorf("Ops = %d, want all 30 ops counted", v.Ops)
	}
}
