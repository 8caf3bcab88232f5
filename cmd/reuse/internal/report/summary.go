package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Summary is what a reader needs first: what was measured, where, and the
// findings that matter, each computed from the report.
type Summary struct {
	What     string   `json:"what"`
	Where    string   `json:"where"`
	Findings []string `json:"findings"`
	// Chance is what chance alone gives in the headline's counts, which
	// the finding after the headline states.
	Chance Chance `json:"chance"`
}

// Summarize computes the summary of a report.
func Summarize(r Report) Summary {
	var cases, variants, rounds int
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			cases++
			variants += len(c.Variants)
			for _, v := range c.Variants {
				rounds = max(rounds, v.Rounds)
			}
		}
	}
	s := Summary{
		What: fmt.Sprintf("%d workloads, %d cases, %d variants, %d rounds each (one per pass over the workloads, each on a fresh pool%s), in %.0f s (%s run); times are %s time per op",
			len(r.Workloads), cases, variants, rounds, processes(r), r.Seconds, r.Mode, map[string]string{"cpu": "process CPU", "wall": "wall-clock"}[r.Timing]),
		Where:  Machine(r),
		Chance: headlineChance(r),
	}
	s.Findings = append(s.Findings, headlineFinding(r))
	if s.Chance.Cases > 0 {
		s.Findings = append(s.Findings, s.Chance.sentence())
	}
	s.Findings = append(s.Findings, baselineFinding(r))
	if f := unsteadyFinding(r); f != "" {
		s.Findings = append(s.Findings, f)
	}
	if f := pitfallFinding(r); f != "" {
		s.Findings = append(s.Findings, f)
	}
	for _, w := range r.Workloads {
		for _, n := range w.Notes {
			s.Findings = append(s.Findings, w.ID+" "+w.Name+": "+n)
		}
	}
	return s
}

// Machine describes where a report was measured: processor, Go, and the
// collector's setting.
func Machine(r Report) string {
	cpu := r.CPU
	if cpu == "" {
		cpu = "unknown CPU"
	}
	limit := "no memory limit"
	if r.GC.MemLimit > 0 && r.GC.MemLimit < math.MaxInt64 {
		limit = "GOMEMLIMIT=" + Bytes(float64(r.GC.MemLimit)) + "B"
	}
	return fmt.Sprintf("%s, %d CPUs, GOMAXPROCS=%d, %s %s/%s, GOGC=%d, %s, live heap %sB at the start",
		cpu, r.NumCPU, r.GOMAXPROCS, r.GoVersion, r.GOOS, r.GOARCH, r.GC.GOGC, limit, Bytes(float64(r.GC.LiveHeap)))
}

// caseRef is one case's comparison, named for a sentence.
type caseRef struct {
	name string
	cmp  Comparison
}

func label(w Workload, c Case) string {
	if c.Name == "" {
		return w.ID
	}
	return w.ID + " " + c.Name
}

// extreme is the largest gain (or loss) of one comparison: the case with
// the largest (or smallest) median, with the cases that the run cannot
// tell apart from it (those of its status whose intervals reach into its
// interval), all in the order of the report. Its caseRef is the first of
// them in that order: the name does not hang on which of cases the run
// cannot tell apart has the largest median.
type extreme struct {
	caseRef
	group []caseRef
	// ranked is group from the most extreme median on, the order in
	// which the summary lists it: cut after four, a list in the report's
	// order left the largest loss out when four cases came before it.
	ranked []caseRef
}

// tally counts the statuses of one comparison over every case and returns
// the case with the largest speedup among those "faster" and the one with
// the smallest among those "slower", of the comparisons of pools at work
// (not Unsteady), each with its ties: the other comparisons of its status
// whose intervals reach into its interval.
func tally(r Report, pick func(Verdict) Comparison) (count map[string]int, n int, best, worst extreme) {
	count = map[string]int{}
	var measured []caseRef
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			cmp := pick(c.Verdict)
			if cmp.Against == "" {
				continue
			}
			n++
			count[cmp.Status]++
			if cmp.Unsteady == "" && (cmp.Status == StatusFaster || cmp.Status == StatusSlower || cmp.Status == StatusSame) {
				measured = append(measured, caseRef{label(w, c), cmp})
			}
		}
	}
	best = extremeOf(measured, StatusFaster, func(a, b Interval) bool { return a.Median > b.Median }, func(a, b Interval) bool { return a.High >= b.Low })
	worst = extremeOf(measured, StatusSlower, func(a, b Interval) bool { return a.Median < b.Median }, func(a, b Interval) bool { return a.Low <= b.High })
	return count, n, best, worst
}

// extremeOf returns the extreme of the cases of refs with the status:
// the one that beats every other (beats(a, b): a's median is beyond b's)
// and those that reach it (reaches(a, b): a's interval reaches into b's).
func extremeOf(refs []caseRef, status string, beats, reaches func(a, b Interval) bool) extreme {
	var top caseRef
	for _, r := range refs {
		if r.cmp.Status == status && (top.name == "" || beats(r.cmp.Speedup, top.cmp.Speedup)) {
			top = r
		}
	}
	var e extreme
	if top.name == "" {
		return e
	}
	for _, r := range refs {
		if r.cmp.Status == status && (r.name == top.name || reaches(r.cmp.Speedup, top.cmp.Speedup)) {
			e.group = append(e.group, r)
		}
	}
	e.caseRef = e.group[0]
	e.ranked = slices.Clone(e.group)
	slices.SortStableFunc(e.ranked, func(a, b caseRef) int {
		switch {
		case beats(a.cmp.Speedup, b.cmp.Speedup):
			return -1
		case beats(b.cmp.Speedup, a.cmp.Speedup):
			return 1
		}
		return 0
	})
	return e
}

