package report

import (
	"math"
	"testing"
)

func TestMedianInterval(t *testing.T) {
	seq := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(n - i) // descending, so the sort matters
		}
		return s
	}
	tests := []struct {
		n               int
		low, high       float64
		median, minConf float64
		maxConf         float64
	}{
		{1, 1, 1, 1, 0, 0},
		{5, 1, 5, 3, 0.93, 0.94},    // too few for 95%: the whole range, 93.75%
		{9, 2, 8, 5, 0.96, 0.962},   // x(2)..x(8): 96.1%
		{15, 4, 12, 8, 0.96, 0.966}, // x(4)..x(12): 96.5%
	}
	for _, tt := range tests {
		got := medianInterval(seq(tt.n))
		if got.Low != tt.low || got.High != tt.high || got.Median != tt.median {
			t.Errorf("medianInterval(1..%d) = %+v, want median %v in [%v, %v]", tt.n, got, tt.median, tt.low, tt.high)
		}
		if got.Confidence < tt.minConf || got.Confidence > tt.maxConf {
			t.Errorf("medianInterval(1..%d).Confidence = %v, want in [%v, %v]", tt.n, got.Confidence, tt.minConf, tt.maxConf)
		}
	}
	if got := medianInterval([]float64{math.NaN(), 2, 4}); got.Median != 3 {
		t.Errorf("medianInterval with a NaN: median %v, want 3 (NaN ignored)", got.Median)
	}
	if got := medianInterval(nil); got != (Interval{}) {
		t.Errorf("medianInterval(nil) = %+v, want zero", got)
	}
}

// TestMedianIntervalCoverage checks the stated confidence by simulation:
// over many samples of 9 from a skewed distribution with a known median,
// the interval must hold it about as often as it says.
func TestMedianIntervalCoverage(t *testing.T) {
	const trials = 4000
	// A deterministic generator: exponential times, median ln 2.
	state := uint64(1)
	next := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		u := (float64(state>>11) + 0.5) / (1 << 53)
		return -math.Log(u)
	}
	hits := 0
	conf := 0.0
	for range trials {
		xs := make([]float64, 9)
		for i := range xs {
			xs[i] = next()
		}
		iv := medianInterval(xs)
		conf = iv.Confidence
		if iv.Low <= math.Ln2 && math.Ln2 <= iv.High {
			hits++
		}
	}
	if got := float64(hits) / trials; math.Abs(got-conf) > 0.02 {
		t.Errorf("interval held the median in %.3f of trials, want about its confidence %.3f", got, conf)
	}
}

func TestQuantile(t *testing.T) {
	s := []float64{1, 2, 3, 4}
	for _, tt := range []struct{ q, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.75, 3.25}, {1, 4}} {
		if got := quantile(s, tt.q); got != tt.want {
			t.Errorf("quantile(1..4, %v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// TestRerunDisjoint checks by simulation what two runs of the report see
// when each round is an independent draw of what any run draws (each in
// its own pass, on a fresh instance): the 96% interval over 9 rounds
// holds the median in 96% of runs, and the intervals of two runs are
// disjoint in about 1 pair in 300, far below the 1 verdict in 40 that
// `reuse compare -agree` allows. If the rounds of a run shared an offset
// that another run does not (a calibrated round size, a collector state,
// all the rounds of a run on one instance), the intervals would be
// disjoint far more often: with an offset as large as the spread of the
// rounds, in about 1 pair in 4.
func TestRerunDisjoint(t *testing.T) {
	const trials = 20000
	state := uint64(7)
	next := func() float64 { // exponential, median ln 2
		state = state*6364136223846793005 + 1442695040888963407
		u := (float64(state>>11) + 0.5) / (1 << 53)
		return -math.Log(u)
	}
	run := func(offset float64) Interval {
		xs := make([]float64, 9)
		for i := range xs {
			xs[i] = offset + next()
		}
		return medianInterval(xs)
	}
	disjoint := func(a, b Interval) bool { return a.High < b.Low || b.High < a.Low }
	var covered, apart, apartShared int
	for range trials {
		a, b := run(0), run(0)
		if a.Low <= math.Ln2 && math.Ln2 <= a.High {
			covered++
		}
		if disjoint(a, b) {
			apart++
		}
		// A shared offset per run, as large as the rounds' spread (the
		// exponential's standard deviation is 1).
		if disjoint(run(next()-1), run(next()-1)) {
			apartShared++
		}
	}
	if got := float64(covered) / trials; math.Abs(got-0.961) > 0.01 {
		t.Errorf("the interval held the median in %.3f of runs, want 0.961", got)
	}
	if got := float64(apart) / trials; got > 0.006 {
		t.Errorf("two runs' intervals disjoint in %.4f of pairs, want about 0.003", got)
	}
	if got := float64(apartShared) / trials; got < 0.1 {
		t.Errorf("with an offset per run, intervals disjoint in %.4f of pairs, want far more than without", got)
	}
	t.Logf("coverage %.3f; disjoint %.4f of pairs, %.4f with an offset per run", float64(covered)/trials, float64(apart)/trials, float64(apartShared)/trials)
}
