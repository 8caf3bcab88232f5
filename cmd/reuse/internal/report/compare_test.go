package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestMannWhitney(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	b := []float64{11, 12, 13, 14, 15, 16, 17, 18, 19}
	// Completely separated samples of 9: the exact two-sided p is
	// 2/C(18,9) = 4.1e-5; the normal approximation gives about 4e-4.
	if p := mannWhitney(a, b); p > 0.001 {
		t.Errorf("separated samples: p = %v, want < 0.001", p)
	}
	if p := mannWhitney(a, a); p < 0.9 {
		t.Errorf("identical samples: p = %v, want about 1", p)
	}
	// Interleaved samples cannot be told apart.
	c := []float64{1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5}
	if p := mannWhitney(a, c); p < 0.5 {
		t.Errorf("interleaved samples: p = %v, want large", p)
	}
	if p := mannWhitney([]float64{3, 3, 3}, []float64{3, 3, 3}); p != 1 {
		t.Errorf("all tied: p = %v, want 1", p)
	}
}

func TestCompare(t *testing.T) {
	mk := func(scale float64) Report {
		times := func(base float64) []float64 {
			out := make([]float64, 9)
			for i := range out {
				out[i] = base * scale * (1 + 0.01*float64(i))
			}
			return out
		}
		v := func(name, role string, base float64) Variant {
			ts := times(base)
			q1, q3 := quartiles(ts)
			return Variant{Name: name, Role: role, Valid: true, Check: "ok", NsPerOp: ts[0], NsMedian: ts[4], TimeQ1: q1, TimeQ3: q3, RoundTimes: ts}
		}
		return Report{GoVersion: "go1.x", Timing: "wall", Workloads: []Workload{{ID: "W2", Name: "n", Cases: []Case{{
			Variants: []Variant{v("make", RoleBaseline, 100), v("reuse", RoleReuse, 10)},
			Verdict:  Verdict{Headline: Comparison{Against: "sync.Pool", Status: StatusSame, Speedup: Interval{Median: 1, Low: 0.9, High: 1.1, Confidence: 0.96}}},
		}}}}}
	}
	var b bytes.Buffer
	if err := Compare(&b, mk(1), mk(0.5)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"W2 make", "W2 reuse", "-50.0% (p=0.000 n=9+9)", "geomean of new/old", "-50.0%", "same within noise"} {
		if !strings.Contains(out, want) {
			t.Errorf("comparison lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := Compare(&b, mk(1), mk(1)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "~ (p=") {
		t.Errorf("identical runs: want ~ for no change:\n%s", b.String())
	}
	if math.IsNaN(mannWhitney(nil, []float64{1})) {
		t.Error("mannWhitney with an empty side is NaN")
	}
}
