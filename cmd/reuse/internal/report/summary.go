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
		What: fmt.Sprintf("%d workloads, %d cases, %d variants, %d interleaved rounds each, in %.0f s (%s run); times are %s time per op",
			len(r.Workloads), cases, variants, rounds, r.Seconds, r.Mode, map[string]string{"cpu": "process CPU", "wall": "wall-clock"}[r.Timing]),
		Where: Machine(r),
	}
	s.Findings = append(s.Findings, headlineFinding(r), baselineFinding(r))
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

// tally counts the statuses of one comparison over every case and returns
// the case with the largest speedup among those "faster" and the one with
// the smallest among those "slower".
func tally(r Report, pick func(Verdict) Comparison) (count map[string]int, n int, best, worst caseRef) {
	count = map[string]int{}
	for _, w := range r.Workloads {
		for _, c := range w.Cases {
			cmp := pick(c.Verdict)
			if cmp.Against == "" {
				continue
			}
			n++
			count[cmp.Status]++
			if cmp.Status == StatusFaster && (best.name == "" || cmp.Speedup.Median > best.cmp.Speedup.Median) {
				best = caseRef{label(w, c), cmp}
			}
			if cmp.Status == StatusSlower && (worst.name == "" || cmp.Speedup.Median < worst.cmp.Speedup.Median) {
				worst = caseRef{label(w, c), cmp}
			}
		}
	}
	return count, n, best, worst
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
		s += fmt.Sprintf("; its largest gain is %s (%s)", best.name, Interval3(best.cmp.Speedup))
	}
	if worst.name != "" {
		s += fmt.Sprintf("; its largest loss is %s (%s)", worst.name, Interval3(worst.cmp.Speedup))
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
