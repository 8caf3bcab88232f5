// Command userview measures byte-buffer pools as a user sees them: for each
// shape of lengths (the distributions suite, the untuned and the held-out
// shapes of package shapes), serially and with one goroutine per P, at each
// GOMAXPROCS of -cpu, it runs each pool (bytebuf and the peers a user would
// pick instead) through ops that get a buffer, write one length in the
// shape's pieces, hand the bytes on (through Bytes at even ops, through
// WriteTo at odd ones) and put the buffer back, each goroutine keeping
// -inflight buffers in flight.
//
// Each measurement reports the wall time per op, the peak heap (the
// high-water mark of /memory/classes/heap/objects:bytes over the heap
// before the pool was made; about 128 of the warm-up pass's samples, and
// one at the end of each pass, are exact, from runtime.ReadMemStats), the
// bytes allocated per op after a warm-up pass, the heap retained after two
// collections once every buffer is back, and capacity/written. The peers
// run interleaved in a shuffled order in each of -rounds rounds; the tables
// give medians. A peer dominates bytebuf on a row when it is at least 10%
// faster and its peak heap is at most bytebuf's.
//
// A timed pass runs the row's lengths over again until bytebuf's first pass
// would take at least -minpass (50 ms): a pass of a few milliseconds moves
// by tens of percent with one scheduler tick on a shared machine. -twin adds
// a second bytebuf pool as a peer, an A/A control: the rows it dominates are
// the verdicts that the run's noise alone gives.
//
//	go run ./cmd/userview -md userview.md -json userview.json
//	go run ./cmd/userview -rounds 3 -bytes 128MiB   # quick
//	go run ./cmd/userview -peers zap -twin          # the noise floor, beside zap
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/reuse-go/reuse/benchmarks/internal/runstat"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

// options are the command's flags.
type options struct {
	shapes, peers, cpus, modes string
	rounds, ops, inFlight      int
	sample                     int
	budget                     string
	seed                       uint64
	mdPath, jsonPath, brief    string
	from                       string
	twin                       bool
	minPass                    time.Duration
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("userview", flag.ContinueOnError)
	fs.StringVar(&o.shapes, "shapes", "suite,untuned,heldout", "comma-separated shape names, or sets: suite, untuned, heldout")
	fs.StringVar(&o.peers, "peers", "all", "comma-separated pools (syncpool, syncpool-64K, bytebufferpool, libp2p, zap); bytebuf always runs")
	fs.StringVar(&o.cpus, "cpu", "1,2,4", "comma-separated GOMAXPROCS values")
	fs.StringVar(&o.modes, "modes", "serial,parallel", "serial (one goroutine), parallel (one per P), or both")
	fs.IntVar(&o.rounds, "rounds", 5, "rounds; each runs every pool once per row, in a shuffled order")
	fs.IntVar(&o.ops, "ops", 0, "ops per timed pass (0: as many as -bytes allows, at most one run of the lengths, 65536, then doubled as -minpass says)")
	fs.StringVar(&o.budget, "bytes", "1GiB", "with -ops 0, the most bytes written per pass: ops are the largest power of two within it (at least 4096); a pass of fewer than 65536 ops runs the first lengths of the shape")
	fs.DurationVar(&o.minPass, "minpass", 50*time.Millisecond, "with -ops 0, the shortest timed pass: a row whose first bytebuf pass is shorter runs the lengths over again, doubling its ops until it is not (0: never)")
	fs.IntVar(&o.inFlight, "inflight", 4, "buffers in flight per goroutine (1 to 16)")
	fs.IntVar(&o.sample, "sample", 64, "the measuring goroutine samples the heap every this many ops")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the order of the pools in each round")
	fs.StringVar(&o.mdPath, "md", "-", "where the Markdown tables go (-: standard output)")
	fs.StringVar(&o.jsonPath, "json", "", "where the raw figures go, as JSON, gzipped if the name ends in .gz (empty: nowhere)")
	fs.StringVar(&o.from, "from", "", "measure nothing: write the tables of the JSON (or .json.gz) a run wrote before")
	fs.BoolVar(&o.twin, "twin", false, "also run "+twin+", a second bytebuf pool, as a peer: an A/A control whose verdicts are the machine's noise alone")
	fs.StringVar(&o.brief, "brief", "", "where the summary and the at-a-glance table alone go, as Markdown (empty: nowhere)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if o.rounds < 1 || o.inFlight < 1 || o.inFlight > maxInFlight || o.sample < 1 || o.ops < 0 || o.minPass < 0 {
		return o, fmt.Errorf("userview: -rounds, -sample must be at least 1, -inflight in 1..%d, -ops and -minpass at least 0", maxInFlight)
	}
	if o.ops > 0 {
		o.minPass = 0 // -ops sets the ops
	}
	return o, nil
}

