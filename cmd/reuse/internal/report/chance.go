package report

import (
	"fmt"
	"math"
)

// Chance is what chance alone gives in the headline's counts. A case reads
// "slower" when its interval lies below 1: where nothing differs, so that
// each round's ratio is as likely above 1 as below it, that happens when at
// least n+1-k of its n rounds fall below 1, P(Binomial(n, ½) < k), which
// is (1 - Confidence)/2 of its interval (1.95% for 9 rounds); "faster" is
// as likely. Over many cases a few read "slower" by chance even when no
// case differs, and Chance says how many.
type Chance struct {
	// Cases is the number of comparisons with sync.Pool judged by their
	// interval (faster, same or slower), Slower those of them slower.
	Cases  int `json:"cases"`
	Slower int `json:"slower"`
	// Confidence is the least coverage of their intervals, Rate the mean
	// chance of a case reading slower (or faster) when nothing differs,
	// and Expected the number that do on average: the sum of the rates.
	Confidence float64 `json:"confidence"`
	Rate       float64 `json:"rate"`
	Expected   float64 `json:"expected"`
	// Limit is the 95th percentile of the number of cases that read slower
	// by chance when nothing differs, and Beyond whether Slower exceeds it.
	Limit  int  `json:"limit"`
	Beyond bool `json:"beyond_chance"`
}

// headlineChance computes the Chance of a report's comparisons with
// sync.Pool.
func headlineChance(r Report) Chance {
	var c Chance
	var rates []float64
	for _, w := range r.Workloads {
		for _, cs := range w.Cases {
			h := cs.Verdict.Headline
			if h.Against == "" || (h.Status != StatusFaster && h.Status != StatusSame && h.Status != StatusSlower) {
				continue
			}
			if c.Cases == 0 || h.Speedup.Confidence < c.Confidence {
				c.Confidence = h.Speedup.Confidence
			}
			c.Cases++
			if h.Status == StatusSlower {
				c.Slower++
			}
			a := (1 - h.Speedup.Confidence) / 2
			rates = append(rates, a)
			c.Expected += a
		}
	}
	if c.Cases == 0 {
		return c
	}
	c.Rate = c.Expected / float64(c.Cases)
	c.Limit = countQuantile(rates, 0.95)
	c.Beyond = c.Slower > c.Limit
	return c
}

// countQuantile returns the q-quantile of the number of events among
// independent trials, trial i an event with probability rates[i]: the
// least k with P(count ≤ k) ≥ q. With equal rates it is the quantile of a
// binomial distribution.
func countQuantile(rates []float64, q float64) int {
	pmf := []float64{1} // pmf[k] = P(k events among the trials so far)
	for _, p := range rates {
		next := make([]float64, len(pmf)+1)
		for k, x := range pmf {
			next[k] += x * (1 - p)
			next[k+1] += x * p
		}
		pmf = next
	}
	var cdf float64
	for k, x := range pmf {
		cdf += x
		// A margin for rounding: a cdf that sums to q exactly should not
		// miss it by the last bit.
		if cdf >= q-1e-12 {
			return k
		}
	}
	return len(pmf) - 1
}

// sentence is the finding that puts the count of slower cases beside
// what chance gives.
func (c Chance) sentence() string {
	here := "none slower here"
	switch {
	case c.Slower > 0 && c.Beyond:
		here = fmt.Sprintf("%d slower here, more than chance alone gives", c.Slower)
	case c.Slower > 0:
		here = fmt.Sprintf("%d slower here, within what chance alone gives", c.Slower)
	}
	return fmt.Sprintf("By chance alone: with %d intervals of %s against sync.Pool, %.1f cases on average read slower (and as many faster) when nothing differs, and %d or fewer in 95 runs of 100; %s.",
		c.Cases, percent(c.Confidence), c.Expected, c.Limit, here)
}

// percent is a coverage as "96%", rounded down so as not to claim more.
func percent(conf float64) string {
	return fmt.Sprintf("%.0f%%", math.Floor(100*conf+1e-9))
}
