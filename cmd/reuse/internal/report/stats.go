package report

import (
	"math"
	"slices"
)

// minConfidence is the least coverage an interval needs for a verdict: with
// fewer rounds than give it (5), a comparison says "too few rounds".
const minConfidence = 0.9

// Interval is a median with a distribution-free confidence interval for it,
// from order statistics: [Low, High] holds the true median with probability
// Confidence, whatever the distribution of the rounds. It is what benchstat
// reports for a median, and needs no assumption of normality, which times
// on a loaded machine do not meet.
type Interval struct {
	Median     float64 `json:"median"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence"` // 0.961 for 9 rounds, 0.965 for 15; 0 for one round
}

// medianInterval returns the median of xs with the widest-coverage interval
// not wider than needed for 95%: [x(k), x(n+1-k)] for the largest k with
// P(Binomial(n, ½) < k) ≤ 2.5%, or the whole range when n is too small for
// even that (then Confidence is below 95%). NaNs are ignored; with no value
// it returns the zero Interval.
func medianInterval(xs []float64) Interval {
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	n := len(s)
	if n == 0 {
		return Interval{}
	}
	slices.Sort(s)
	k, tail := 1, binomTail(n, 0) // tail = P(B < k)
	for k < n/2 {
		next := tail + binomPMF(n, k)
		if next > 0.025 {
			break
		}
		k, tail = k+1, next
	}
	return Interval{Median: quantile(s, 0.5), Low: s[k-1], High: s[n-k], Confidence: 1 - 2*tail}
}

// binomTail returns P(B = 0 … k) for B ~ Binomial(n, ½).
func binomTail(n, k int) float64 {
	var p float64
	for i := 0; i <= k; i++ {
		p += binomPMF(n, i)
	}
	return p
}

// binomPMF returns P(B = k) for B ~ Binomial(n, ½).
func binomPMF(n, k int) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
}

// quantile returns the q-quantile of sorted s, interpolating linearly
// between order statistics (the method of R's default and of numpy).
func quantile(s []float64, q float64) float64 {
	if len(s) == 0 {
		return 0
	}
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[i] + (pos-float64(i))*(s[i+1]-s[i])
}

// quartiles returns the first and third quartiles of xs.
func quartiles(xs []float64) (q1, q3 float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return quantile(s, 0.25), quantile(s, 0.75)
}

// ratios returns num[i]/den[i] for each round i both have, NaN where a
// denominator is not positive.
func ratios(num, den []float64) []float64 {
	n := min(len(num), len(den))
	out := make([]float64, n)
	for i := range n {
		out[i] = math.NaN()
		if den[i] > 0 {
			out[i] = num[i] / den[i]
		}
	}
	return out
}
