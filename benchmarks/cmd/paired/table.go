package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
)

// targets are issue 58's bounds on ours/base; the A/A cases have none.
var targets = map[string]float64{
	"pool-ptr": 1.00, "pool-bytes": 1.02, "slices-1000": 1.02, "hooks": 1.03,
	"bytebuf-100B": 1.03, "bytebuf-4KiB": 1.03, "bytebuf-64KiB": 1.03,
}

var caseTitles = map[string]string{
	"aa-syncpool":   "A/A: `sync.Pool` against itself",
	"aa-pool":       "A/A: `Pool[*T]` against itself",
	"pool-ptr":      "`Pool[*T]` / `sync.Pool` of `*T`",
	"pool-bytes":    "`Pool[[]byte]` / `sync.Pool` of `*[]byte` (1 KiB)",
	"slices-1000":   "`Slices[byte].Get(1000)` / `sync.Pool` of `*[]byte`",
	"hooks":         "`Pool[*T]` with Reset, Accept / the same inline",
	"bytebuf-100B":  "bytebuf / `sync.Pool` of `*bytes.Buffer`, 100 B",
	"bytebuf-4KiB":  "bytebuf / `sync.Pool` of `*bytes.Buffer`, 4 KiB",
	"bytebuf-64KiB": "bytebuf / `sync.Pool` of `*bytes.Buffer`, 64 KiB",
}

const (
	beginMarker = "<!-- paired begin -->"
	endMarker   = "<!-- paired end -->"
)

// writeTable merges the records of files into one row per case: for each
// GOMAXPROCS and mode, the median, lowest and highest of the cells' median
// ratios over the layouts, binaries and runs, and whether every column's
// median is within the case's target.
func writeTable(files []string, readme string) error {
	recs, bins, loads, err := readRecords(files)
	if err != nil {
		return err
	}
	cols := columns(recs)
	var t bytes.Buffer
	writeHeader(&t, cols)
	rounds := 0
	for _, name := range caseNames {
		rounds = writeRow(&t, name, cols, recs, rounds)
	}
	var bl []string
	for b := range bins {
		bl = append(bl, b)
	}
	slices.Sort(bl)
	fmt.Fprintf(&t, "\nEach cell: the median, and lowest–highest, of the medians of %d interleaved rounds in 3 layouts "+
		"(closures, struct fields, package variables) × %d binaries (%s) × runs; met: every column's median within "+
		"the target; ns/op: median baseline / reuse at P=1. %s; "+
		"1-minute load average during the runs %s.\n",
		rounds, len(bl), strings.Join(bl, ", "), envLine(), loadRange(loads))
	if readme == "" {
		os.Stdout.Write(t.Bytes())
		return nil
	}
	return spliceReadme(readme, t.Bytes())
}

// readRecords reads the JSON records of files, one a line, and returns
// them with the set of binaries they name and their distinct load averages
// in the order first seen. It is an error when there are none.
func readRecords(files []string) (recs []record, bins map[string]bool, loads []string, err error) {
	bins = map[string]bool{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return nil, nil, nil, err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var r record
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				f.Close()
				return nil, nil, nil, fmt.Errorf("%s: %v", name, err)
			}
			recs = append(recs, r)
			bins[r.Bin] = true
			if r.Load != "" && !slices.Contains(loads, r.Load) {
				loads = append(loads, r.Load)
			}
		}
		f.Close()
	}
	if len(recs) == 0 {
		return nil, nil, nil, fmt.Errorf("no records")
	}
	return recs, bins, loads, nil
}

// col is a column of the table: a GOMAXPROCS and a mode.
type col struct {
	procs int
	mode  string
}

// columns returns the columns that recs cover, by GOMAXPROCS, serial
// before everyP.
func columns(recs []record) []col {
	var cols []col
	for _, r := range recs {
		c := col{r.Procs, r.Mode}
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	slices.SortFunc(cols, func(a, b col) int {
		if a.procs != b.procs {
			return a.procs - b.procs
		}
		return strings.Compare(b.mode, a.mode) // serial before everyP
	})
	return cols
}

// writeHeader writes the table's heading and alignment rows for cols.
func writeHeader(t *bytes.Buffer, cols []col) {
	fmt.Fprintf(t, "| case: reuse / baseline | target |")
	for _, c := range cols {
		fmt.Fprintf(t, " P=%d %s |", c.procs, map[string]string{"serial": "one goroutine", "everyP": "every P"}[c.mode])
	}
	fmt.Fprintf(t, " ns/op, P=1 | met |\n|---|--:|")
	for range cols {
		t.WriteString("--:|")
	}
	t.WriteString("--:|---|\n")
}

// writeRow writes the row of case name: its target, a cell for each of
// cols, the median ns/op at P=1 and the verdict. It returns the Rounds of
// the last record of the case that it read, or rounds when there is none.
func writeRow(t *bytes.Buffer, name string, cols []col, recs []record, rounds int) int {
	target, hasTarget := targets[name]
	tgt := "—"
	if hasTarget {
		tgt = fmt.Sprintf("%.2f×", target)
	}
	fmt.Fprintf(t, "| %s | %s |", caseTitles[name], tgt)
	met, any := true, false
	var base1, ours1 []float64
	for _, c := range cols {
		var rs []float64
		for _, r := range recs {
			if r.Case == name && r.Procs == c.procs && r.Mode == c.mode {
				rs = append(rs, r.Ratio)
				rounds = r.Rounds
				if r.Procs == 1 {
					base1, ours1 = append(base1, r.BaseNs), append(ours1, r.OursNs)
				}
			}
		}
		if len(rs) == 0 {
			t.WriteString(" |")
			continue
		}
		any = true
		mid, lo, hi := median(rs), slices.Min(rs), slices.Max(rs)
		if hasTarget && mid > target {
			met = false
		}
		fmt.Fprintf(t, " %.2f× (%.2f–%.2f) |", mid, lo, hi)
	}
	ns := ""
	if len(base1) > 0 {
		ns = fmt.Sprintf("%.1f / %.1f", median(base1), median(ours1))
	}
	verdict := "—"
	if hasTarget && any {
		verdict = map[bool]string{true: "yes", false: "no"}[met]
	}
	fmt.Fprintf(t, " %s | %s |\n", ns, verdict)
	return rounds
}

// spliceReadme replaces what lies between the markers in the file readme
// with table.
func spliceReadme(readme string, table []byte) error {
	doc, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	i := bytes.Index(doc, []byte(beginMarker))
	j := bytes.Index(doc, []byte(endMarker))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s … %s", readme, beginMarker, endMarker)
	}
	var nd bytes.Buffer
	nd.Write(doc[:i+len(beginMarker)])
	nd.WriteString("\n")
	nd.Write(table)
	nd.Write(doc[j:])
	return os.WriteFile(readme, nd.Bytes(), 0o644)
}
