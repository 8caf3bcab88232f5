package report

import (
	"fmt"
	"io"
	"strings"
)

// Agreement is what two runs of the same checkout on the same machine say
// about each other, verdict by verdict: a skeptic's check that the
// intervals cover what a rerun sees.
type Agreement struct {
	// Verdicts is the number of verdicts both runs gave: reuse against
	// sync.Pool written correctly and against fresh allocation, per case.
	Verdicts int
	// Flips are the verdicts "faster" in one run and "slower" in the other.
	Flips []string
	// Disjoint are the verdicts whose two intervals do not overlap (flips
	// included).
	Disjoint []string
	// Changed counts the verdicts whose status differs at all, such as
	// "faster" in one run and "same within noise" in the other.
	Changed int
	// Gain and Loss are the summary's largest gain and largest loss in
	// each run, "" when there is none, and GainHow and LossHow how they
	// compare (see headline).
	Gain, Loss       [2]string
	GainHow, LossHow string
}

// MaxDisjoint is the most verdicts with disjoint intervals that two runs
// may have and still agree: one in 40, rounded down. With 95% intervals
// that cover a rerun, two independent runs give disjoint intervals for
// far fewer (about one verdict in 180 for normal errors of equal width).
func MaxDisjoint(verdicts int) int { return verdicts / 40 }

// OK reports whether the runs agree: no flip, at most MaxDisjoint
// disjoint intervals, and the same largest gain and loss, or cases that
// neither run can tell apart.
func (a Agreement) OK() bool {
	return len(a.Flips) == 0 && len(a.Disjoint) <= MaxDisjoint(a.Verdicts) && a.GainHow != HeadlineDifferent && a.LossHow != HeadlineDifferent
}

// How two runs' largest gains (or losses) compare.
const (
	HeadlineSame      = "same"      // the same case
	HeadlineTied      = "tied"      // two cases whose intervals overlap in both runs
	HeadlineDifferent = "DIFFERENT" // anything else
)

// headline compares the case named x[0] in run a with the case named
// x[1] in run b, pick choosing the comparison: the same case, or two
// cases that neither run tells apart (in each run, the two intervals
// overlap).
func headline(a, b Report, x [2]string, pick func(Verdict) Comparison) string {
	switch {
	case x[0] == x[1]:
		return HeadlineSame
	case x[0] == "" || x[1] == "":
		return HeadlineDifferent
	}
	for _, r := range []Report{a, b} {
		p, q, ok := intervals(r, x[0], x[1], pick)
		if !ok || p.High < q.Low || q.High < p.Low {
			return HeadlineDifferent
		}
	}
	return HeadlineTied
}

// intervals returns the intervals of the cases named x and y in r.
func intervals(r Report, x, y string, pick func(Verdict) Comparison) (p, q Interval, ok bool) {
	var found int
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			switch label(w, c) {
			case x:
				p, found = pick(c.Verdict).Speedup, found+1
			case y:
				q, found = pick(c.Verdict).Speedup, found+1
			}
		}
	}
	return p, q, found == 2 && p.Confidence > 0 && q.Confidence > 0
}

// Agree compares the verdicts of two runs, case by case.
func Agree(a, b Report) Agreement {
	var ag Agreement
	other := map[string]Case{}
	for _, w := range b.Workloads {
		for _, c := range w.Cases {
			other[label(w, c)] = c
		}
	}
	for _, w := range a.Workloads {
		for _, c := range w.Cases {
			oc, ok := other[label(w, c)]
			if !ok {
				continue
			}
			for _, k := range []struct {
				what   string
				x, y   Comparison
				lacked bool
			}{
				{"vs sync.Pool", c.Verdict.Headline, oc.Verdict.Headline, c.Verdict.Headline.Against == ""},
				{"vs fresh allocation", c.Verdict.Baseline, oc.Verdict.Baseline, false},
			} {
				if k.lacked {
					continue
				}
				ag.note(label(w, c)+" "+k.what, k.x, k.y)
			}
		}
	}
	pick := func(v Verdict) Comparison { return v.Headline }
	for i, r := range []Report{a, b} {
		_, _, best, worst := tally(r, pick)
		ag.Gain[i], ag.Loss[i] = best.name, worst.name
	}
	ag.GainHow, ag.LossHow = headline(a, b, ag.Gain, pick), headline(a, b, ag.Loss, pick)
	return ag
}

// note adds one verdict seen in both runs.
func (ag *Agreement) note(name string, x, y Comparison) {
	ag.Verdicts++
	if x.Status != y.Status {
		ag.Changed++
	}
	desc := fmt.Sprintf("%s: %s, %s then %s, %s", name, Interval3(x.Speedup), x.Status, Interval3(y.Speedup), y.Status)
	if x.Status == StatusFaster && y.Status == StatusSlower || x.Status == StatusSlower && y.Status == StatusFaster {
		ag.Flips = append(ag.Flips, desc)
	}
	if x.Speedup.Confidence > 0 && y.Speedup.Confidence > 0 && (x.Speedup.High < y.Speedup.Low || y.Speedup.High < x.Speedup.Low) {
		ag.Disjoint = append(ag.Disjoint, desc)
	}
}

// WriteAgreement writes an agreement as a few lines: the counts, then
// every flip and every pair of disjoint intervals, then the headlines.
func WriteAgreement(w io.Writer, ag Agreement) error {
	var b strings.Builder
	verdict := "agree"
	if !ag.OK() {
		verdict = "DISAGREE"
	}
	fmt.Fprintf(&b, "%d verdicts: %d flip between faster and slower, %d with disjoint intervals (at most %d allowed), %d change status: the runs %s\n",
		ag.Verdicts, len(ag.Flips), len(ag.Disjoint), MaxDisjoint(ag.Verdicts), ag.Changed, verdict)
	for _, f := range ag.Flips {
		fmt.Fprintf(&b, "  flip: %s\n", f)
	}
	for _, d := range ag.Disjoint {
		fmt.Fprintf(&b, "  disjoint: %s\n", d)
	}
	fmt.Fprintf(&b, "largest gain: %q then %q (%s)\n", ag.Gain[0], ag.Gain[1], ag.GainHow)
	fmt.Fprintf(&b, "largest loss: %q then %q (%s)\n", ag.Loss[0], ag.Loss[1], ag.LossHow)
	_, err := io.WriteString(w, b.String())
	return err
}
