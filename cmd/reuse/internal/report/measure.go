package report

import (
	"fmt"
	"hash/fnv"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/reuse-go/reuse/internal/cputime"
)

// measurement accumulates one variant's figures over the rounds. Each
// round is measured on a fresh instance of the variant (renew), made in
// its own pass over the selected workloads.
type measurement struct {
	vd         VariantDef
	op         Op           // the instance being measured
	pool       poolCounters // what the report can see of its pool
	first      uint64
	firstBytes uint64
	output     string
	outErr     error
	check      string
	n          int       // ops per round, of the instance being measured
	slices     int       // slices of a round (see sliceTime)
	ns         []float64 // ns/op of each round, wall clock
	cpu        []float64 // ns/op of each round, process CPU time
	ops        uint64
	allocs     uint64
	bytes      uint64
	gcs        uint64
	errors     uint64
	misses     uint64
	drops      uint64
	instances  int  // fresh instances made: their first ops count in errors
	seen       bool // the report sees the pool: misses are counted
	firstErr   error
}

// start builds the variant's first instance, measures its very first call
// alone, then takes its output for the check.
func start(vd VariantDef) *measurement {
	m := &measurement{vd: vd, instances: 1}
	m.op, m.pool = build(vd)
	m.seen = m.pool.news != nil
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	err := m.op(nil)
	runtime.ReadMemStats(&b)
	m.first, m.firstBytes = b.Mallocs-a.Mallocs, b.TotalAlloc-a.TotalAlloc
	if err != nil {
		m.errors++
		m.firstErr = err
	}
	m.output = "(no output)"
	m.outErr = m.op(func(v any) { m.output = render(v) })
	return m
}

// renew replaces the instance with a fresh one, with an empty pool, for
// the next round: its first op counts only in the errors, and its output
// must be the first instance's.
func (m *measurement) renew() {
	m.op, m.pool = build(m.vd)
	m.instances++
	if err := m.op(nil); err != nil {
		m.errors++
		m.note(0, err, nil)
	}
	out := "(no output)"
	err := m.op(func(v any) { out = render(v) })
	switch {
	case m.outErr != nil:
	case err != nil:
		m.outErr = err
	case out != m.output && m.check == "":
		m.check = fmt.Sprintf("output differs between fresh instances: %s, then %s", short(m.output), short(out))
	}
}

// warmShare is the share of a round that calibrate spends warming a fresh
// instance up.
const warmShare = 4

// calibrate warms the instance up and finds how many ops take about one
// round. It runs growing batches for about a quarter of a round in all.
// The first op of an instance is cold (it fills the pool, and may start a
// collection that empties it), so the round size comes from the ops of
// the later batches only: the time they took over their number, so that a
// batch slowed by other processes shortens the rounds rather than a fast
// one lengthening them past the budget.
func (m *measurement) calibrate(round time.Duration) {
	m.timed(1, nil) // cold: never sizes the round
	warm := round / warmShare
	var spent time.Duration
	ops, n := 0, 1
	for batch := 0; batch < 2 || spent < warm; batch++ {
		spent += m.timed(n, nil)
		ops += n
		per := float64(max(spent, 1)) / float64(ops)
		n = min(10*ops, max(1, int(float64(warm-spent)/per)))
		if ops >= 1e9 {
			break
		}
	}
	per := float64(max(spent, 1)) / float64(ops)
	m.n = max(1, int(float64(round)/per))
	m.slices = int((round + sliceTime - 1) / sliceTime)
}

// cpuNow reads the process CPU clock; tests replace it.
var cpuNow = cputime.Now

// stalledRounds is how many times in a row a round is run again when the
// process CPU clock did not advance across it.
const stalledRounds = 4

