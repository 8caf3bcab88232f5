package report

import (
	"bytes"
	"strings"
	"testing"
)

// agreeRun is a report of one workload with one case per interval given:
// each interval is reuse's speedup against sync.Pool and against fresh
// allocation alike.
func agreeRun(ivs ...Interval) Report {
	w := Workload{ID: "W1", Name: "n"}
	for i, iv := range ivs {
		cmp := Comparison{Against: "x", Speedup: iv, Status: status(iv)}
		w.Cases = append(w.Cases, Case{Name: string(rune('a' + i)), Verdict: Verdict{Headline: cmp, Baseline: cmp}})
	}
	return Report{Workloads: []Workload{w}}
}

func iv(lo, med, hi float64) Interval {
	return Interval{Low: lo, Median: med, High: hi, Confidence: 0.96}
}

func TestAgree(t *testing.T) {
	same := agreeRun(iv(1.1, 1.2, 1.3), iv(0.8, 0.9, 0.95), iv(0.9, 1, 1.1))
	ag := Agree(same, same)
	if !ag.OK() || ag.Verdicts != 6 || len(ag.Flips)+len(ag.Disjoint)+ag.Changed != 0 {
		t.Errorf("a run against itself: %+v, want agreement over 6 verdicts", ag)
	}
	if ag.GainHow != HeadlineSame || ag.Gain[0] != "W1 a" || ag.LossHow != HeadlineSame || ag.Loss[0] != "W1 b" {
		t.Errorf("gain %q, loss %q; want W1 a and W1 b in both", ag.Gain, ag.Loss)
	}

	// W1 b flips from slower to faster; W1 a's intervals are disjoint but
	// both faster; W1 c changes status only.
	other := agreeRun(iv(1.4, 1.5, 1.6), iv(1.05, 1.1, 1.2), iv(1.01, 1.05, 1.1))
	ag = Agree(same, other)
	if ag.OK() {
		t.Errorf("runs that flip agree: %+v", ag)
	}
	if len(ag.Flips) != 2 || !strings.HasPrefix(ag.Flips[0], "W1 b vs sync.Pool") {
		t.Errorf("flips = %q, want W1 b's two verdicts", ag.Flips)
	}
	if len(ag.Disjoint) != 4 {
		t.Errorf("disjoint = %q, want W1 a's and W1 b's verdicts", ag.Disjoint)
	}
	if ag.Changed != 4 {
		t.Errorf("changed = %d, want 4 (W1 b and W1 c, two verdicts each)", ag.Changed)
	}
	if ag.Loss != [2]string{"W1 b", ""} || ag.LossHow != HeadlineDifferent {
		t.Errorf("loss = %q, want W1 b then none", ag.Loss)
	}
	var b bytes.Buffer
	if err := WriteAgreement(&b, ag); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"6 verdicts: 2 flip", "4 with disjoint intervals (at most 0 allowed)", "DISAGREE", "flip: W1 b vs sync.Pool: 0.900× [0.800–0.950×], slower then 1.10× [1.05–1.20×], faster", `largest loss: "W1 b" then "" (DIFFERENT)`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("agreement text lacks %q:\n%s", want, b.String())
		}
	}
}

