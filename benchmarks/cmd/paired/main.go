// Command paired times reuse's pools against the code they replace, written
// as users write it: for each case, a baseline (sync.Pool, or the same code
// inline) and reuse, each in three layouts (pools captured by closures, as
// fields of a struct, as package variables), at each GOMAXPROCS of -cpu, on
// one goroutine and from every P. Each cell runs interleaved rounds (base
// then ours, ours then base), takes the ratio ours/base of each round and
// reports the median over -rounds rounds with its quartiles. Two A/A cases
// (sync.Pool against sync.Pool, reuse.Pool against reuse.Pool, the same code
// in two functions) give the spread that layout and load alone produce.
//
// scripts/paired builds it twice, plain and with -tags paired_pad (a padding
// function that moves the code after it), runs both binaries and merges their
// records into the table of benchmarks/README.md:
//
//	go run ./cmd/paired -json a.jsonl -bin plain
//	go run ./cmd/paired -table -readme README.md a.jsonl b.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// record is one cell: a case in one layout, binary, GOMAXPROCS and mode.
type record struct {
	Bin    string  `json:"bin"`
	Layout string  `json:"layout"`
	Procs  int     `json:"procs"`
	Mode   string  `json:"mode"` // serial or everyP
	Case   string  `json:"case"`
	Ratio  float64 `json:"ratio"`
	Q1     float64 `json:"q1"`
	Q3     float64 `json:"q3"`
	BaseNs float64 `json:"base_ns"`
	OursNs float64 `json:"ours_ns"`
	Rounds int     `json:"rounds"`
	Load   string  `json:"load,omitempty"` // 1-minute load average after the cell
}

func main() {
	var (
		rounds = flag.Int("rounds", 41, "timed rounds per cell (at least 9)")
		cpus   = flag.String("cpu", "1,2", "GOMAXPROCS values")
		batch  = flag.Duration("batch", 300*time.Microsecond, "time of one side of a round, about (short: most then run between two preemptions)")
		only   = flag.String("case", "", "run only the cases whose name contains this")
		out    = flag.String("json", "", "append the records to this file (JSON lines)")
		bin    = flag.String("bin", "plain", "name of this binary's layout, in the records")
		table  = flag.Bool("table", false, "merge the record files named as arguments into a table")
		readme = flag.String("readme", "", "with -table: write the table between the markers of this file")
	)
	flag.Parse()
	if *table {
		if err := writeTable(flag.Args(), *readme); err != nil {
			fmt.Fprintln(os.Stderr, "paired:", err)
			os.Exit(1)
		}
		return
	}
	if *rounds < 9 {
		fmt.Fprintln(os.Stderr, "paired: -rounds must be at least 9")
		os.Exit(2)
	}
	padUse()
	defer func() { runtime.KeepAlive(sink) }() // the loops' results, read at the end
	var w *bufio.Writer
	if *out != "" {
		f, err := os.OpenFile(*out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "paired:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = bufio.NewWriter(f)
		defer w.Flush()
	}
	for _, c := range strings.Split(*cpus, ",") {
		procs, err := strconv.Atoi(c)
		if err != nil || procs < 1 {
			fmt.Fprintln(os.Stderr, "paired: bad -cpu", c)
			os.Exit(2)
		}
		runtime.GOMAXPROCS(procs)
		modes := []string{"serial"}
		if procs > 1 {
			modes = append(modes, "everyP")
		}
		for _, mode := range modes {
			for _, l := range layouts {
				pairs := l.pairs()
				for _, name := range caseNames {
					if !strings.Contains(name, *only) {
						continue
					}
					r := measure(pairs[name], procs, mode == "everyP", *rounds, *batch)
					r.Bin, r.Layout, r.Procs, r.Mode, r.Case, r.Load = *bin, l.name, procs, mode, name, load()
					fmt.Printf("%-6s %-7s P=%d %-6s %-14s %.3f [%.3f %.3f]  %.2f / %.2f ns\n",
						r.Bin, r.Layout, r.Procs, r.Mode, r.Case, r.Ratio, r.Q1, r.Q3, r.BaseNs, r.OursNs)
					if w != nil {
						b, _ := json.Marshal(r)
						w.Write(append(b, '\n'))
					}
				}
			}
		}
	}
}

// measure times one cell. From every P, each of procs goroutines runs n ops
// and a side's time is the wall time of all of them; its ns/op is over the
// ops of one goroutine, the time a caller waits for one op.
func measure(p pair, procs int, everyP bool, rounds int, batch time.Duration) record {
	runtime.GC()
	run := func(f func(int), n int) time.Duration {
		if !everyP {
			t := time.Now()
			f(n)
			return time.Since(t)
		}
		var wg sync.WaitGroup
		var start sync.WaitGroup
		start.Add(1)
		for range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				f(n)
			}()
		}
		t := time.Now()
		start.Done()
		wg.Wait()
		return time.Since(t)
	}
	n := 256
	for run(p.base, n) < batch && n < 1<<30 {
		n *= 2
	}
	for range 3 { // warm-up
		run(p.base, n)
		run(p.ours, n)
	}
	var tb, to, ratios []float64
	for i := range rounds {
		var db, do time.Duration
		if i%2 == 0 {
			db = run(p.base, n)
			do = run(p.ours, n)
		} else {
			do = run(p.ours, n)
			db = run(p.base, n)
		}
		tb = append(tb, float64(db)/float64(n))
		to = append(to, float64(do)/float64(n))
		ratios = append(ratios, float64(do)/float64(db))
	}
	slices.Sort(ratios)
	k := len(ratios)
	return record{
		Ratio: ratios[k/2], Q1: ratios[k/4], Q3: ratios[(3*k)/4],
		BaseNs: median(tb), OursNs: median(to), Rounds: rounds,
	}
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	return s[len(s)/2]
}
