// Command disttable turns the output of BenchmarkDist (go test -bench Dist,
// any -count and -cpu) into Markdown tables, which scripts/disttable writes
// to bench-results: a summary of bytebuf against the best of the four other
// pools for each metric, and the medians of every pool. It reads the
// benchmark output on standard input and writes Markdown on standard
// output; scripts/disttable runs it.
//
// With -untuned it reads the output of BenchmarkDistUntuned instead, and
// writes the same tables. With -slices it reads the output of
// BenchmarkSlicesDist instead and writes
// one table of reuse.Slices against libp2p/go-buffer-pool. With -paired it
// reads BenchmarkDistPaired and BenchmarkSlicesDistPaired and writes the
// paired ratios (x-base) by workload and peer. With -before FILE, where
// FILE holds bytebuf's results of the same benchmark from other code (run
// interleaved with those on standard input), it writes one table of bytebuf
// before and after against the best peer of standard input, and counts the
// rows that meet each of bytebuf's targets: time at most 1.10 times the best
// peer's, bytes allocated at most the best peer's, capacity/written at most
// 1.5.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/reuse-go/reuse/benchmarks/internal/runstat"
)

// key is one benchmark: a workload, a mode, a P count and a pool.
type key struct {
	workload, mode, impl string
	procs                int
}

// metrics are the units reported, in table order.
var metrics = []string{"ns/op", "cpu-ns/op", "exact-allocs/op", "B/op", "cap/written", "retained-B"}

// impls are the pools, bytebuf last.
var impls = []string{"syncpool", "bytebufferpool", "libp2p", "zap", "bytebuf"}

func main() {
	slicesMode := flag.Bool("slices", false, "read BenchmarkSlicesDist results: reuse.Slices against libp2p")
	pairedMode := flag.Bool("paired", false, "read BenchmarkDistPaired and BenchmarkSlicesDistPaired results: the paired ratios")
	untunedMode := flag.Bool("untuned", false, "read BenchmarkDistUntuned results")
	before := flag.String("before", "", "with bytebuf's results of other code in `file`: the table before and after")
	flag.Parse()
	if *pairedMode {
		if err := pairedTable(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "disttable:", err)
			os.Exit(1)
		}
		return
	}
	prefix := "BenchmarkDist/"
	switch {
	case *slicesMode:
		prefix = "BenchmarkSlicesDist/"
	case *untunedMode:
		prefix = "BenchmarkDistUntuned/"
	}
	samples, order, err := parse(os.Stdin, prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, "disttable:", err)
		os.Exit(1)
	}
	if len(order) == 0 {
		fmt.Fprintf(os.Stderr, "disttable: no %s results on standard input\n", strings.TrimSuffix(prefix, "/"))
		os.Exit(1)
	}
	med := medianOf(samples)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	if *slicesMode {
		slicesTable(w, order, med)
		return
	}
	if *before != "" {
		old, err := parseFile(*before, prefix)
		if err != nil {
			fmt.Fprintln(os.Stderr, "disttable:", err)
			os.Exit(1)
		}
		beforeTable(w, order, med, medianOf(old))
		return
	}

	distTable(w, order, med)
}

// distTable writes the tables of BenchmarkDist and BenchmarkDistUntuned:
// bytebuf against the best peer for each metric, then every pool's medians.
func distTable(w io.Writer, order []key, med func(key, string) (float64, bool)) {
	fmt.Fprintln(w, "bytebuf against the best of the four other pools, for each metric (medians; ratio = bytebuf / best):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | mode | P | ns/op: bytebuf, best peer | ratio | CPU ns/op: bytebuf, best peer | ratio | B/op: bytebuf, best peer | allocs/op | cap/written | retained after 2 GCs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range order {
		ours := g
		ours.impl = "bytebuf"
		t, ok := med(ours, "ns/op")
		if !ok {
			continue
		}
		bestT, bestTName := best(g, "ns/op", med)
		oc2, _ := med(ours, "cpu-ns/op")
		bestC, bestCName := best(g, "cpu-ns/op", med)
		bestB, bestBName := best(g, "B/op", med)
		ob, _ := med(ours, "B/op")
		oa, _ := med(ours, "exact-allocs/op")
		oc, _ := med(ours, "cap/written")
		or, _ := med(ours, "retained-B")
		fmt.Fprintf(w, "| %s | %s | %d | %s, %s (%s) | %.2f | %s | %s, %s (%s) | %s | %.2f | %s |\n",
			g.workload, g.mode, g.procs, ns(t), ns(bestT), bestTName, t/bestT,
			cpuCells(oc2, bestC, bestCName), num(ob), num(bestB), bestBName, allocs(oa), oc, size(or))
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "<details><summary>Every pool (medians)</summary>")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| workload | mode | P | pool | ns/op | CPU ns/op | allocs/op | B/op | cap/written | retained after 2 GCs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, g := range order {
		for _, impl := range impls {
			k := g
			k.impl = impl
			t, ok := med(k, "ns/op")
			if !ok {
				continue
			}
			cpu := "-"
			if v, ok := med(k, "cpu-ns/op"); ok {
				cpu = ns(v)
			}
			a, _ := med(k, "exact-allocs/op")
			b, _ := med(k, "B/op")
			c, _ := med(k, "cap/written")
			r, _ := med(k, "retained-B")
			fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %.2f | %s |\n",
				g.workload, g.mode, g.procs, impl, ns(t), cpu, allocs(a), num(b), c, size(r))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "</details>")
}

