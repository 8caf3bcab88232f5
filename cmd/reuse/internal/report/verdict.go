package report

import (
	"fmt"
	"slices"
	"strings"
)

// Statuses of a Comparison: what the interval of reuse's speedup says.
const (
	StatusFaster    = "faster"            // the interval lies above 1
	StatusSame      = "same within noise" // the interval holds 1
	StatusSlower    = "slower"            // the interval lies below 1
	StatusFewRounds = "too few rounds"    // no interval of 90% coverage
	StatusInvalid   = "not measured"      // a variant failed its check
)

// Reproductions: how the speedup against fresh allocation of the row that
// runs the write-up's code (the variant other than reuse that carries the
// published figure, as written, pitfalls included; reuse where there is
// none) compares with the published pooled ratio, from the direction of
// each: a published ratio above 1 found the pool faster than fresh
// allocation, one below 1 found it slower.
const (
	Reproduced    = "reproduced"               // on the published side of 1, and reaching the published ratio
	NotReproduced = "reproduced, smaller here" // on the published side of 1, but short of the published ratio
	NotConfirmed  = "not confirmed here"       // the interval holds 1: no difference, where the write-up found one
	Contradicted  = "contradicted here"        // on the other side of 1: the opposite of the write-up's finding
	NoPublished   = "no published ratio"       // the write-up gives none for this case
	PublishedFake = "published ratio not real" // the write-up's pooled code fails its check here
	NotMeasured   = "not measured"             // too few rounds, or a check failed
)

// Legend defines every word a verdict uses, in the order the page lists
// them.
var Legend = []struct{ Term, Meaning string }{
	{"speedup", "a variant's time per op divided into the other's, round by round (the variants of a case run one after the other, so load hits both alike); the figure is the median over rounds, in [brackets] its 95% confidence interval (order statistics of the rounds, no assumption of normality)"},
	{"95% interval", "each round is measured in its own pass over the workloads (run by the command in a process of its own), on a fresh instance with an empty pool and its own calibration, so the interval covers what a rerun of the report would see, not only the spread within one run: by simulation, over 9 rounds it holds the median in 96% of runs, and two runs' intervals are disjoint for about 1 verdict in 300 (reuse compare -agree checks two runs)"},
	{StatusFaster, "the whole interval lies above 1×"},
	{StatusSame, "the interval holds 1×: this run cannot tell the two apart"},
	{StatusSlower, "the whole interval lies below 1×"},
	{StatusFewRounds, "fewer than 5 rounds: no interval with at least 90% coverage, so no verdict"},
	{"pool missed", fmt.Sprintf("a variant's pool had nothing to give, though the variant had dropped nothing, in more than %.0f%% of its timed ops (marked ~), so its figures measure fresh allocation as much as the pool; such a comparison never makes the summary's largest gain or loss", 100*MaxMissRate)},
	{Reproduced, "the interval against fresh allocation of the row that runs the write-up's code (named beside the published ratio; reuse's own where the write-up's code is not a row) lies on the same side of 1× as the write-up's published ratio (the pool faster than fresh allocation, or slower) and reaches it"},
	{NotReproduced, "that interval lies on the published ratio's side of 1×, but falls short of it: the same finding, smaller here; the note says why, from this run's figures"},
	{NotConfirmed, "the interval holds 1×: this run finds no difference where the write-up found one, so its finding is not confirmed"},
	{Contradicted, "the interval lies on the other side of 1× from the published ratio: the write-up found the pool slower than fresh allocation and this run finds it faster, or the reverse, so its finding is not confirmed"},
	{PublishedFake, "the write-up's pooled code fails the report's check here (its ops return errors or wrong output), so its ratio measures nothing"},
	{NoPublished, "the write-ups give no ratio for this case"},
	{NotMeasured, "too few rounds, or a variant failed its check"},
}

// Verdict is what a case's figures say about reuse: against sync.Pool
// written correctly (the headline: what the library adds over doing it
// right by hand), against fresh allocation, and against the published
// ratio. Every word of it is computed from this run.
type Verdict struct {
	// Headline compares reuse with sync.Pool written correctly.
	Headline Comparison `json:"headline"`
	// Baseline compares reuse with fresh allocation.
	Baseline Comparison `json:"baseline"`
	// Published is the write-up's pooled ratio against its baseline, 0
	// when none; Reproduction says whether PublishedMeasured, the speedup
	// against fresh allocation of the row that runs the write-up's code
	// (PublishedRow), reaches it: like with like.
	Published         float64  `json:"published_speedup"`
	PublishedRow      string   `json:"published_row,omitempty"`
	PublishedMeasured Interval `json:"published_measured"`
	Reproduction      string   `json:"reproduction"`
	Notes             []string `json:"notes"`
}

