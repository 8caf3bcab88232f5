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
	if ag.Gain != [2]string{"W1 a", "W1 a"} || ag.Loss != [2]string{"W1 b", "W1 b"} {
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
	if ag.Loss != [2]string{"W1 b", ""} {
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