// phrase is the extreme for the summary: "its largest gain is W11 (9.04×
// [5.81–15.1×])", or "its largest losses, which this run cannot tell
// apart, are W4 serial (0.766× [0.728–0.782×]) and W4 parallel (0.817×
// [0.765–0.866×])", the most extreme first, four at most.
func (e extreme) phrase(what, whats string) string {
	if len(e.group) == 1 {
		return fmt.Sprintf("its largest %s is %s (%s)", what, e.name, Interval3(e.cmp.Speedup))
	}
	var l []string
	for i, c := range e.ranked {
		if i == 4 {
			l = append(l, fmt.Sprintf("%d more", len(e.ranked)-i))
			break
		}
		l = append(l, fmt.Sprintf("%s (%s)", c.name, Interval3(c.cmp.Speedup)))
	}
	last := len(l) - 1
	return fmt.Sprintf("its largest %s, which this run cannot tell apart, are %s and %s", whats, strings.Join(l[:last], ", "), l[last])
}

func counts(count map[string]int, n int) string {
	var parts []string
	for _, st := range []string{StatusFaster, StatusSame, StatusSlower, StatusFewRounds, StatusInvalid} {
		if count[st] > 0 {
			parts = append(parts, fmt.Sprintf("%s in %d", st, count[st]))
		}
	}
	return fmt.Sprintf("%s of %d cases", strings.Join(parts, ", "), n)
}

func headlineFinding(r Report) string {
	count, n, best, worst := tally(r, func(v Verdict) Comparison { return v.Headline })
	if n == 0 {
		return "no case compares reuse with sync.Pool"
	}
	s := "Against sync.Pool written correctly, reuse is " + counts(count, n)
	if best.name != "" {
		s += "; " + best.phrase("gain", "gains")
	}
	if worst.name != "" {
		s += "; " + worst.phrase("loss", "losses")
	}
	return s + "."
}

func baselineFinding(r Report) string {
	count, n, _, _ := tally(r, func(v Verdict) Comparison { return v.Baseline })
	s := "Against fresh allocation, reuse is " + counts(count, n)
	repro := map[string][]string{}
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			repro[c.Verdict.Reproduction] = append(repro[c.Verdict.Reproduction], label(w, c))
		}
	}
	published := len(repro[PublishedFake])
	var others []string
	for _, word := range []string{Reproduced, NotReproduced, NotConfirmed, Contradicted} {
		published += len(repro[word])
		if l := repro[word]; len(l) > 0 && word != Reproduced {
			others = append(others, word+": "+strings.Join(l, ", "))
		}
	}
	if published > 0 {
		s += fmt.Sprintf("; of %d published ratios, the write-ups' code run here reproduces %d in full", published, len(repro[Reproduced]))
		if len(others) > 0 {
			s += " (" + strings.Join(others, "; ") + ")"
		}
		if l := repro[PublishedFake]; len(l) > 0 {
			s += ", and " + strings.Join(l, ", ") + " published a ratio that is not real"
		}
	}
	return s + "."
}

func pitfallFinding(r Report) string {
	where := map[string][]string{}
	for _, w := range r.Workloads {
		for _, f := range w.Findings {
			if !slices.Contains(where[f.Pitfall], w.ID) {
				where[f.Pitfall] = append(where[f.Pitfall], w.ID)
			}
		}
	}
	if len(where) == 0 {
		return ""
	}
	labels := make([]string, 0, len(where))
	for p := range where {
		labels = append(labels, p)
	}
	slices.SortFunc(labels, func(a, b string) int { return idNumber(a[1:]) - idNumber(b[1:]) })
	var parts []string
	for _, p := range labels {
		parts = append(parts, p+" in "+strings.Join(where[p], ", "))
	}
	return fmt.Sprintf("The usual sync.Pool code falls into %d pitfalls in this run, each detected from evidence: %s (docs/PITFALLS.md).",
		len(labels), strings.Join(parts, "; "))
}

// unsteadyFinding lists the variants whose pools missed in more than
// MaxMissRate of their ops, "" when there are none.
func unsteadyFinding(r Report) string {
	var l []string
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			for _, v := range c.Variants {
				if v.Unsteady != "" {
					l = append(l, fmt.Sprintf("%s %s (%.1f%%)", label(w, c), v.Name, 100*v.MissRate))
				}
			}
		}
	}
	if len(l) == 0 {
		return ""
	}
	return fmt.Sprintf("Pools that missed: the pool of %s had nothing to give, though nothing was dropped, in more than %.0f%% of its timed ops; their comparisons make no headline.",
		strings.Join(l, ", "), 100*MaxMissRate)
}

// processes says how many passes ran in processes of their own, for the
// summary: "" when none did.
func processes(r Report) string {
	switch {
	case r.Processes == 0:
		return ""
	case r.ProcessError == "":
		return ", each pass in a process of its own"
	}
	return fmt.Sprintf(", %d passes in processes of their own (one failed: %s)", r.Processes, short(r.ProcessError))
}