// Comparison is reuse against one other variant of the case.
type Comparison struct {
	Against string   `json:"against"` // the other variant's name
	Speedup Interval `json:"speedup"` // its time ÷ reuse's, per round
	Status  string   `json:"status"`
	// Unsteady, when not "", names the variants of the comparison whose
	// pools missed in more than MaxMissRate of their ops: it does not
	// compare pools at work, and the summary never makes it a headline.
	Unsteady string `json:"unsteady,omitempty"`
}

// verdict computes a case's verdict from its variants; between(i, j) is
// the interval of variant i's time over variant j's, round by round.
func verdict(vs []Variant, between func(i, j int) Interval) Verdict {
	reuse := slices.IndexFunc(vs, func(v Variant) bool { return v.Role == RoleReuse })
	if reuse < 0 {
		return Verdict{Reproduction: NotMeasured, Notes: []string{"no reuse variant"}}
	}
	correct := slices.IndexFunc(vs, func(v Variant) bool { return v.Role == RoleSyncPoolCorrect })
	if correct < 0 {
		correct = slices.IndexFunc(vs, func(v Variant) bool { return v.Role == RoleSyncPool })
	}
	v := Verdict{Notes: []string{}}
	v.Baseline = compare(vs, 0, reuse, between)
	if correct >= 0 {
		v.Headline = compare(vs, correct, reuse, between)
	}
	row := reuse
	if p := vs[reuse].Published; p != nil {
		v.Published = p.Speedup
		row = writeupRow(vs, reuse)
	}
	if v.Published > 0 {
		c := compare(vs, 0, row, between)
		v.PublishedRow, v.PublishedMeasured = vs[row].Name, c.Speedup
		v.Reproduction, v.Notes = reproduction(vs, row, v, c)
	} else {
		v.Reproduction, v.Notes = reproduction(vs, row, v, v.Baseline)
	}
	if n := garbageNote(vs[0], vs[reuse], v.Baseline.Status); n != "" {
		v.Notes = append(v.Notes, n)
	}
	return v
}

// writeupRow is the variant that runs the write-up's code for reuse's
// published figure: one other than the baseline and reuse with the same
// published ratio, the usual sync.Pool code first; reuse where none is.
func writeupRow(vs []Variant, reuse int) int {
	pub := vs[reuse].Published.Speedup
	best := reuse
	for i, x := range vs {
		if i == 0 || i == reuse || x.Published == nil || x.Published.Speedup != pub {
			continue
		}
		if best == reuse || x.Role == RoleSyncPool {
			best = i
		}
	}
	return best
}

// compare is reuse (variant r) against variant other.
func compare(vs []Variant, other, r int, between func(i, j int) Interval) Comparison {
	c := Comparison{Against: vs[other].Name, Status: StatusInvalid}
	if !vs[other].Valid || !vs[r].Valid {
		return c
	}
	c.Speedup = between(other, r)
	c.Status = status(c.Speedup)
	var unsteady []string
	for _, i := range []int{other, r} {
		if vs[i].Unsteady != "" {
			unsteady = append(unsteady, vs[i].Name)
		}
	}
	c.Unsteady = strings.Join(unsteady, " and ")
	return c
}

// status is what an interval of speedups says.
func status(iv Interval) string {
	switch {
	case iv.Confidence < minConfidence:
		return StatusFewRounds
	case iv.Low > 1:
		return StatusFaster
	case iv.High < 1:
		return StatusSlower
	}
	return StatusSame
}

// reproduction compares row's interval against fresh allocation, b, with
// the published ratio and says why, from this run's figures, when it falls
// short.
func reproduction(vs []Variant, row int, v Verdict, b Comparison) (string, []string) {
	if i := slices.IndexFunc(vs, func(x Variant) bool { return x.Published != nil && x.Published.Fake && !x.Valid }); i >= 0 {
		return PublishedFake, []string{fmt.Sprintf("the published %s comes from the write-up's code, %q, which fails the check here: %s",
			Ratio(vs[i].Published.Speedup), vs[i].Name, short(vs[i].Check))}
	}
	pub := v.Published
	found, here := "faster", b.Status
	who := vs[row].Name
	if pub < 1 {
		found = "slower"
	}
	switch {
	case pub == 0:
		return NoPublished, nil
	case b.Status == StatusInvalid || b.Status == StatusFewRounds:
		return NotMeasured, nil
	case here == StatusSame:
		return NotConfirmed, []string{fmt.Sprintf("not confirmed: the write-up found the pool %s than fresh allocation (%s); here %s is %s (%s)",
			found, Ratio(pub), who, StatusSame, Interval3(b.Speedup))}
	case here != found:
		return Contradicted, []string{fmt.Sprintf("contradicted: the write-up found the pool %s than fresh allocation (%s); here %s is %s (%s)",
			found, Ratio(pub), who, here, Interval3(b.Speedup))}
	case found == "faster" && b.Speedup.High >= pub, found == "slower" && b.Speedup.Low <= pub:
		return Reproduced, nil
	}
	return NotReproduced, []string{"reproduced, smaller here: " + strings.Join(shortfall(vs, row, found, b.Speedup, pub), "; ")}
}

