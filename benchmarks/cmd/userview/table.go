package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/reuse-go/reuse/benchmarks/internal/runstat"
)

// medianResult returns the median of each figure of rs, separately.
func medianResult(rs []result) result {
	col := func(f func(result) float64) float64 { return runstat.MedianOf(rs, f) }
	return result{
		NsPerOp:    col(func(r result) float64 { return r.NsPerOp }),
		CPUNsPerOp: col(func(r result) float64 { return r.CPUNsPerOp }),
		PeakHeap:   int64(col(func(r result) float64 { return float64(r.PeakHeap) })),
		BPerOp:     col(func(r result) float64 { return r.BPerOp }),
		Retained:   int64(col(func(r result) float64 { return float64(r.Retained) })),
		CapWritten: col(func(r result) float64 { return r.CapWritten }),
		Samples:    int(col(func(r result) float64 { return float64(r.Samples) })),
	}
}

// ratio formats a/b to two decimals, or "–" when b is not positive.
func ratio(a, b float64) string {
	if b <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// kib formats bytes as KiB.
func kib(b int64) string { return fmt.Sprintf("%.0f", float64(b)/1024) }

// writeMarkdown writes the report's header, summary, the at-a-glance table
// and one table per row.
func writeMarkdown(w io.Writer, rep *report) {
	fmt.Fprintf(w, "# Byte-buffer pools as a user sees them (cmd/userview)\n\n")
	fmt.Fprintf(w, "%s, %s, %d CPUs, load average %s at the start and %s at the end; %d rounds, %d buffers in flight per goroutine; %.0f s.\n",
		rep.Start.Format("2006-01-02 15:04 UTC"), rep.Go, rep.NumCPU, rep.LoadAvg, rep.LoadEnd, rep.Rounds, rep.InFlight, rep.Seconds)
	if a := shownArgs(rep.Args); len(a) > 0 {
		fmt.Fprintf(w, "Arguments: `%s`.\n\n", strings.Join(a, " "))
	} else {
		fmt.Fprintf(w, "Arguments: none (the defaults).\n\n")
	}
	fmt.Fprintf(w, "Each figure is the median of the rounds; in each round the pools run in a shuffled order. ")
	fmt.Fprintf(w, "Time and peak heap are multiples of bytebuf's (below 1: the peer is faster, or holds less). ")
	fmt.Fprintf(w, "A peer dominates bytebuf when it is at least 10%% faster and its peak heap is at most bytebuf's. ")
	if coarse(rep) {
		fmt.Fprintf(w, "The runtime counts the small objects of a span when the span leaves a P's cache, so up to one span per size class in use per P (8 KiB or more each) goes uncounted at any moment: ")
		fmt.Fprintf(w, "peak heaps below %d KiB are at that granularity, and the rows where bytebuf's is are marked † in the summary.\n\n", fine>>10)
	} else {
		fmt.Fprintf(w, "The runtime's metric counts the small objects of a span only when the span leaves a P's cache (up to one span per size class in use per P, 8 KiB or more each, goes uncounted), ")
		fmt.Fprintf(w, "so about %d of the warm-up pass's heap samples, and one at the end of each pass, come from runtime.ReadMemStats, which counts them; the timed pass takes no other, as each stops the world.\n\n", exactSamples)
	}
	writeSummary(w, rep, "##")
	writeGlance(w, rep, "##")
	fmt.Fprintf(w, "## Every row\n\n")
	for _, rw := range rep.Rows {
		writeRow(w, rep, rw)
	}
}

// fine is the peak heap below which the runtime's count is too coarse to
// compare pools by.
const fine = 64 << 10

// dominatedByPeers reports whether a peer other than the A/A twin
// dominates bytebuf on rw.
func dominatedByPeers(rw *row) bool {
	return slices.ContainsFunc(rw.Dominant, func(p string) bool { return p != twin })
}

// coarse reports whether rep's peak heaps come from the runtime metric
// alone, so that those below fine are at its granularity.
func coarse(rep *report) bool { return rep.Heap == "" }

// underFine reports whether rw of a coarse report has bytebuf's peak heap
// below fine (marked †).
func underFine(rep *report, rw *row) bool {
	return coarse(rep) && rw.Medians[reference].PeakHeap < fine
}

// countFine returns how many of the dominated rows are underFine.
func countFine(rep *report) int {
	n := 0
	for _, rw := range rep.Rows {
		if dominatedByPeers(rw) && underFine(rep, rw) {
			n++
		}
	}
	return n
}

// countDominated returns the number of rows a peer other than the twin
// dominates, and the rows each peer dominates.
func countDominated(rows []*row) (n int, by map[string]int) {
	by = map[string]int{}
	for _, rw := range rows {
		if dominatedByPeers(rw) {
			n++
		}
		for _, p := range rw.Dominant {
			by[p]++
		}
	}
	return n, by
}

// writeSummary counts the rows a peer dominates, and lists them, under a
// heading of level h ("##").
func writeSummary(w io.Writer, rep *report, h string) {
	n, by := countDominated(rep.Rows)
	fmt.Fprintf(w, "%s Summary\n\n**%d of %d rows dominated**", h, n, len(rep.Rows))
	var parts []string
	for _, p := range rep.Peers {
		if by[p] > 0 && p != twin {
			parts = append(parts, fmt.Sprintf("%s %d", p, by[p]))
		}
	}
	if len(parts) > 0 {
		fmt.Fprintf(w, "; rows by peer: %s", strings.Join(parts, ", "))
	}
	if k := countFine(rep); k > 0 {
		fmt.Fprintf(w, "; on %d of the dominated rows (†) bytebuf's peak heap is below %d KiB", k, fine>>10)
	}
	if slices.Contains(rep.Peers, twin) {
		fmt.Fprintf(w, "; the A/A control (%s, the same code as bytebuf) dominates bytebuf on %d rows, the verdicts this run's noise alone gives", twin, by[twin])
	}
	fmt.Fprintf(w, ".\n\n")
	if n == 0 && by[twin] == 0 {
		return
	}
	fmt.Fprintf(w, "Beside each peer, the rounds in which its figures dominate bytebuf's of the same round.\n\n")
	fmt.Fprintf(w, "| shape | mode | P | dominated by |\n|---|---|--:|---|\n")
	for _, rw := range rep.Rows {
		if len(rw.Dominant) > 0 {
			mark := ""
			if underFine(rep, rw) {
				mark = " †"
			}
			var by []string
			for _, p := range rw.Dominant {
				by = append(by, fmt.Sprintf("%s (%d/%d)", p, rw.Rounds[p], len(rw.Results[p])))
			}
			fmt.Fprintf(w, "| %s%s | %s | %d | %s |\n", rw.Shape, mark, rw.Mode, rw.Procs, strings.Join(by, ", "))
		}
	}
	fmt.Fprintln(w)
}

// writeGlance writes one line per row: bytebuf's figures and each peer's
// time and peak heap as multiples of bytebuf's.
func writeGlance(w io.Writer, rep *report, h string) {
	others := slices.DeleteFunc(slices.Clone(rep.Peers), func(p string) bool { return p == reference })
	fmt.Fprintf(w, "%s At a glance\n\nbytebuf's time, peak heap, B/op and retained heap; then each peer's time × and peak heap × bytebuf's (**bold**: dominates).\n\n", h)
	fmt.Fprintf(w, "| shape | mode | P | bytebuf ns/op | peak KiB | B/op | retained KiB |")
	sep := "|---|---|--:|--:|--:|--:|--:|"
	for _, p := range others {
		fmt.Fprintf(w, " %s |", p)
		sep += "--:|"
	}
	fmt.Fprintf(w, "\n%s\n", sep)
	for _, rw := range rep.Rows {
		ref := rw.Medians[reference]
		fmt.Fprintf(w, "| %s | %s | %d | %.0f | %s | %.0f | %s |", rw.Shape, rw.Mode, rw.Procs, ref.NsPerOp, kib(ref.PeakHeap), ref.BPerOp, kib(ref.Retained))
		for _, p := range others {
			m := rw.Medians[p]
			cell := ratio(m.NsPerOp, ref.NsPerOp) + ", " + ratio(float64(m.PeakHeap), float64(ref.PeakHeap))
			if slices.Contains(rw.Dominant, p) {
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(w, " %s |", cell)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// writeRow writes one row's table: every pool's figures.
func writeRow(w io.Writer, rep *report, rw *row) {
	fmt.Fprintf(w, "### %s, %s, P=%d\n\nPieces of %d B; %d ops per pass.\n\n", rw.Shape, rw.Mode, rw.Procs, rw.Piece, rw.Ops)
	fmt.Fprintf(w, "| pool | time × | peak heap × | ns/op | CPU ns/op | peak heap KiB | B/op | retained KiB | cap/written | dominates bytebuf |\n")
	fmt.Fprintf(w, "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	ref := rw.Medians[reference]
	for _, p := range rep.Peers {
		m := rw.Medians[p]
		verdict := "no"
		switch {
		case p == reference:
			verdict = "–"
		case slices.Contains(rw.Dominant, p):
			verdict = "**yes**"
		}
		fmt.Fprintf(w, "| %s | %s | %s | %.0f | %.0f | %s | %.0f | %s | %.2f | %s |\n", p,
			ratio(m.NsPerOp, ref.NsPerOp), ratio(float64(m.PeakHeap), float64(ref.PeakHeap)),
			m.NsPerOp, m.CPUNsPerOp, kib(m.PeakHeap), m.BPerOp, kib(m.Retained), m.CapWritten, verdict)
	}
	fmt.Fprintln(w)
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
