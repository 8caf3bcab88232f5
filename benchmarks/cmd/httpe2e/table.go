package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/reuse-go/reuse/benchmarks/internal/runstat"
)

// medianResult returns the median of each figure of rs, separately.
func medianResult(rs []result) result {
	col := func(f func(result) float64) float64 { return runstat.MedianOf(rs, f) }
	return result{
		Requests:  int64(col(func(r result) float64 { return float64(r.Requests) })),
		Errors:    int64(col(func(r result) float64 { return float64(r.Errors) })),
		Seconds:   col(func(r result) float64 { return r.Seconds }),
		PerSecond: col(func(r result) float64 { return r.PerSecond }),
		P50ms:     col(func(r result) float64 { return r.P50ms }),
		P99ms:     col(func(r result) float64 { return r.P99ms }),
		VmHWMKiB:  int64(col(func(r result) float64 { return float64(r.VmHWMKiB) })),
		GCCycles:  uint64(col(func(r result) float64 { return float64(r.GCCycles) })),
		LiveKiB:   int64(col(func(r result) float64 { return float64(r.LiveKiB) })),
		CPUus:     col(func(r result) float64 { return r.CPUus }),
		BodyBytes: int64(col(func(r result) float64 { return float64(r.BodyBytes) })),
	}
}

// notPool holds the variants that are not pools: no pooling, and the
// oracle direct.
var notPool = map[string]bool{"nopool": true, "direct": true}

// inTarget reports whether the target counts variant v: a pool, at the
// default GOGC.
func inTarget(v string) bool { return !notPool[v] && !strings.Contains(v, "@") }

// verdict says whether bytebuf meets the end-to-end target among the pools
// at the default GOGC (inTarget): the lowest peak RSS, at no less than 0.97
// of the best throughput.
func verdict(rep *report) string {
	ref, ok := rep.Medians["bytebuf"]
	if !ok {
		return "bytebuf did not run."
	}
	var best, lowest string
	for _, v := range rep.Variants {
		m := rep.Medians[v]
		if !inTarget(v) {
			continue
		}
		if best == "" || m.PerSecond > rep.Medians[best].PerSecond {
			best = v
		}
		if lowest == "" || m.VmHWMKiB < rep.Medians[lowest].VmHWMKiB {
			lowest = v
		}
	}
	tput := ref.PerSecond / rep.Medians[best].PerSecond
	met := lowest == "bytebuf" && tput >= 0.97
	return fmt.Sprintf("Of the pools, the lowest peak RSS is %s's (%.1f MiB; bytebuf's %.1f MiB); the best throughput is %s's, and bytebuf's is %.2f of it. Target (bytebuf lowest peak RSS, at least 0.97 of the best throughput): **%s**.%s",
		lowest, float64(rep.Medians[lowest].VmHWMKiB)/1024, float64(ref.VmHWMKiB)/1024, best, tput, map[bool]string{true: "met", false: "not met"}[met],
		byRound(rep, lowest, best))
}

// byRound says how bytebuf compares round by round (each round runs every
// variant once, so the rounds pair the variants): when the lowest peak RSS
// is another pool's, the range of the differences from it and in how many
// rounds bytebuf's was lower; when the best throughput is another pool's,
// the median of bytebuf's requests/s over that pool's in the same round. A
// gap of medians that the rounds do not bear out is one the next run may
// reverse, and the machine's speed, which moves from round to round, moves
// both of a pair.
func byRound(rep *report, lowest, best string) string {
	a := rep.Results["bytebuf"]
	// paired returns v's rounds that bytebuf's pair with, nil when v is
	// bytebuf or fewer than two pair.
	paired := func(v string) []result {
		b := rep.Results[v]
		if v == "bytebuf" || min(len(a), len(b)) < 2 {
			return nil
		}
		return b[:min(len(a), len(b))]
	}
	var sb strings.Builder
	if b := paired(lowest); b != nil {
		lo, hi, below := math.Inf(1), math.Inf(-1), 0
		for i := range b {
			d := float64(a[i].VmHWMKiB-b[i].VmHWMKiB) / 1024
			lo, hi = min(lo, d), max(hi, d)
			if d < 0 {
				below++
			}
		}
		fmt.Fprintf(&sb, " Round by round, bytebuf's peak RSS less %s's goes from %+.1f to %+.1f MiB, lower in %d of %d rounds.", lowest, lo, hi, below, len(b))
	}
	if b := paired(best); b != nil {
		ratios := make([]float64, len(b))
		for i := range b {
			ratios[i] = a[i].PerSecond / b[i].PerSecond
		}
		fmt.Fprintf(&sb, " Round by round, bytebuf's requests/s are a median %.2f of %s's.", runstat.MedianOf(ratios, func(r float64) float64 { return r }), best)
	}
	return sb.String()
}

// writeMarkdown writes the header and the table of medians.
func writeMarkdown(w io.Writer, rep *report) {
	fmt.Fprintf(w, "# End to end: a JSON server on loopback (cmd/httpe2e)\n\n")
	fmt.Fprintf(w, "%s, %s, %d CPUs, load average %s at the start and %s at the end; %d clients; %.0f s.\n",
		rep.Start.Format("2006-01-02 15:04 UTC"), rep.Go, rep.NumCPU, rep.LoadAvg, rep.LoadEnd, rep.Clients, rep.Seconds)
	if a := shownArgs(rep.Args); len(a) > 0 {
		fmt.Fprintf(w, "Arguments: `%s`.\n\n", strings.Join(a, " "))
	} else {
		fmt.Fprintf(w, "Arguments: none (the defaults).\n\n")
	}
	fmt.Fprintf(w, "Each server runs in a process of its own; the clients run in the driver's. Medians of the rounds; ")
	fmt.Fprintf(w, "peak RSS is the server's VmHWM, over the warm-up and the measured run; GC cycles, the live heap (the mean of what each collection found live) and CPU time are the server's during the measured run (CPU time per request is steadier than requests/s on a shared machine).")
	if slices.ContainsFunc(rep.Variants, func(v string) bool { return strings.Contains(v, "@") }) {
		fmt.Fprintf(w, " A variant NAME@N is NAME's server run with GOGC=N; the target and the column × best pool are on the pools at the default GOGC.")
	}
	fmt.Fprintf(w, "\n\n")
	best := 0.0
	for _, v := range rep.Variants {
		if inTarget(v) {
			best = max(best, rep.Medians[v].PerSecond)
		}
	}
	fmt.Fprintf(w, "| variant | requests/s | × best pool | p50 ms | p99 ms | peak RSS MiB | live heap MiB | GC cycles | server CPU µs/request | requests | errors |\n")
	fmt.Fprintf(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, v := range rep.Variants {
		m := rep.Medians[v]
		fmt.Fprintf(w, "| %s | %.0f | %.2f | %.2f | %.2f | %.1f | %.2f | %d | %.0f | %d | %d |\n", v, m.PerSecond, m.PerSecond/max(best, 1),
			m.P50ms, m.P99ms, float64(m.VmHWMKiB)/1024, float64(m.LiveKiB)/1024, m.GCCycles, m.CPUus, m.Requests, m.Errors)
	}
	fmt.Fprintf(w, "\n%s\n", verdict(rep))
}

// shownArgs returns args without the flags that name output files, which
// say where a table went, not how it was measured.
func shownArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		name, _, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if name == "md" || name == "json" || name == "brief" || name == "from" {
			if !hasValue {
				i++
			}
			continue
		}
		out = append(out, args[i])
	}
	return out
}
