package reuse_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// Benchmark names have key=value parts for benchstat, e.g.
//
//	benchstat -col /impl bench.txt
//
// compares each implementation with the sync.Pool baseline in the same run.

// obj is a 32-byte object, a typical small pooled struct.
type obj struct {
	a int64
	_ [3]int64
}

var bytesSink []byte

// getPut runs one Get/Put pair per iteration, on one goroutine or in
// parallel.
func getPut(b *testing.B, parallel bool, op func()) {
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

func BenchmarkGetPut(b *testing.B) {
	for _, mode := range []string{"serial", "parallel"} {
		par := mode == "parallel"

		b.Run("T=ptr/impl=syncpool/mode="+mode, func(b *testing.B) {
			p := sync.Pool{New: func() any { return new(obj) }}
			getPut(b, par, func() {
				o := p.Get().(*obj)
				o.a++
				p.Put(o)
			})
		})
		for _, count := range []bool{false, true} {
			b.Run(fmt.Sprintf("T=ptr/impl=%s/mode=%s", implName(count), mode), func(b *testing.B) {
				p := reuse.Pool[*obj]{New: func() *obj { return new(obj) }, CountAll: count}
				getPut(b, par, func() {
					o := p.Get()
					o.a++
					p.Put(o)
				})
			})
		}

		b.Run("T=bytes/impl=syncpool-ptr/mode="+mode, func(b *testing.B) {
			p := sync.Pool{New: func() any { s := make([]byte, 1024); return &s }}
			getPut(b, par, func() {
				s := p.Get().(*[]byte)
				(*s)[0]++
				p.Put(s)
			})
		})
		b.Run("T=bytes/impl=syncpool-value/mode="+mode, func(b *testing.B) {
			p := sync.Pool{New: func() any { return make([]byte, 1024) }}
			getPut(b, par, func() {
				s := p.Get().([]byte)
				s[0]++
				//lint:ignore SA6002 boxing on Put is what this baseline measures
				p.Put(s)
			})
		})
		for _, count := range []bool{false, true} {
			b.Run(fmt.Sprintf("T=bytes/impl=%s/mode=%s", implName(count), mode), func(b *testing.B) {
				p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 1024) }, CountAll: count}
				getPut(b, par, func() {
					s := p.Get()
					s[0]++
					p.Put(s)
				})
			})
		}
	}
}

func implName(countAll bool) string {
	if countAll {
		return "reuse-countall"
	}
	return "reuse"
}

// BenchmarkCrossover compares allocating a fresh []byte of each size with
// taking one from a pool, storing a pointer (as reuse.Pool does for pointer
// types) and storing the slice value (boxed on every Put). It is where the
// "When not to pool" figures in doc.go come from.
func BenchmarkCrossover(b *testing.B) {
	for _, size := range []int{8, 16, 64, 256, 1024, 4096} {
		b.Run(fmt.Sprintf("size=%d/impl=make", size), func(b *testing.B) {
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				s := make([]byte, size)
				s[0] = 1
				bytesSink = s
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=pool-ptr", size), func(b *testing.B) {
			p := reuse.Pool[*[]byte]{New: func() *[]byte { s := make([]byte, size); return &s }}
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				s := p.Get()
				clear(*s) // a pooled buffer must be cleared to match make
				(*s)[0] = 1
				bytesSink = *s
				p.Put(s)
			}
		})
		b.Run(fmt.Sprintf("size=%d/impl=syncpool-value", size), func(b *testing.B) {
			p := sync.Pool{New: func() any { return make([]byte, size) }}
			defer reusetest.ReportAllocs(b)()
			for b.Loop() {
				s := p.Get().([]byte)
				clear(s)
				s[0] = 1
				bytesSink = s
				//lint:ignore SA6002 the boxing is what is measured
				p.Put(s)
			}
		})
	}
}