// sliceTime is the longest a round runs without a break. The scheduler
// preempts a goroutine that has run for 10 ms, and a goroutine locked to
// its thread may then go on on another P, whose share of a pool is empty:
// measured whole, a round of 30 ms missed about once, and at W1's 8 MB a
// miss costs as much as 50 000 hits. So a round runs in slices of at most
// sliceTime, each after a yield and one untimed op (one per goroutine)
// that gives the pool of the P it runs on what it would hold in a steady
// state; misses within the timed ops still count, and the untimed ops
// count in the allocation figures.
const sliceTime = 4 * time.Millisecond

// round measures m.n ops and records their figures.
//
// A serial variant runs on one locked OS thread, so that the process CPU
// clock, read on that thread, includes all of the round's work: the kernel
// brings other threads' run time up to date only at its clock tick. A
// round across which the CPU clock still did not advance (a coarse clock, as
// on some virtual machines) measured nothing; its time is dropped and it runs
// again, up to stalledRounds times, so that no variant's fastest CPU time is
// zero. Its ops still count in the allocation figures.
func (m *measurement) round() {
	if !m.vd.Parallel {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	for try := 0; ; try++ {
		cpu := m.counted()
		if cpu > 0 || !cputime.Supported || try == stalledRounds {
			return
		}
		m.ns, m.cpu = m.ns[:len(m.ns)-1], m.cpu[:len(m.cpu)-1]
	}
}

// counted measures m.n ops in m.slices slices, records their figures and
// returns the CPU time they took.
func (m *measurement) counted() time.Duration {
	slices := max(1, min(m.slices, m.n))
	warm := 1 // one op per goroutine
	if m.vd.Parallel {
		warm = runtime.GOMAXPROCS(0)
	}
	var wall, cpu time.Duration
	for s := range slices {
		k := m.n / slices
		if s < m.n%slices {
			k++
		}
		runtime.Gosched()
		w, c := m.slice(k, warm)
		wall += w
		cpu += c
	}
	m.ns = append(m.ns, float64(wall.Nanoseconds())/float64(m.n))
	m.cpu = append(m.cpu, float64(cpu.Nanoseconds())/float64(m.n))
	return cpu
}

// slice runs warm untimed ops, then measures k ops, adds the counts of
// all of them to the figures and returns the wall-clock and CPU time the
// k took. The untimed ops come after ReadMemStats, which stops the world:
// after it, the first Get often missed (53 misses in the timed ops of W1
// and B1 in one run; 2 with the untimed ops after it).
func (m *measurement) slice(k, warm int) (wall, cpu time.Duration) {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	var errs uint64
	m.timed(warm, &errs)
	news, drops := m.pool.read()
	c0 := cpuNow()
	d := m.timed(k, &errs)
	c1 := cpuNow()
	news1, drops1 := m.pool.read()
	m.misses += news1 - news
	m.drops += drops1 - drops
	runtime.ReadMemStats(&b)
	m.ops += uint64(k + warm)
	m.allocs += b.Mallocs - a.Mallocs
	m.bytes += b.TotalAlloc - a.TotalAlloc
	m.gcs += uint64(b.NumGC - a.NumGC)
	m.errors += errs
	return d, c1 - c0
}

// timed runs n ops and returns the time they took; errors, if non-nil,
// receives the number of ops that failed.
func (m *measurement) timed(n int, errors *uint64) time.Duration {
	if !m.vd.Parallel {
		var errs uint64
		var firstErr error
		t0 := time.Now()
		for i := 0; i < n; i++ {
			if err := m.op(nil); err != nil {
				errs++
				if firstErr == nil {
					firstErr = err
				}
			}
		}
		d := time.Since(t0)
		m.note(errs, firstErr, errors)
		return d
	}
	g := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs uint64
	var firstErr error
	t0 := time.Now()
	for k := 0; k < g; k++ {
		share := n / g
		if k < n%g {
			share++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var e uint64
			var fe error
			for i := 0; i < share; i++ {
				if err := m.op(nil); err != nil {
					e++
					if fe == nil {
						fe = err
					}
				}
			}
			mu.Lock()
			errs += e
			if firstErr == nil {
				firstErr = fe
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	d := time.Since(t0)
	m.note(errs, firstErr, errors)
	return d
}

func (m *measurement) note(errs uint64, firstErr error, errors *uint64) {
	if errors != nil {
		*errors += errs
	}
	if m.firstErr == nil && firstErr != nil {
		m.firstErr = firstErr
	}
}

// fastest is the fastest round's time per op: load from other processes
// only ever adds time, so the minimum is the steadiest estimate of the
// variant's own cost on a shared machine.
func fastest(per []float64) float64 {
	if len(per) == 0 {
		return 0
	}
	return slices.Min(per)
}

// median is the median round's time per op.
func median(per []float64) float64 {
	if len(per) == 0 {
		return 0
	}
	s := append([]float64(nil), per...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// times returns the time per op of each round, in the time speedups use:
// CPU time where the platform reads it, wall-clock time elsewhere.
func (m *measurement) times() []float64 {
	if cputime.Supported {
		return m.cpu
	}
	return m.ns
}

// retained runs ops ops of a fresh instance of vd, collects garbage once,
// and returns how much more heap is in use than before the instance was
// made: what its pool keeps across a collection (sync.Pool keeps its
// contents one collection in a victim cache).
func retained(vd VariantDef, ops int) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&a)
	op := vd.New()
	for range ops {
		_ = op(nil)
	}
	runtime.GC()
	runtime.ReadMemStats(&b)
	runtime.KeepAlive(op)
	if b.HeapAlloc <= a.HeapAlloc {
		return 0
	}
	return b.HeapAlloc - a.HeapAlloc
}

// variant returns the figures gathered.
func (m *measurement) variant() Variant {
	v := Variant{
		Name:          m.vd.Name,
		Role:          m.vd.Role,
		NsPerOp:       fastest(m.ns),
		NsMedian:      median(m.ns),
		Rounds:        len(m.ns),
		Ops:           m.ops,
		Allocs:        m.allocs,
		FirstAllocs:   m.first,
		FirstBytes:    m.firstBytes,
		GCs:           m.gcs,
		Errors:        m.errors,
		Check:         m.check,
		Misses:        m.misses,
		Drops:         m.drops,
		MissesCounted: m.seen,
	}
	if cputime.Supported {
		v.CPUNsPerOp, v.CPUNsMedian = fastest(m.cpu), median(m.cpu)
	}
	if t := v.fastest(); t > 0 {
		v.Noise = v.Time()/t - 1
	}
	v.TimeQ1, v.TimeQ3 = quartiles(m.times())
	v.RoundTimes = append([]float64{}, m.times()...)
	if m.ops > 0 {
		v.AllocsPerOp = float64(m.allocs) / float64(m.ops)
		v.BytesPerOp = float64(m.bytes) / float64(m.ops)
		v.GCsPerOp = float64(m.gcs) / float64(m.ops)
		v.MissRate = missRate(m.misses, m.drops, m.ops)
	}
	v.Unsteady = steadiness(v)
	if v.Check == "" && m.errors > 0 {
		v.Check = fmt.Sprintf("%d of %d ops returned an error (%v)", m.errors, m.ops+uint64(m.instances), m.firstErr)
	}
	if v.Check == "" {
		v.Check = "ok"
	}
	v.Valid = v.Check == "ok"
	return v
}

// render turns an op's output into a string to compare: short byte slices
// and strings quoted, long ones as their length and FNV-1a hash.
func render(v any) string {
	var s string
	switch v := v.(type) {
	case []byte:
		s = string(v)
	case string:
		s = v
	default:
		s = fmt.Sprintf("%+v", v)
	}
	if len(s) <= 120 {
		return strconv.Quote(s)
	}
	h := fnv.New64a()
	h.Write([]byte(s))
	return fmt.Sprintf("%d bytes, fnv-1a %016x", len(s), h.Sum64())
}
