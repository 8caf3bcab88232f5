package main

import (
	"testing"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestDominates(t *testing.T) {
	ref := result{NsPerOp: 100, PeakHeap: 1000}
	for _, c := range []struct {
		m    result
		want bool
	}{
		{result{NsPerOp: 90, PeakHeap: 1000}, true},
		{result{NsPerOp: 90.1, PeakHeap: 1000}, false},
		{result{NsPerOp: 50, PeakHeap: 1001}, false},
		{result{NsPerOp: 50, PeakHeap: 0}, true},
	} {
		if got := dominates(c.m, ref); got != c.want {
			t.Errorf("dominates(%+v, %+v) = %v, want %v", c.m, ref, got, c.want)
		}
	}
}

func TestOpsFor(t *testing.T) {
	small := shapes.Shape{Lengths: make([]int, shapes.Len)}
	big := shapes.Shape{Lengths: make([]int, shapes.Len)}
	for i := range small.Lengths {
		small.Lengths[i], big.Lengths[i] = 100, 64<<10
	}
	for _, c := range []struct {
		s      shapes.Shape
		ops    int
		budget int64
		want   int
	}{
		{small, 0, 512 << 20, shapes.Len},
		{big, 0, 512 << 20, 8192},
		{big, 0, 1, 4096},
		{big, 100, 1, 100},
	} {
		if got := opsFor(c.s, c.ops, c.budget); got != c.want {
			t.Errorf("opsFor(mean %d, %d, %d) = %d, want %d", c.s.Lengths[0], c.ops, c.budget, got, c.want)
		}
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"512MiB": 512 << 20, "64KiB": 64 << 10, "1GiB": 1 << 30, "1000": 1000} {
		if got, err := parseBytes(in); got != want || err != nil {
			t.Errorf("parseBytes(%q) = %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "MiB", "-1KiB", "1.5MiB"} {
		if _, err := parseBytes(in); err == nil {
			t.Errorf("parseBytes(%q): no error", in)
		}
	}
}

// TestMeasureHandsOn: every peer's ops hand on every byte they write, in
// both passes, and the figures are taken.
func TestMeasureHandsOn(t *testing.T) {
	s := shapes.Suite()[0]
	var want int64
	for _, n := range s.Lengths[:4096] {
		want += int64(n)
	}
	for _, p := range peers {
		before := total.n
		r := p.measure(run{shape: s, ops: 4096, inFlight: 4, sample: 64})
		if got := total.n - before; got != 2*want {
			t.Errorf("%s: handed on %d bytes, want %d (two passes of %d)", p.name, got, 2*want, want)
		}
		if r.NsPerOp <= 0 || r.CapWritten < 1 || r.Samples < 2*4096/64 {
			t.Errorf("%s: figures %+v: want time > 0, cap/written >= 1, %d samples or more", p.name, r, 2*4096/64)
		}
	}
}
