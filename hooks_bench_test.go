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

// hooksPool is the pool of the pool-hooks case: Reset and Accept set.
func hooksPool() *reuse.Pool[*event] {
	return &reuse.Pool[*event]{New: newEvent, Reset: resetEvent, Accept: acceptEvent}
}

// BenchmarkHooks measures what Reset and Accept cost: impl=pool-hooks is
// Pool[*T] with both set, and impl=inline-syncpool the same code written
// inline around a sync.Pool, the baseline; impl=pool is that inline code
// around a Pool without hooks, which separates the cost of the pool's own
// path from the hooks'. Each iteration is one Get and one Put, on one
// goroutine (mode=serial) or in b.RunParallel (mode=parallel).
//
//	go test -run '^$' -bench Hooks -count 6 | benchstat -col /impl -
func BenchmarkHooks(b *testing.B) {
	for _, mode := range []string{"serial", "parallel"} {
		par := mode == "parallel"
		b.Run("impl=inline-syncpool/mode="+mode, func(b *testing.B) {
			sp := sync.Pool{New: func() any { return new(event) }}
			loop(b, par, func() {
				e := sp.Get().(*event)
				e.n++
				if e.n < eventLimit {
					e.n = 0
					sp.Put(e)
				}
			})
		})
		b.Run("impl=pool/mode="+mode, func(b *testing.B) {
			p := reuse.Pool[*event]{New: newEvent}
			loop(b, par, func() {
				e := p.Get()
				e.n++
				if e.n < eventLimit {
					e.n = 0
					p.Put(e)
				}
			})
		})
		b.Run("impl=pool-hooks/mode="+mode, func(b *testing.B) {
			p := hooksPool()
			loop(b, par, func() {
				e := p.Get()
				e.n++
				p.Put(e)
			})
		})
	}
}

// loop runs op once per iteration, on one goroutine or in parallel. op is
// a closure for both sides alike, so its call costs the same in each case.
func loop(b *testing.B, parallel bool, op func()) {
	defer reusetest.ReportAllocs(b)()
	if parallel {
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				op()
			}
		})
		return
	}
	for b.Loop() {
		op()
	}
}

// BenchmarkHooksPaired gives BenchmarkHooks' ratios in a way that survives
// a loaded machine: x-base is the time of impl=pool-hooks (or impl=pool)
// over impl=inline-syncpool's, measured in pairs of batches back to back
// (reusetest.Paired). With mode=parallel each batch runs on GOMAXPROCS
// goroutines at once and is timed as a whole (pairedParallel).
//
//	go test -run '^$' -bench HooksPaired -benchtime 300x -count 6
func BenchmarkHooksPaired(b *testing.B) {
	inline := func() func() {
		sp := sync.Pool{New: func() any { return new(event) }}
		return func() {
			e := sp.Get().(*event)
			e.n++
			if e.n < eventLimit {
				e.n = 0
				sp.Put(e)
			}
		}
	}
	impls := []struct {
		name string
		ours func() func()
	}{
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
		{"pool-hooks", func() func() {
			p := hooksPool()
			return func() {
				e := p.Get()
				e.n++
				p.Put(e)
			}
		}},
	}
	for _, mode := range []string{"serial", "parallel"} {
		for _, impl := range impls {
			b.Run("impl="+impl.name+"/mode="+mode, func(b *testing.B) {
				if mode == "parallel" {
					pairedParallel(b, 20000, inline(), impl.ours())
					return
				}
				reusetest.Paired(b, 2000, inline(), impl.ours())
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