// shortfall says why reuse's interval, on the side of 1 the published
// ratio found (found: "faster" or "slower"), falls short of it.
func shortfall(vs []Variant, row int, found string, iv Interval, pub float64) []string {
	var why []string
	if b := vs[0]; b.Published != nil && b.Published.AllocsPerOp > 0 && b.AllocsPerOp+0.5 < b.Published.AllocsPerOp {
		why = append(why, fmt.Sprintf("fresh allocation makes %s allocations per op here against %g published: this Go no longer makes allocations the pool used to save",
			Fraction(b.AllocsPerOp), b.Published.AllocsPerOp))
	}
	if r := vs[row]; r.AllocsPerOp+0.5 <= vs[0].AllocsPerOp {
		why = append(why, fmt.Sprintf("%s saves %s of %s allocations per op, and the time left is the op's own work",
			r.Name, Fraction(vs[0].AllocsPerOp-r.AllocsPerOp), Fraction(vs[0].AllocsPerOp)))
	}
	switch {
	case len(why) > 0:
	case found == "slower":
		why = append(why, fmt.Sprintf("%s measured %s against fresh allocation: slower, as published, but not as slow as the published %s", vs[row].Name, Interval3(iv), Ratio(pub)))
	default:
		why = append(why, fmt.Sprintf("%s measured %s against fresh allocation: faster, as published, but short of the published %s", vs[row].Name, Interval3(iv), Ratio(pub)))
	}
	return why
}

// Less garbage counts only when it is material: at least minAllocsSaved
// allocations per op fewer, or at least minBytesSaved bytes and
// minBytesShare of fresh allocation's bytes per op fewer. Less is the
// runtime's own allocations amortised over the ops (W7's 2.59e-05 against
// 3.16e-05 per op, where Go 1.26 makes none), which differ from run to
// run: noise, not a gain.
const (
	minAllocsSaved = 0.5
	minBytesSaved  = 64
	minBytesShare  = 0.1
)

// lessGarbage reports whether r makes materially less garbage per op than
// base.
func lessGarbage(base, r Variant) bool {
	bytes := base.BytesPerOp - r.BytesPerOp
	return base.AllocsPerOp-r.AllocsPerOp >= minAllocsSaved || bytes >= minBytesSaved && bytes >= minBytesShare*base.BytesPerOp
}

// garbageNote says when reuse is no faster than fresh allocation but makes
// materially less garbage: then the gain is memory, not time. Where the
// difference is not material, it says neither.
func garbageNote(base, reuse Variant, st string) string {
	if (st != StatusSlower && st != StatusSame) || !lessGarbage(base, reuse) {
		return ""
	}
	return fmt.Sprintf("no faster than fresh allocation here, but %s allocations (%s B) per op against %s (%s B): the gain is less garbage, not time",
		Fraction(reuse.AllocsPerOp), Bytes(reuse.BytesPerOp), Fraction(base.AllocsPerOp), Bytes(base.BytesPerOp))
}

// workloadNotes computes what a workload's cases say together: for a
// Curve, the size from which reuse is faster than fresh allocation.
func workloadNotes(w Workload) []string {
	notes := []string{}
	if w.Curve == "" || len(w.Cases) < 2 {
		return notes
	}
	from := -1 // index of the first case from which every larger one is faster
	for i := len(w.Cases) - 1; i >= 0; i-- {
		if w.Cases[i].Verdict.Baseline.Status != StatusFaster {
			break
		}
		from = i
	}
	switch {
	case from == 0:
		notes = append(notes, fmt.Sprintf("reuse is faster than fresh allocation at every %s measured, from the smallest, %s (%s): the break-even on this machine is below that size",
			w.Curve, w.Cases[0].Name, Interval3(w.Cases[0].Verdict.Baseline.Speedup)))
	case from > 0:
		below := w.Cases[from-1]
		notes = append(notes, fmt.Sprintf("reuse is faster than fresh allocation from %s on; at %s it is %s (%s), so below that size allocating is as cheap or cheaper (pitfall P8)",
			w.Cases[from].Name, below.Name, below.Verdict.Baseline.Status, Interval3(below.Verdict.Baseline.Speedup)))
	default:
		notes = append(notes, fmt.Sprintf("reuse is not faster than fresh allocation at the largest %s measured", w.Curve))
	}
	return notes
}