// parseBytes parses a size such as 512MiB, 64KiB or 1000.
func parseBytes(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if t, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = t, u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("userview: bad size %q", s)
	}
	return n * mult, nil
}

// selectShapes returns the shapes that list names, by name or by set.
func selectShapes(list string) ([]shapes.Shape, error) {
	sets := map[string]func() []shapes.Shape{"suite": shapes.Suite, "untuned": shapes.Untuned, "heldout": shapes.Heldout}
	all := shapes.All()
	var out []shapes.Shape
	for _, name := range strings.Split(list, ",") {
		if f, ok := sets[name]; ok {
			out = append(out, f()...)
			continue
		}
		i := slices.IndexFunc(all, func(s shapes.Shape) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("userview: no shape %q", name)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// selectPeers returns the peers list names, and bytebuf; with twin, the A/A
// control too.
func selectPeers(list string, twin bool) ([]peer, error) {
	if twin {
		ps, err := selectPeers(list, false)
		return append(slices.Clip(ps), twinPeer), err
	}
	if list == "all" {
		return peers, nil
	}
	names := strings.Split(list, ",")
	var out []peer
	for _, p := range peers {
		if p.name == reference || slices.Contains(names, p.name) {
			out = append(out, p)
		}
	}
	for _, n := range names {
		if !slices.ContainsFunc(peers, func(p peer) bool { return p.name == n }) {
			return nil, fmt.Errorf("userview: no pool %q", n)
		}
	}
	return out, nil
}

// parseInts parses a comma-separated list of positive integers.
func parseInts(list string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("userview: bad number %q in %q", f, list)
		}
		out = append(out, n)
	}
	return out, nil
}

// opsFor returns the ops per pass for s: ops when it is set, else the
// largest power of two, from 4096 to shapes.Len, whose lengths (at the
// shape's mean) fit in budget bytes.
func opsFor(s shapes.Shape, ops int, budget int64) int {
	if ops > 0 {
		return ops
	}
	var sum int64
	for _, n := range s.Lengths {
		sum += int64(n)
	}
	mean := max(1, sum/int64(len(s.Lengths)))
	n := shapes.Len
	for n > 4096 && int64(n)*mean > budget {
		n /= 2
	}
	return n
}

// maxPasses bounds how many times over a timed pass runs the lengths.
const maxPasses = 64

// lengthen returns the ops per pass for r so that a pass takes at least
// minPass: r.ops, doubled (the ops run the lengths over again) as often as
// a pass of bytebuf at r.ops, measured once, says it takes, up to
// maxPasses times shapes.Len. A pass of a few milliseconds is at the mercy
// of one scheduler tick or one collection on a shared machine; a longer one
// averages them, and every pool of the row runs the same ops.
func lengthen(r run, minPass time.Duration) int {
	if minPass <= 0 {
		return r.ops
	}
	took := time.Duration(bytebufPass(r).NsPerOp * float64(r.ops))
	n := r.ops
	for took < minPass && n < maxPasses*shapes.Len {
		n *= 2
		took *= 2
	}
	return n
}

// row is one table: a shape, a mode and a P count.
type row struct {
	Shape    string              `json:"shape"`
	Piece    int                 `json:"piece"`
	Mode     string              `json:"mode"`
	Procs    int                 `json:"procs"`
	Ops      int                 `json:"ops"`
	Results  map[string][]result `json:"results"` // each pool's measurements, one per round
	Medians  map[string]result   `json:"medians"`
	Dominant []string            `json:"dominant"`        // the pools that dominate bytebuf on this row
	Rounds   map[string]int      `json:"dominant_rounds"` // for each of those, the rounds in which it dominates bytebuf's figures of the same round
}

// report is everything the command measured, as the JSON holds it.
type report struct {
	Start    time.Time `json:"start"`
	Seconds  float64   `json:"seconds"`
	Go       string    `json:"go"`
	NumCPU   int       `json:"num_cpu"`
	LoadAvg  string    `json:"loadavg_start"`
	LoadEnd  string    `json:"loadavg_end"`
	Args     []string  `json:"args"`
	InFlight int       `json:"inflight"`
	Rounds   int       `json:"rounds"`
	Peers    []string  `json:"peers"`
	Heap     string    `json:"heap,omitempty"` // heapExact, or empty: the runs before took the metric alone
	Rows     []*row    `json:"rows"`
}

// heapExact marks a report whose peak heaps include exact samples (see
// heapNow); the reports written before it took the runtime metric alone.
const heapExact = "exact samples in the warm-up"

// measureRow runs every pool on one row, round after round, each round in
// an order shuffled by rng.
func measureRow(rw *row, r run, ps []peer, rounds int, rng *rand.Rand) {
	rw.Results = map[string][]result{}
	for range rounds {
		order := rng.Perm(len(ps))
		for _, i := range order {
			rw.Results[ps[i].name] = append(rw.Results[ps[i].name], ps[i].measure(r))
		}
	}
	judge(rw, names(ps))
}

// names returns the names of ps.
func names(ps []peer) []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.name)
	}
	return names
}

