package report

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/reuse-go/reuse/internal/cputime"
	"github.com/reuse-go/reuse/internal/race"
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
	if got := ops - before; got != 33 {
		t.Errorf("round ran %d ops, want 33: two stalled rounds and one measured, each after one untimed op", got)
	}
	v := m.variant()
	if v.Rounds != 1 || v.CPUNsPerOp <= 0 {
		t.Errorf("Rounds = %d, CPUNsPerOp = %v; want 1 round with positive CPU time", v.Rounds, v.CPUNsPerOp)
	}
	if v.Ops != 33 {
		t.Errorf("Ops = %d, want all 33 ops counted, the untimed ones too", v.Ops)
	}
}

// TestCalibrateIgnoresColdOp gives calibrate an instance whose pool was
// emptied just before (as a collection does): its first op takes longer
// than a round. The round must still be sized by the warm ops; the old
// calibration took the cold op alone and measured rounds of one op.
func TestCalibrateIgnoresColdOp(t *testing.T) {
	empty := false
	m := start(VariantDef{Name: "cold first", New: func() Op {
		return func(func(any)) error {
			if empty {
				time.Sleep(30 * time.Millisecond)
				empty = false
			}
			return nil
		}
	}})
	empty = true
	m.calibrate(10 * time.Millisecond)
	if m.n < 10 { // the warm ops take nanoseconds: about a million
		t.Errorf("calibrate after a cold op of 30 ms: %d ops per round of 10 ms, want the warm ops' many", m.n)
	}
}

// TestMissesCounted measures a variant whose pool misses on one op in
// ten, and one that drops what it does not keep, and checks the figures
// and the mark.
func TestMissesCounted(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector drops a quarter of sync.Pool's Puts")
	}
	i := 0
	leaky := VariantDef{Name: "leaky", New: func() Op {
		p := countedPool(func() any { return new(int) })
		return func(func(any)) error {
			v := p.Get()
			if i++; i%10 != 0 {
				p.Put(v)
			}
			return nil
		}
	}}
	dropping := leaky
	dropping.New = func() Op {
		p := countedPool(func() any { return new(int) })
		drops := countedDrops()
		return func(func(any)) error {
			v := p.Get()
			if i++; i%10 != 0 {
				p.Put(v)
			} else {
				drops.Add(1)
			}
			return nil
		}
	}
	for _, tt := range []struct {
		vd       VariantDef
		unsteady bool
	}{{leaky, true}, {dropping, false}} {
		m := start(tt.vd)
		m.n, m.slices = 1000, 2
		m.round()
		v := m.variant()
		if !v.MissesCounted || v.Misses < 90 || v.Misses > 110 {
			t.Errorf("%s: %d misses (counted %v) in %d ops, want about 100", tt.vd.Name, v.Misses, v.MissesCounted, v.Ops)
		}
		if (v.Unsteady != "") != tt.unsteady {
			t.Errorf("%s: miss rate %v with %d drops: Unsteady = %q, want it set: %v", tt.vd.Name, v.MissRate, v.Drops, v.Unsteady, tt.unsteady)
		}
	}
	if m := start(VariantDef{Name: "no pool", New: func() Op { return func(func(any)) error { return nil } }}); m.variant().MissesCounted {
		t.Error("a variant without a pool has its misses counted")
	}
}

// TestPassProcessFails gives Run a program that cannot run a pass: each
// pass runs in this process instead, and the report says why.
func TestPassProcessFails(t *testing.T) {
	r := Run(Options{Filter: regexp.MustCompile("W2"), Round: time.Millisecond, Rounds: 5, Exec: filepath.Join(t.TempDir(), "missing")})
	if r.Processes != 0 || r.ProcessError == "" {
		t.Errorf("Processes = %d, ProcessError = %q; want 0 and why", r.Processes, r.ProcessError)
	}
	for _, v := range r.Workloads[0].Cases[0].Variants {
		if !v.Valid || v.Rounds != 5 {
			t.Errorf("%s: valid %v, %d rounds; want valid, 5 rounds measured here", v.Name, v.Valid, v.Rounds)
		}
	}
	if s := Summarize(r).What; strings.Contains(s, "of its own") || strings.Contains(s, "of their own") {
		t.Errorf("summary says passes ran in processes: %q", s)
	}
}
