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
		Where: Machine(r),
	}
	s.Findings = append(s.Findings, headlineFinding(r), baselineFinding(r))
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

// extreme is the case with the largest gain (or loss) of one comparison,
// with the cases that the run cannot tell apart from it: those whose
// interval overlaps its interval.
type extreme struct {
	caseRef
	ties []caseRef
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

// extremeOf returns the case of refs with the status that beats every
// other with it (beats(a, b): a's median is beyond b's), with the other
// cases of refs with the status that reach it (reaches(a, b): a's
// interval reaches into b's), in the order of refs.
func extremeOf(refs []caseRef, status string, beats, reaches func(a, b Interval) bool) extreme {
	var e extreme
	for _, r := range refs {
		if r.cmp.Status == status && (e.name == "" || beats(r.cmp.Speedup, e.cmp.Speedup)) {
			e.caseRef = r
		}
	}
	if e.name == "" {
		return e
	}
	for _, r := range refs {
		if r.name != e.name && r.cmp.Status == status && reaches(r.cmp.Speedup, e.cmp.Speedup) {
			e.ties = append(e.ties, r)
		}
	}
	return e
}

// String is the extreme for a sentence: "W5 (1.49× [1.34–1.68×]), not told
// apart from W6 n=100 (1.40× [1.35–1.52×])".
func (e extreme) String() string {
	s := fmt.Sprintf("%s (%s)", e.name, Interval3(e.cmp.Speedup))
	if len(e.ties) == 0 {
		return s
	}
	var l []string
	for i, t := range e.ties {
		if i == 3 {
			l = append(l, fmt.Sprintf("%d more", len(e.ties)-i))
			break
		}
		l = append(l, fmt.Sprintf("%s (%s)", t.name, Interval3(t.cmp.Speedup)))
	}
	return s + ", not told apart from " + strings.Join(l, ", ")
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
		s += "; its largest gain is " + best.String()
	}
	if worst.name != "" {
		s += "; its largest loss is " + worst.String()
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
	published := len(repro[Reproduced]) + len(repro[NotReproduced]) + len(repro[PublishedFake])
	if published > 0 {
		s += fmt.Sprintf("; of %d published ratios it reproduces %d", published, len(repro[Reproduced]))
		if l := repro[NotReproduced]; len(l) > 0 {
			s += " (not reproduced here: " + strings.Join(l, ", ") + ")"
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
