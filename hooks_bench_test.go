package reuse_test

import (
	"sync"
	"testing"

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

// BenchmarkHooksPaired gives BenchmarkHooks' serial ratios in a way that
// survives a loaded machine (reusetest.Paired): x-base is the time of
// impl=pool-hooks (or impl=pool) over impl=inline-syncpool's, measured in
// pairs of batches back to back.
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
	b.Run("impl=pool", func(b *testing.B) {
		p := reuse.Pool[*event]{New: newEvent}
		reusetest.Paired(b, 2000, inline(), func() {
			e := p.Get()
			e.n++
			if e.n < eventLimit {
				e.n = 0
				p.Put(e)
			}
		})
	})
	b.Run("impl=pool-hooks", func(b *testing.B) {
		p := hooksPool()
		reusetest.Paired(b, 2000, inline(), func() {
			e := p.Get()
			e.n++
			p.Put(e)
		})
	})
}