// judge sets the row's medians from its results, the peers that dominate
// bytebuf on the medians, and, for each of those, in how many rounds its
// figures dominate bytebuf's of the same round.
func judge(rw *row, names []string) {
	rw.Medians = map[string]result{}
	for _, p := range names {
		rw.Medians[p] = medianResult(rw.Results[p])
	}
	rw.Dominant, rw.Rounds = nil, map[string]int{}
	ref := rw.Medians[reference]
	for _, p := range names {
		if p == reference || !dominates(rw.Medians[p], ref) {
			continue
		}
		rw.Dominant = append(rw.Dominant, p)
		for i, r := range rw.Results[p] {
			if i < len(rw.Results[reference]) && dominates(r, rw.Results[reference][i]) {
				rw.Rounds[p]++
			}
		}
	}
}

// dominates says whether a peer with figures m dominates bytebuf's, ref: it
// is at least 10% faster, and its peak heap is at or below bytebuf's.
func dominates(m, ref result) bool {
	return m.NsPerOp <= 0.9*ref.NsPerOp && m.PeakHeap <= ref.PeakHeap
}

func main() {
	if err := mainErr(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func mainErr(args []string, progress io.Writer) error {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	if o.from != "" {
		return rewrite(o)
	}
	budget, err := parseBytes(o.budget)
	if err != nil {
		return err
	}
	ss, err := selectShapes(o.shapes)
	if err != nil {
		return err
	}
	ps, err := selectPeers(o.peers, o.twin)
	if err != nil {
		return err
	}
	cpus, err := parseInts(o.cpus)
	if err != nil {
		return err
	}
	modes := strings.Split(o.modes, ",")
	for _, m := range modes {
		if m != "serial" && m != "parallel" {
			return fmt.Errorf("userview: bad mode %q", m)
		}
	}
	rep := &report{Start: time.Now().UTC(), Go: runtime.Version(), NumCPU: runtime.NumCPU(), LoadAvg: runstat.LoadAvg(),
		Args: shownArgs(args), InFlight: o.inFlight, Rounds: o.rounds, Heap: heapExact}
	for _, p := range ps {
		rep.Peers = append(rep.Peers, p.name)
	}
	rng := rand.New(rand.NewPCG(o.seed, 32))
	procs0 := runtime.GOMAXPROCS(0)
	for _, s := range ss {
		ops := opsFor(s, o.ops, budget)
		for _, mode := range modes {
			for _, c := range cpus {
				runtime.GOMAXPROCS(c)
				t := time.Now()
				r := run{shape: s, ops: ops, parallel: mode == "parallel", inFlight: o.inFlight, sample: o.sample}
				r.ops = lengthen(r, o.minPass)
				rw := &row{Shape: s.Name, Piece: s.Piece, Mode: mode, Procs: c, Ops: r.ops}
				measureRow(rw, r, ps, o.rounds, rng)
				rep.Rows = append(rep.Rows, rw)
				if err := saveJSON(rep, o.jsonPath); err != nil {
					return err
				}
				fmt.Fprintf(progress, "userview: %s %s P=%d: %d ops, %.1fs, dominated by %v\n",
					s.Name, mode, c, r.ops, time.Since(t).Seconds(), rw.Dominant)
			}
		}
	}
	runtime.GOMAXPROCS(procs0)
	rep.Seconds = time.Since(rep.Start).Seconds()
	rep.LoadEnd = runstat.LoadAvg()
	return writeOutputs(rep, o)
}

// rewrite writes the tables of the report in o.from.
func rewrite(o options) error {
	b, err := readMaybeGzip(o.from)
	if err != nil {
		return err
	}
	rep := new(report)
	if err := json.Unmarshal(b, rep); err != nil {
		return fmt.Errorf("userview: %s: %w", o.from, err)
	}
	o.jsonPath = ""
	for _, rw := range rep.Rows {
		judge(rw, rep.Peers)
	}
	return writeOutputs(rep, o)
}

// readMaybeGzip reads the file at path, gunzipped when its name ends in .gz.
func readMaybeGzip(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(path, ".gz") {
		return b, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("userview: %s: %w", path, err)
	}
	return io.ReadAll(zr)
}

// writeMaybeGzip writes b to the file at path, gzipped when its name ends in
// .gz.
func writeMaybeGzip(path string, b []byte) error {
	if strings.HasSuffix(path, ".gz") {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		if err := zw.Close(); err != nil {
			return err
		}
		b = buf.Bytes()
	}
	return os.WriteFile(path, b, 0o644)
}

// saveJSON writes the report to path as JSON, when path is not empty. The
// run saves it after every row, through a temporary file renamed over path,
// so that a run stopped before its end (by timeout, on a lent machine) leaves
// every row it finished, readable with -from.
func saveJSON(rep *report, path string) error {
	if path == "" {
		return nil
	}
	rep.Seconds = time.Since(rep.Start).Seconds()
	b, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if strings.HasSuffix(path, ".gz") {
		tmp = strings.TrimSuffix(path, ".gz") + ".tmp.gz"
	}
	if err := writeMaybeGzip(tmp, append(b, '\n')); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// writeOutputs writes the Markdown and, when asked, the JSON.
func writeOutputs(rep *report, o options) error {
	if err := saveJSON(rep, o.jsonPath); err != nil {
		return err
	}
	if o.brief != "" {
		var sb strings.Builder
		writeSummary(&sb, rep, "###")
		writeGlance(&sb, rep, "###")
		if err := os.WriteFile(o.brief, []byte(sb.String()), 0o644); err != nil {
			return err
		}
	}
	var sb strings.Builder
	writeMarkdown(&sb, rep)
	if o.mdPath == "-" {
		_, err := os.Stdout.WriteString(sb.String())
		return err
	}
	return os.WriteFile(o.mdPath, []byte(sb.String()), 0o644)
}
