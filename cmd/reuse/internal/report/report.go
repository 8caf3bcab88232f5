package report

import (
	"fmt"
	"math"
	"regexp"
	"runtime"
	"time"

	"github.com/reuse-go/reuse/internal/cputime"
)

// Roles of a variant in a case.
const (
	RoleBaseline = "baseline"  // fresh allocation every op
	RoleSyncPool = "sync.Pool" // sync.Pool as the write-ups write it, pitfalls included
	// RoleSyncPoolCorrect is sync.Pool written correctly, where the usual
	// code has a bug (Def.Pitfalls); elsewhere the usual code is correct.
	RoleSyncPoolCorrect = "sync.Pool, correct"
	RoleReuse           = "reuse" // this library
	RoleOther           = "other" // further variants the write-ups measured
)

// Report is the result of one run: every selected workload with its figures.
type Report struct {
	GoVersion  string    `json:"go_version"`
	GOOS       string    `json:"goos"`
	GOARCH     string    `json:"goarch"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	Timing     string    `json:"timing"` // "cpu" or "wall": the time speedups are computed from
	NumCPU     int       `json:"num_cpu"`
	CPU        string    `json:"cpu"` // the processor's model name, "" where unknown
	GC         GC        `json:"gc"`  // the collector's setting the run measured under
	Started    time.Time `json:"started"`
	Seconds    float64   `json:"seconds"`
	Mode       string    `json:"mode"` // "default" or "full"
	// Processes is the number of passes run in processes of their own
	// (Options.Exec), and ProcessError why one failed and ran here.
	Processes    int        `json:"processes"`
	ProcessError string     `json:"process_error,omitempty"`
	Workloads    []Workload `json:"workloads"`
	// Sweep, when asked for (-gc-sweep), is reuse's gain measured again
	// under a grid of GC settings.
	Sweep []SweepPoint `json:"gc_sweep,omitempty"`
	// Chance is what chance alone gives in the counts against sync.Pool,
	// written by WriteJSON from the workloads (see Summary).
	Chance *Chance `json:"chance,omitempty"`
}

// Workload is one of W1–W11 with its cases and what its pitfall detectors found.
type Workload struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Op       string    `json:"op"`              // what one op does
	Claim    string    `json:"claim"`           // the claim the workload tests
	Source   string    `json:"published"`       // the published figures, as written up
	Pitfalls []string  `json:"pitfalls"`        // labels of the pitfalls its usual code falls into
	Curve    string    `json:"curve,omitempty"` // x axis of the cases' Size curve, "" when none
	Cases    []Case    `json:"cases"`
	Findings []Finding `json:"findings"`
	// Notes are what the run found across the cases, such as the size from
	// which pooling pays on a Curve: computed from the figures, never
	// written ahead of them.
	Notes []string `json:"notes"`
}

// Case is one setting of a workload (a size, an API) measured in every variant.
type Case struct {
	Name     string    `json:"name"` // "" when the workload has one case
	Size     int       `json:"size"` // the size parameter (W1's n, W6's n), 0 when none
	Variants []Variant `json:"variants"`
	Verdict  Verdict   `json:"verdict"`
}

// Variant is one implementation of a case, with its figures.
type Variant struct {
	Name string `json:"name"`
	Role string `json:"role"`

	// NsPerOp is wall-clock time per op in the fastest round, NsMedian in
	// the median round.
	NsPerOp  float64 `json:"ns_per_op"`
	NsMedian float64 `json:"ns_per_op_median"`
	// CPUNsPerOp and CPUNsMedian are the same in process CPU time (all
	// threads, so the garbage collector's background work is included);
	// 0 where the platform cannot read it.
	CPUNsPerOp  float64 `json:"cpu_ns_per_op"`
	CPUNsMedian float64 `json:"cpu_ns_per_op_median"`
	// Noise is the median round over the fastest, minus 1, in the time
	// Speedup uses: how much load moved the rounds.
	Noise float64 `json:"noise"`
	// TimeQ1 and TimeQ3 are the quartiles of time per op over the rounds,
	// in the time Time uses: the box of the error bars.
	TimeQ1 float64 `json:"time_q1"`
	TimeQ3 float64 `json:"time_q3"`
	// RoundTimes is the time per op of each round, in the time Time uses,
	// for comparing two runs (reuse compare).
	RoundTimes  []float64 `json:"round_times"`
	Rounds      int       `json:"rounds"`
	BytesPerOp  float64   `json:"bytes_per_op"`
	AllocsPerOp float64   `json:"allocs_per_op"` // exact: Allocs / Ops, not rounded
	Allocs      uint64    `json:"allocs"`
	Ops         uint64    `json:"ops"`
	FirstAllocs uint64    `json:"first_allocs"` // allocations of the very first op
	FirstBytes  uint64    `json:"first_bytes"`
	GCs         uint64    `json:"gcs"`
	GCsPerOp    float64   `json:"gcs_per_op"`
	Errors      uint64    `json:"errors"` // ops that returned an error
	// Misses is the number of timed ops whose pool had nothing to give,
	// so that the op made a fresh value, and Drops the number of values
	// the variant let go instead of giving them back (as a pool that
	// bounds what it keeps does). MissRate is the share of Ops in which
	// the pool missed though nothing had been dropped: (Misses − Drops) ÷
	// Ops, 0 when Drops is larger. MissesCounted says whether the report
	// can see the variant's pool (false for a baseline, and for pools
	// inside a package such as gzpool). Unsteady, when not "", says that
	// MissRate is above MaxMissRate, so that the figures measure fresh
	// allocation as much as the pool.
	Misses        uint64  `json:"pool_misses"`
	Drops         uint64  `json:"pool_drops"`
	MissRate      float64 `json:"pool_miss_rate"`
	MissesCounted bool    `json:"pool_misses_counted"`
	Unsteady      string  `json:"unsteady,omitempty"`
	// Speedup is the median over rounds of the baseline's time ÷ this
	// variant's in the same round (the variants of a case run one after the other in each pass, so load hits
	// both alike); SpeedupCI is its confidence interval. 0 when not valid.
	Speedup   float64  `json:"speedup"`
	SpeedupCI Interval `json:"speedup_interval"`

	// Check is "ok" when the variant's output equals the baseline's and no
	// op failed; otherwise it says what went wrong and the figures do not
	// count (Valid is false).
	Check string `json:"check"`
	Valid bool   `json:"valid"`

	Published *Published `json:"published,omitempty"`

	// Retained is the heap a fresh instance of the variant holds after
	// Def.Retained ops and one garbage collection, in bytes; 0 when not
	// measured.
	Retained uint64 `json:"retained_bytes"`
}

// Time is the median time per op over the rounds, in the time speedups
// are computed from: CPU time where the platform reads it, wall-clock time
// elsewhere. On a machine shared with other work, wall time per op varies
// several-fold with the load while the process's CPU time does not.
func (v Variant) Time() float64 {
	if v.CPUNsPerOp > 0 {
		return v.CPUNsMedian
	}
	return v.NsMedian
}

// fastest is the fastest round's time per op, in the time Time uses.
func (v Variant) fastest() float64 {
	if v.CPUNsPerOp > 0 {
		return v.CPUNsPerOp
	}
	return v.NsPerOp
}

// Published is a figure from the write-ups, taken elsewhere on another Go.
type Published struct {
	// NsPerOp is the write-up's time per op, on its machine and Go.
	NsPerOp     float64 `json:"ns_per_op"`
	BytesPerOp  float64 `json:"bytes_per_op"`
	AllocsPerOp float64 `json:"allocs_per_op"`
	Speedup     float64 `json:"speedup"` // against the published baseline; 0 if none
	Fake        bool    `json:"fake,omitempty"`
}

// Finding is what a pitfall detector saw in this run.
type Finding struct {
	Pitfall  string `json:"pitfall"` // "P1" … "P7"
	Variant  string `json:"variant"`
	Message  string `json:"message"`
	Evidence string `json:"evidence"`
}

// Options control a run.
type Options struct {
	// Filter selects the workloads whose whole id or whose name it
	// matches (see Select); nil selects all.
	Filter *regexp.Regexp
	// Round is the time each variant runs in one measuring round, and Rounds
	// how many rounds are taken, each in its own pass over the selected
	// workloads, on a fresh instance of the variant (see Run).
	Round  time.Duration
	Rounds int
	// Budget, if positive, bounds the rounds, with their warm-up and
	// calibration: when the rounds left would overrun it (a loaded
	// machine stretches every round), the rounds shrink, down to 2 ms.
	// The detectors add a few seconds on top.
	Budget time.Duration
	// Full names the mode in the report.
	Full bool
	// Exec, if not "", is the program to run each pass in, a process of
	// its own, so that the rounds also differ in what is fixed for a
	// process (where its heap and its pools' per-P state lie in memory):
	// a program whose main calls ServePass first when IsPass. A pass
	// whose process fails runs in this one (Report.ProcessError says why).
	Exec string
	// GOGC, MemLimit and Ballast set the collector for the run: GOGC (0
	// means 100), the soft memory limit in bytes (0 means none), and bytes
	// of live, pointer-holding heap to hold meanwhile. The setting is
	// restored when Run returns.
	GOGC     int
	MemLimit int64
	Ballast  int
	// Progress, if non-nil, is called before each workload in each pass
	// with the number of such steps before it (pass × workloads selected
	// + the workload's index), the number of steps in all and the elapsed
	// time.
	Progress func(w Def, i, n int, elapsed time.Duration)
}

// DefaultOptions are the options of a default run, about 30 s on 2 loaded
// cores: nine rounds of up to 15 ms per variant, each in its own pass, so
// that a burst of load from other processes spoils a few rounds, not the
// median, within a budget of 22 s for the rounds (the detectors take the
// rest).
func DefaultOptions() Options {
	return Options{Round: 15 * time.Millisecond, Rounds: 9, Budget: 22 * time.Second}
}

// FullOptions are the options of a -full run: longer, steadier.
func FullOptions() Options { return Options{Round: 60 * time.Millisecond, Rounds: 15, Full: true} }

// Run measures the selected workloads and returns the report.
//
// The rounds are spread over Options.Rounds passes over the selected
// workloads. In each pass every variant is built afresh, with an empty
// pool, warmed up, calibrated and measured for one round, the variants of
// a case one after the other, in an order that turns with each pass. So
// the rounds of a variant differ in what a rerun of the report would
// change (the collector's state, the calibrated round size, where its
// values lie in memory, the load of the machine over the run), and an
// interval over them covers what a rerun would see.
func Run(opt Options) Report {
	if opt.Round <= 0 || opt.Rounds <= 0 {
		panic("report: Run called with a non-positive Round or Rounds")
	}
	gc, restore := setGC(opt)
	defer restore()
	r := Report{
		CPU:        cpuModel(),
		GC:         gc,
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		Started:    time.Now().UTC().Truncate(time.Second),
		Mode:       "default",
		Timing:     "wall",
	}
	if cputime.Supported {
		r.Timing = "cpu"
	}
	if opt.Full {
		r.Mode = "full"
	}
	defs := Select(opt.Filter)
	b := &budget{opt: opt, start: time.Now()}
	cases := make([][]*caseRun, len(defs))
	for i, d := range defs {
		for _, cd := range d.Cases {
			cases[i] = append(cases[i], &caseRun{def: cd, ms: make([]*measurement, len(cd.Variants))})
			b.left += len(cd.Variants) * opt.Rounds
		}
	}
	for pass := range opt.Rounds {
		if opt.Exec != "" && len(defs) > 0 {
			if runPass(&r, opt, b, pass, defs, cases) {
				continue
			}
		}
		for i, d := range defs {
			if opt.Progress != nil {
				opt.Progress(d, pass*len(defs)+i, opt.Rounds*len(defs), time.Since(b.start))
			}
			for _, c := range cases[i] {
				c.pass(pass, b.round(len(c.def.Variants)))
			}
		}
	}
	for i, d := range defs {
		r.Workloads = append(r.Workloads, finish(d, cases[i]))
	}
	r.Seconds = math.Round(time.Since(b.start).Seconds()*10) / 10
	return r
}

// Select returns the workload definitions that filter selects, all of them
// when filter is nil. A workload is selected when filter matches its whole
// id, so that W1 selects W1 and not W10, or matches anywhere in its name:
// "W9|W10", "^W1[01]$" and "gzip" all work.
func Select(filter *regexp.Regexp) []Def {
	var id *regexp.Regexp
	if filter != nil {
		// filter compiled, so the anchored form does too.
		id = regexp.MustCompile(`^(?:` + filter.String() + `)$`)
	}
	var out []Def
	for _, d := range Defs() {
		if filter == nil || id.MatchString(d.ID) || filter.MatchString(d.Name) {
			out = append(out, d)
		}
	}
	return out
}

// runPass runs a pass in a process of its own (Options.Exec) and reports
// whether it did; when the process fails, the error goes into the report
// and the budget is as it was, for the pass to run here.
func runPass(r *Report, opt Options, b *budget, pass int, defs []Def, cases [][]*caseRun) bool {
	if opt.Progress != nil {
		opt.Progress(defs[0], pass*len(defs), opt.Rounds*len(defs), time.Since(b.start))
	}
	n := 0
	for _, cs := range cases {
		for _, c := range cs {
			n += len(c.ms)
		}
	}
	round := b.round(n)
	if err := spawnPass(opt.Exec, opt, pass, round, cases); err != nil {
		if r.ProcessError == "" {
			r.ProcessError = err.Error()
		}
		b.left += n
		return false
	}
	r.Processes++
	return true
}

// budget spreads Options.Budget over the rounds left to measure.
type budget struct {
	opt   Options
	start time.Time
	left  int // rounds of variants not yet measured
}

// roundCost is what one round of a variant costs, in rounds: the round,
// the quarter of a round that warms a fresh instance up and calibrates it,
// and building the instance.
const roundCost = 1.5

// round returns the round time for the next pass over a case's n
// variants, shrunk if the time left would not cover the rounds left.
func (b *budget) round(n int) time.Duration {
	r := b.opt.Round
	if b.opt.Budget > 0 && b.left > 0 {
		per := (b.opt.Budget - time.Since(b.start)) / time.Duration(b.left)
		if fit := time.Duration(float64(per) / roundCost); fit < r {
			r = max(fit, 2*time.Millisecond)
		}
	}
	b.left -= n
	return r
}

// caseRun is one case being measured, pass by pass.
type caseRun struct {
	def CaseDef
	ms  []*measurement // one per variant, nil until its first pass
}

// pass measures one round of every variant of the case, each on a fresh
// instance, starting with variant pass (mod their number): the order
// turns, so that no variant always follows the same one.
func (c *caseRun) pass(pass int, round time.Duration) {
	k := len(c.def.Variants)
	for j := range k {
		i := (pass + j) % k
		m := c.ms[i]
		if m == nil {
			m = start(c.def.Variants[i])
			c.ms[i] = m
		} else {
			m.renew()
		}
		m.calibrate(round)
		m.round()
	}
}

// finish turns a workload's measured cases into its figures, and runs its
// detectors.
func finish(d Def, cases []*caseRun) Workload {
	w := Workload{ID: d.ID, Name: d.Name, Op: d.Op, Claim: d.Claim, Source: d.Published,
		Pitfalls: append([]string{}, d.Pitfalls...), Curve: d.Curve, Findings: []Finding{}}
	for _, cr := range cases {
		c := cr.result()
		if d.Retained > 0 {
			for i, vd := range cr.def.Variants {
				c.Variants[i].Retained = retained(vd, d.Retained)
			}
		}
		w.Cases = append(w.Cases, c)
	}
	w.Notes = workloadNotes(w)
	if d.Detect != nil {
		w.Findings = append(w.Findings, d.Detect()...)
	}
	return w
}

// result is the case's figures and verdict: each variant's output checked
// against the baseline's, and the speedups round by round.
func (cr *caseRun) result() Case {
	cd, ms := cr.def, cr.ms
	c := Case{Name: cd.Name, Size: cd.Size}
	want := ms[0].output
	for i, m := range ms {
		switch {
		case m.check != "":
		case m.outErr != nil:
			m.check = "error: " + m.outErr.Error()
		case i > 0 && m.output != want:
			m.check = fmt.Sprintf("output differs from the baseline's: got %s, want %s", short(m.output), short(want))
		}
	}
	base := ms[0].times()
	for i, vd := range cd.Variants {
		v := ms[i].variant()
		v.Published = vd.Published
		if v.Valid && c.Variants == nil || v.Valid && c.Variants[0].Valid {
			v.SpeedupCI = medianInterval(ratios(base, ms[i].times()))
			v.Speedup = v.SpeedupCI.Median
		}
		c.Variants = append(c.Variants, v)
	}
	c.Verdict = verdict(c.Variants, func(i, j int) Interval { return medianInterval(ratios(ms[i].times(), ms[j].times())) })
	return c
}

func short(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
