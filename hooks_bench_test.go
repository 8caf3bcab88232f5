package reuse_test

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// event is a small pooled struct with one field that a Reset clears and an
// Accept looks at, the shape of a logger's event.
type event struct {
	n int64
	_ [3]int64
}

// eventLimit is what Accept keeps: every event of these benchmarks.
const eventLimit = 1 << 20

func newEvent() *event          { return new(event) }
func resetEvent(e *event)       { e.n = 0 }
func acceptEvent(e *event) bool { return e.n < eventLimit }

// acceptResetEvent is Accept and Reset in one hook.
func acceptResetEvent(e *event) bool {
	if e.n >= eventLimit {
		return false
	}
	e.n = 0
	return true
}

// hookImpls are the cases of BenchmarkHooks: each returns one Get, use and
// Put of an event. The first is the baseline.
var hookImpls = []struct {
	name string
	op   func() func()
}{
	// The same work as pool-hooks, written inline around a sync.Pool.
	{"inline-syncpool", func() func() {
		sp := &sync.Pool{New: func() any { return new(event) }}
		return func() {
			e := sp.Get().(*event)
			e.n++
			if e.n < eventLimit {
				e.n = 0
				sp.Put(e)
			}
		}
	}},
	// The same inline code around a Pool without hooks: the pool's own
	// path, without the hooks' calls.
	{"pool", func() func() {
		p := &reuse.Pool[*event]{New: newEvent}
		return func() {
			e := p.Get()
			e.n++
			if e.n < eventLimit {
				e.n = 0
				p.Put(e)
			}
		}
	}},
	// Reset and Accept set: the case the target is set on.
	{"pool-hooks", func() func() {
		p := &reuse.Pool[*event]{New: newEvent, Reset: resetEvent, Accept: acceptEvent}
		return func() {
			e := p.Get()
			e.n++
			p.Put(e)
		}
	}},
	// An Accept that also resets what it keeps: one call instead of two.
	{"pool-accept-resets", func() func() {
		p := &reuse.Pool[*event]{New: newEvent, Accept: acceptResetEvent}
		return func() {
			e := p.Get()
			e.n++
			p.Put(e)
		}
	}},
}

// BenchmarkHooks measures what Reset and Accept cost: impl=pool-hooks is
// Pool[*T] with both set, and impl=inline-syncpool the same code written
// inline around a sync.Pool, the baseline (see hookImpls for the others).
// Each iteration is one Get and one Put, on one goroutine (mode=serial) or
// in b.RunParallel (mode=parallel). The op is a closure in every case, as in
// BenchmarkGetPut, so its call is in every figure.
//
//	go test -run '^$' -bench 'Hooks$' -count 6 | benchstat -col /impl -
//
// On a shared machine these figures move by more than the ratio they are
// for; BenchmarkHooksPaired gives the same ratios in pairs.
func BenchmarkHooks(b *testing.B) {
	for _, mode := range []string{"serial", "parallel"} {
		for _, impl := range hookImpls {
			b.Run("impl="+impl.name+"/mode="+mode, func(b *testing.B) {
				getPut(b, mode == "parallel", impl.op())
			})
		}
	}
}

// BenchmarkHooksPaired gives BenchmarkHooks' ratios in a way that survives
// a loaded machine: x-base is the time of each impl over
// impl=inline-syncpool's, measured in pairs of batches back to back
// (reusetest.Paired). With mode=parallel each batch runs on GOMAXPROCS
// goroutines at once and is timed as a whole (pairedParallel).
//
//	go test -run '^$' -bench HooksPaired -benchtime 300x -count 6
func BenchmarkHooksPaired(b *testing.B) {
	base := hookImpls[0]
	for _, mode := range []string{"serial", "parallel"} {
		for _, impl := range hookImpls[1:] {
			b.Run("impl="+impl.name+"/mode="+mode, func(b *testing.B) {
				if mode == "parallel" {
					pairedParallel(b, 20000, base.op(), impl.op())
					return
				}
				reusetest.Paired(b, 2000, base.op(), impl.op())
			})
		}
	}
}

// pairedParallel is reusetest.Paired for code run on every P at once: each
// iteration times batch calls of base on each of GOMAXPROCS goroutines,
// started together, then the same of ours (in alternating order), and takes
// the ratio of the two wall times. It reports x-base, its quartiles
// x-base-p25 and x-base-p75, and ns/op as 0.
func pairedParallel(b *testing.B, batch int, base, ours func()) {
	procs := runtime.GOMAXPROCS(0)
	run := func(f func()) time.Duration {
		var wg sync.WaitGroup
		t := time.Now()
		for range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range batch {
					f()
				}
			}()
		}
		wg.Wait()
		return time.Since(t)
	}
	for range 20 { // warm-up, as Paired's
		run(base)
		run(ours)
	}
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var db, do time.Duration
		if i%2 == 1 {
			do, db = run(ours), run(base)
		} else {
			db, do = run(base), run(ours)
		}
		ratios = append(ratios, float64(do)/float64(db))
	}
	if len(ratios) == 0 {
		return
	}
	slices.Sort(ratios)
	k := len(ratios)
	b.ReportMetric(ratios[k/2], "x-base")
	b.ReportMetric(ratios[k/4], "x-base-p25")
	b.ReportMetric(ratios[3*k/4], "x-base-p75")
	b.ReportMetric(0, "ns/op")
}