// parseFile is parse of the file at path, without the order of groups.
func parseFile(path, prefix string) (map[key]map[string][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	samples, _, err := parse(f, prefix)
	return samples, err
}

// beforeTable writes, for each group of order that has bytebuf's results
// in both, bytebuf's time over the best peer's (peers from med) before (from
// old) and after, its capacity/written and bytes allocated before and
// after, with the best peer's, and then how many rows meet each target.
func beforeTable(w io.Writer, order []key, med, old func(key, string) (float64, bool)) {
	fmt.Fprintln(w, "| workload | mode | P | time / best peer's: before, after | cap/written: before, after | B/op: before, after, best peer |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	var rows, time0, time1, bytes0, bytes1, cap0, cap1 int
	for _, g := range order {
		ours := g
		ours.impl = "bytebuf"
		t1, ok1 := med(ours, "ns/op")
		t0, ok0 := old(ours, "ns/op")
		bestT, _ := best(g, "ns/op", med)
		if !ok0 || !ok1 || bestT <= 0 {
			continue
		}
		bestB, _ := best(g, "B/op", med)
		c0, _ := old(ours, "cap/written")
		c1, _ := med(ours, "cap/written")
		b0, _ := old(ours, "B/op")
		b1, _ := med(ours, "B/op")
		r0, r1 := t0/bestT, t1/bestT
		fmt.Fprintf(w, "| %s | %s | %d | %.2f, %.2f | %.2f, %.2f | %s, %s, %s |\n",
			g.workload, g.mode, g.procs, r0, r1, c0, c1, num(b0), num(b1), num(bestB))
		rows++
		time0, time1 = time0+count(r0 <= 1.10), time1+count(r1 <= 1.10)
		cap0, cap1 = cap0+count(c0 <= 1.5), cap1+count(c1 <= 1.5)
		bytes0, bytes1 = bytes0+count(b0 <= bestB), bytes1+count(b1 <= bestB)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Rows within each target, before and after, of %d: time at most 1.10 times the best peer's %d and %d; "+
		"B/op at most the best peer's %d and %d; capacity/written at most 1.5 %d and %d.\n",
		rows, time0, time1, bytes0, bytes1, cap0, cap1)
}

func count(ok bool) int {
	if ok {
		return 1
	}
	return 0
}

// pairedPeers are the columns of the paired table: bytebuf against each
// peer, then reuse.Slices against libp2p.
var pairedPeers = []string{"syncpool", "bytebufferpool", "libp2p", "zap", "slices"}

// pairedTable reads paired results from r and writes, for each workload,
// the median over runs of the x-base ratio against each peer, with the
// smallest and largest run in brackets.
func pairedTable(r io.Reader, w io.Writer) error {
	ratios := map[[2]string][]float64{} // workload, peer -> one ratio per run
	var order []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		wl, peer, ok := pairedName(f[0])
		if !ok {
			continue
		}
		for i := 2; i+1 < len(f); i += 2 {
			if f[i+1] != "x-base" {
				continue
			}
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return fmt.Errorf("%q: %v", sc.Text(), err)
			}
			k := [2]string{wl, peer}
			if len(ratios[k]) == 0 && !slices.Contains(order, wl) {
				order = append(order, wl)
			}
			ratios[k] = append(ratios[k], v)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no paired results on standard input")
	}
	fmt.Fprintln(w, "| workload | vs sync.Pool | vs bytebufferpool | vs libp2p | vs zap | Slices vs libp2p |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, wl := range order {
		fmt.Fprintf(w, "| %s |", wl)
		for _, peer := range pairedPeers {
			fmt.Fprintf(w, " %s |", rangeCell(ratios[[2]string{wl, peer}]))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// pairedName reads the workload and peer of a paired benchmark's name:
// BenchmarkDistPaired/workload=W/peer=P or BenchmarkSlicesDistPaired/dist=W
// (peer "slices"), with or without a -P suffix.
func pairedName(name string) (workload, peer string, ok bool) {
	name, _ = trimProcs(name)
	parts := strings.Split(name, "/")
	switch {
	case parts[0] == "BenchmarkDistPaired" && len(parts) == 3:
		workload, ok1 := strings.CutPrefix(parts[1], "workload=")
		peer, ok2 := strings.CutPrefix(parts[2], "peer=")
		return workload, peer, ok1 && ok2
	case parts[0] == "BenchmarkSlicesDistPaired" && len(parts) == 2:
		workload, ok := strings.CutPrefix(parts[1], "dist=")
		return workload, "slices", ok
	}
	return "", "", false
}

// rangeCell is the median of v with its smallest and largest values, "-"
// when v is empty.
func rangeCell(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (%.2f-%.2f)", runstat.Median(v), slices.Min(v), slices.Max(v))
}

// medianOf returns the function that gives the median of a benchmark's
// samples of a unit, and false when it has none.
func medianOf(samples map[key]map[string][]float64) func(key, string) (float64, bool) {
	return func(k key, unit string) (float64, bool) {
		v := samples[k][unit]
		if len(v) == 0 {
			return 0, false
		}
		return runstat.Median(v), true
	}
}

// slicesTable writes the table of reuse.Slices against libp2p: for each
// shape, mode and P, the median time and bytes allocated per op of each and
// the ratio of the times.
func slicesTable(w io.Writer, order []key, med func(key, string) (float64, bool)) {
	fmt.Fprintln(w, "| shape | mode | P | ns/op: reuse.Slices, libp2p | ratio | B/op: reuse.Slices, libp2p |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, g := range order {
		ours, peer := g, g
		ours.impl, peer.impl = "reuse", "libp2p"
		t, ok1 := med(ours, "ns/op")
		pt, ok2 := med(peer, "ns/op")
		if !ok1 || !ok2 {
			continue
		}
		b, _ := med(ours, "B/op")
		pb, _ := med(peer, "B/op")
		fmt.Fprintf(w, "| %s | %s | %d | %s, %s | %.2f | %s, %s |\n", g.workload, g.mode, g.procs, ns(t), ns(pt), t/pt, num(b), num(pb))
	}
}

// cpuCells returns the two cells of the CPU time columns: bytebuf's and the
// best peer's medians, and their ratio; dashes for results from before the
// suite reported CPU time.
func cpuCells(ours, best float64, name string) string {
	if ours <= 0 || best <= 0 {
		return "- | -"
	}
	return fmt.Sprintf("%s, %s (%s) | %.2f", ns(ours), ns(best), name, ours/best)
}

// best returns the smallest median of unit among the pools other than
// bytebuf in group g, and that pool's name.
func best(g key, unit string, med func(key, string) (float64, bool)) (float64, string) {
	bv, bn := 0.0, ""
	for _, impl := range impls[:len(impls)-1] {
		k := g
		k.impl = impl
		if v, ok := med(k, unit); ok && (bn == "" || v < bv) {
			bv, bn = v, impl
		}
	}
	return bv, bn
}

// parse reads the lines of the benchmarks whose names start with prefix and
// returns the samples of each metric by benchmark, and the groups (keys
// without impl) in the order first seen.
func parse(r io.Reader, prefix string) (map[key]map[string][]float64, []key, error) {
	samples := map[key]map[string][]float64{}
	var order []key
	seen := map[key]bool{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], prefix) {
			continue
		}
		k := parseName(f[0])
		if samples[k] == nil {
			samples[k] = map[string][]float64{}
		}
		if err := addSamples(samples[k], f); err != nil {
			return nil, nil, fmt.Errorf("%q: %v", sc.Text(), err)
		}
		g := k
		g.impl = ""
		if !seen[g] {
			seen[g] = true
			order = append(order, g)
		}
	}
	// Group by workload, then serial before parallel, then P.
	slices.SortStableFunc(order, func(a, b key) int {
		if a.workload != b.workload {
			return 0 // keep the suite's order of workloads
		}
		if a.mode != b.mode {
			return strings.Compare(b.mode, a.mode) // serial first
		}
		return a.procs - b.procs
	})
	return samples, order, sc.Err()
}

// parseName reads a benchmark's key from its name, as
// BenchmarkDist/workload=W/mode=M/impl=I-P (BenchmarkSlicesDist says dist=W).
func parseName(name string) key {
	name, procs := trimProcs(name)
	k := key{procs: procs}
	for _, part := range strings.Split(name, "/")[1:] {
		name, value, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		switch name {
		case "workload", "dist":
			k.workload = value
		case "mode":
			k.mode = value
		case "impl":
			k.impl = value
		}
	}
	return k
}

// trimProcs splits the -P suffix that go test adds for GOMAXPROCS P off a
// benchmark's name; P is 1 when there is none.
func trimProcs(name string) (string, int) {
	if i := strings.LastIndexByte(name, '-'); i > strings.LastIndexByte(name, '/') {
		if p, err := strconv.Atoi(name[i+1:]); err == nil {
			return name[:i], p
		}
	}
	return name, 1
}

// addSamples adds to m the value of every metric of the line's fields f
// that the table shows.
func addSamples(m map[string][]float64, f []string) error {
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return err
		}
		if slices.Contains(metrics, f[i+1]) {
			m[f[i+1]] = append(m[f[i+1]], v)
		}
	}
	return nil
}

func ns(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f ms", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.2f µs", v/1e3)
	}
	return fmt.Sprintf("%.0f ns", v)
}

func num(v float64) string {
	if v >= 10 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

func allocs(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

func size(v float64) string {
	switch {
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.1f KiB", v/(1<<10))
	}
	return fmt.Sprintf("%.0f B", v)
}
