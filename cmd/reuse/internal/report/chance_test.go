package report

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCountQuantile checks the quantile against the binomial's, computed
// apart from the code (Python's math.comb, summing the pmf): for
// Binomial(39, 0.025), P(≤2) = 0.9267 and P(≤3) = 0.9840, so its 95th
// percentile is 3; for 39 trials at 9 rounds' rate, 10/512, it is 2
// (P(≤2) = 0.9596); for Binomial(100, 0.05), 9 (P(≤8) = 0.9369,
// P(≤9) = 0.9718); for Binomial(9, ½), 7.
func TestCountQuantile(t *testing.T) {
	same := func(n int, p float64) []float64 {
		r := make([]float64, n)
		for i := range r {
			r[i] = p
		}
		return r
	}
	for _, tt := range []struct {
		name  string
		rates []float64
		want  int
	}{
		{"Binomial(39, 0.025)", same(39, 0.025), 3},
		{"Binomial(39, 10/512)", same(39, 10.0/512), 2},
		{"Binomial(100, 0.05)", same(100, 0.05), 9},
		{"Binomial(9, ½)", same(9, 0.5), 7},
		{"one trial", same(1, 0.025), 0},
		{"no trial", nil, 0},
		{"certain events", same(5, 1), 5},
		// Unequal rates: two certain events and 39 at 0.025 is 2 + 3.
		{"unequal", append(same(2, 1), same(39, 0.025)...), 5},
	} {
		if got := countQuantile(tt.rates, 0.95); got != tt.want {
			t.Errorf("countQuantile(%s, 0.95) = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// chanceRun is a report of 39 cases against sync.Pool, 9 rounds each, of
// which slower read slower and the rest the same within noise.
func chanceRun(slower int) Report {
	w := Workload{ID: "W1", Name: "n"}
	for i := range 39 {
		v := Interval{Low: 0.95, Median: 1, High: 1.05, Confidence: 1 - 20.0/512}
		if i < slower {
			v = Interval{Low: 0.8, Median: 0.85, High: 0.9, Confidence: 1 - 20.0/512}
		}
		cmp := Comparison{Against: "sync.Pool", Speedup: v, Status: status(v)}
		w.Cases = append(w.Cases, Case{Name: string(rune('a' + i)), Verdict: Verdict{Headline: cmp, Baseline: cmp}})
	}
	return Report{Workloads: []Workload{w}}
}

func TestChanceSentence(t *testing.T) {
	const head = "By chance alone: with 39 intervals of 96% against sync.Pool, 0.8 cases on average read slower (and as many faster) when nothing differs, and 2 or fewer in 95 runs of 100; "
	for _, tt := range []struct {
		slower int
		want   string
	}{
		{0, head + "none slower here."},
		{1, head + "1 slower here, within what chance alone gives."},
		{4, head + "4 slower here, more than chance alone gives."},
	} {
		r := chanceRun(tt.slower)
		f := Summarize(r).Findings
		if len(f) < 2 || !strings.HasPrefix(f[0], "Against sync.Pool written correctly") || f[1] != tt.want {
			t.Errorf("%d slower: findings\n%q\nwant the headline, then\n%q", tt.slower, f, tt.want)
		}
		var page bytes.Buffer
		if err := WriteHTML(&page, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(page.String(), "<li>"+tt.want+"</li>") {
			t.Errorf("%d slower: the page lacks %q among its findings", tt.slower, tt.want)
		}
		var b bytes.Buffer
		if err := WriteJSON(&b, r); err != nil {
			t.Fatal(err)
		}
		var got struct{ Chance Chance }
		if err := json.Unmarshal(b.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		c := got.Chance
		if c.Cases != 39 || c.Slower != tt.slower || c.Limit != 2 || c.Beyond != (tt.slower > 2) || math.Abs(c.Rate-10.0/512) > 1e-12 || math.Abs(c.Expected-39*10.0/512) > 1e-9 {
			t.Errorf("%d slower: JSON chance = %+v", tt.slower, c)
		}
	}
}

// TestChanceNoCase: with no comparison with sync.Pool there is no
// sentence about chance.
func TestChanceNoCase(t *testing.T) {
	for _, f := range Summarize(Report{}).Findings {
		if strings.Contains(f, "chance") {
			t.Errorf("a report with no case says %q", f)
		}
	}
}

// TestFalseSlowerRate checks by simulation the rate that Chance assumes:
// when nothing differs, each round's ratio as likely above 1 as below, a
// case of 9 rounds reads "slower" in 10/512 = 1.95% of runs and "faster"
// as often, whatever the distribution of the ratios.
func TestFalseSlowerRate(t *testing.T) {
	const trials = 40000
	state := uint64(3)
	next := func() float64 { // log-normal-ish: exp of a sum of uniforms, median 1
		var s float64
		for range 4 {
			state = state*6364136223846793005 + 1442695040888963407
			s += (float64(state>>11)+0.5)/(1<<53) - 0.5
		}
		return math.Exp(s)
	}
	var slower, faster int
	for range trials {
		xs := make([]float64, 9)
		for i := range xs {
			xs[i] = next()
		}
		switch status(medianInterval(xs)) {
		case StatusSlower:
			slower++
		case StatusFaster:
			faster++
		}
	}
	// The standard error of a rate near 0.0195 over 40 000 trials is 0.0007.
	for _, got := range []float64{float64(slower) / trials, float64(faster) / trials} {
		if math.Abs(got-10.0/512) > 0.0035 {
			t.Errorf("slower in %.4f and faster in %.4f of trials, want %.4f each", float64(slower)/trials, float64(faster)/trials, 10.0/512)
		}
	}
	t.Logf("slower in %.4f, faster in %.4f of trials (want %.4f)", float64(slower)/trials, float64(faster)/trials, 10.0/512)
}

// TestSlowerNeedsEightOfNine pins the rate to the interval: over 9 rounds
// a case reads "slower" exactly when at least 8 ratios lie below 1, which
// has probability P(Binomial(9, ½) ≤ 1) = 10/512 when nothing differs.
func TestSlowerNeedsEightOfNine(t *testing.T) {
	for below := 0; below <= 9; below++ {
		xs := make([]float64, 9)
		for i := range xs {
			xs[i] = 1.1
			if i < below {
				xs[i] = 0.9
			}
		}
		iv := medianInterval(xs)
		if got, want := status(iv) == StatusSlower, below >= 8; got != want {
			t.Errorf("%d of 9 ratios below 1: %s (%+v), want slower %v", below, status(iv), iv, want)
		}
		if (1-iv.Confidence)/2 != 10.0/512 {
			t.Errorf("9 rounds: (1 - Confidence)/2 = %v, want 10/512", (1-iv.Confidence)/2)
		}
	}
}

// TestAAChance runs cases whose reuse variant is the very code of its
// sync.Pool variant (one constructor, one closure) through the report's
// harness, 9 passes each, and counts the cases that read slower and
// faster: nothing differs, so the counts are chance alone. It measures for
// a while, so it runs only when REUSE_AA gives the number of cases.
func TestAAChance(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("REUSE_AA"))
	if n <= 0 {
		t.Skip("set REUSE_AA to a number of cases to run the A/A check")
	}
	newOp := func() Op {
		pool := sync.Pool{New: func() any { return new([64]byte) }}
		return func(see func(any)) error {
			b := pool.Get().(*[64]byte)
			b[0]++
			keep(b)
			pool.Put(b)
			if see != nil {
				see(0)
			}
			return nil
		}
	}
	var runs []*caseRun
	for range n {
		runs = append(runs, &caseRun{def: CaseDef{Variants: []VariantDef{
			{Name: "new", Role: RoleBaseline, New: func() Op {
				return func(see func(any)) error {
					keep(new([64]byte))
					if see != nil {
						see(0)
					}
					return nil
				}
			}},
			{Name: "sync.Pool", Role: RoleSyncPoolCorrect, New: newOp},
			{Name: "the same sync.Pool", Role: RoleReuse, New: newOp},
		}}, ms: make([]*measurement, 3)})
	}
	for pass := range 9 {
		for _, c := range runs {
			c.pass(pass, 2*time.Millisecond)
		}
	}
	w := Workload{ID: "AA"}
	for _, c := range runs {
		w.Cases = append(w.Cases, c.result())
	}
	ch := headlineChance(Report{Workloads: []Workload{w}})
	var faster int
	var rates []float64
	for _, c := range w.Cases {
		if c.Verdict.Headline.Status == StatusFaster {
			faster++
		}
		rates = append(rates, (1-c.Verdict.Headline.Speedup.Confidence)/2)
	}
	t.Logf("A/A over %d cases: %d slower, %d faster; chance gives %.1f each, %d or fewer in 95 runs of 100",
		ch.Cases, ch.Slower, faster, ch.Expected, ch.Limit)
	if limit := countQuantile(rates, 0.999); ch.Cases != n || ch.Slower > limit || faster > limit {
		t.Errorf("A/A: %d of %d cases judged, %d slower and %d faster: beyond the 99.9th percentile of chance, %d", ch.Cases, n, ch.Slower, faster, limit)
	}
}