func TestMaxDisjoint(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{39, 0}, {40, 1}, {78, 1}, {80, 2}} {
		if got := MaxDisjoint(tt.n); got != tt.want {
			t.Errorf("MaxDisjoint(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}

// TestHeadlineTies sees two runs whose largest losses are two cases that
// neither run tells apart: consistent, though not the same case; and two
// runs whose largest losses one run tells apart.
func TestHeadlineTies(t *testing.T) {
	a := agreeRun(iv(0.70, 0.76, 0.88), iv(0.78, 0.82, 0.90), iv(0.992, 0.995, 0.998))
	b := agreeRun(iv(0.71, 0.84, 0.95), iv(0.72, 0.76, 0.99), iv(0.992, 0.995, 0.998))
	// Both runs name W1 a, the first in the report of the two cases they
	// cannot tell apart, though b's smallest median is W1 b's.
	ag := Agree(a, b)
	if ag.Loss != [2]string{"W1 a", "W1 a"} || ag.LossHow != HeadlineSame || !ag.OK() {
		t.Errorf("loss %q, %s; want W1 a in both, the same", ag.Loss, ag.LossHow)
	}
	// The summary lists them from the largest loss on.
	s := Summarize(b).Findings[0]
	if want := "its largest losses, which this run cannot tell apart, are W1 b (0.760× [0.720–0.990×]) and W1 a (0.840× [0.710–0.950×])"; !strings.Contains(s, want) {
		t.Errorf("summary = %q, want it to contain %q", s, want)
	}
	// W1 a alone in one run, W1 b alone in the other (the other case is
	// "same within noise"), but their intervals overlap in both: tied.
	c := agreeRun(iv(0.70, 0.76, 0.80), iv(0.78, 0.9, 1.01), iv(0.992, 0.995, 0.998))
	d := agreeRun(iv(0.79, 0.90, 1.02), iv(0.70, 0.75, 0.80), iv(0.992, 0.995, 0.998))
	if ag := Agree(c, d); ag.Loss != [2]string{"W1 a", "W1 b"} || ag.LossHow != HeadlineTied || !ag.OK() {
		t.Errorf("loss %q, %s; want W1 a then W1 b, tied", ag.Loss, ag.LossHow)
	}
	e := agreeRun(iv(0.70, 0.76, 0.80), iv(0.85, 0.9, 0.95), iv(0.992, 0.995, 0.998))
	if ag := Agree(e, d); ag.LossHow != HeadlineDifferent || ag.OK() {
		t.Errorf("loss %q, %s; want DIFFERENT: the first run tells W1 a from W1 b", ag.Loss, ag.LossHow)
	}
}

// TestUnsteadyNoHeadline checks that a comparison with a variant whose
// pool missed never makes the summary's largest gain, however large.
func TestUnsteadyNoHeadline(t *testing.T) {
	r := agreeRun(iv(1.1, 1.2, 1.3), iv(10000, 12434, 38349))
	for _, c := range []*Comparison{&r.Workloads[0].Cases[1].Verdict.Headline, &r.Workloads[0].Cases[1].Verdict.Baseline} {
		c.Unsteady = "sync.Pool, *[]int"
	}
	s := Summarize(r).Findings[0]
	if !strings.Contains(s, "its largest gain is W1 a (1.20×") || strings.Contains(s, "12.4k") {
		t.Errorf("summary = %q, want W1 a as the largest gain, not W1 b's unsteady 12.4k×", s)
	}
}

// TestLargestLossNeverLeftOut: the summary lists the losses it cannot tell
// apart from the largest one, four at most and then "N more". Listed in the
// report's order, five W1 cases with wide intervals came before W4 serial,
// the largest loss, which the summary then left out among the "2 more"
// while it named W1 n=10 at 0.929× (issue 60). The list now starts with
// the largest loss and goes down.
func TestLargestLossNeverLeftOut(t *testing.T) {
	r := agreeRun(iv(0.70, 0.95, 0.99), iv(0.71, 0.929, 0.98), iv(0.72, 0.96, 0.99), iv(0.70, 0.94, 0.99), iv(0.73, 0.97, 0.99))
	r.Workloads[0].Cases[1].Name = "n=10"
	w4 := agreeRun(iv(0.72, 0.758, 0.80))
	w4.Workloads[0].ID, w4.Workloads[0].Cases[0].Name = "W4", "serial"
	r.Workloads = append(r.Workloads, w4.Workloads[0])
	s := Summarize(r).Findings[0]
	want := "its largest losses, which this run cannot tell apart, are W4 serial (0.758× [0.720–0.800×]), W1 n=10 (0.929× [0.710–0.980×]), W1 d (0.940× [0.700–0.990×]), W1 a (0.950× [0.700–0.990×]) and 2 more"
	if !strings.Contains(s, want) {
		t.Errorf("summary = %q,\nwant it to contain %q", s, want)
	}
}
