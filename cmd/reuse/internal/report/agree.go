package report

import (
	"fmt"
	"io"
	"slices"
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
	// each run: the case named first, "" when there is none, then the
	// cases the run could not tell apart from it.
	Gain, Loss [2][]string
}

// Headline says how the largest gain (or loss) of two runs compare:
// "same" when they name the same case, "tied" when each names a case that
// the other could not tell apart from its own, "DIFFERENT" otherwise.
func Headline(x [2][]string) string {
	switch {
	case x[0][0] == x[1][0]:
		return "same"
	case slices.Contains(x[1], x[0][0]) && slices.Contains(x[0], x[1][0]):
		return "tied"
	}
	return "DIFFERENT"
}

// MaxDisjoint is the most verdicts with disjoint intervals that two runs
// may have and still agree: one in 40, rounded down. With 95% intervals
// that cover a rerun, two independent runs give disjoint intervals for
// far fewer (about one verdict in 180 for normal errors of equal width).
func MaxDisjoint(verdicts int) int { return verdicts / 40 }

// OK reports whether the runs agree: no flip, at most MaxDisjoint
// disjoint intervals, and the same largest gain and loss, or cases that
// each run could not tell apart.
func (a Agreement) OK() bool {
	return len(a.Flips) == 0 && len(a.Disjoint) <= MaxDisjoint(a.Verdicts) && Headline(a.Gain) != "DIFFERENT" && Headline(a.Loss) != "DIFFERENT"
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
	for i, r := range []Report{a, b} {
		_, _, best, worst := tally(r, func(v Verdict) Comparison { return v.Headline })
		ag.Gain[i], ag.Loss[i] = best.names(), worst.names()
	}
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
	for _, h := range []struct {
		what string
		x    [2][]string
	}{{"largest gain", ag.Gain}, {"largest loss", ag.Loss}} {
		fmt.Fprintf(&b, "%s: %s then %s (%s)\n", h.what, headlineNames(h.x[0]), headlineNames(h.x[1]), Headline(h.x))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// headlineNames is a largest gain or loss as "W5" or "W5 (ties: W6 n=100)".
func headlineNames(l []string) string {
	s := fmt.Sprintf("%q", l[0])
	if len(l) > 1 {
		s += fmt.Sprintf(" (not told apart from %s)", strings.Join(l[1:], ", "))
	}
	return s
}
