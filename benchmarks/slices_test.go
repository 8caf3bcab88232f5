package benchmarks

import (
	"sync"
	"testing"

	pool "github.com/libp2p/go-buffer-pool"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/reusetest"
)

// slicesSizes are the sizes BenchmarkSlices uses, in bytes.
var slicesSizes = []struct {
	name string
	n    int
}{{"64B", 64}, {"1KiB", 1 << 10}, {"64KiB", 64 << 10}}

// runSlices runs op once per iteration, on one goroutine or in parallel, and
// reports exact allocations.
func runSlices(b *testing.B, parallel bool, op func()) {
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

// BenchmarkSlices compares reuse.Slices[byte] with a sync.Pool of *[]byte of
// the one size used (the fastest hand-written pool, which knows its size in
// advance) and with libp2p/go-buffer-pool, the size-classed pool it replaces.
// One op is a Get of n bytes, a write at both ends, and a Put.
//
//	go test -run '^$' -bench Slices -count 6 > slices.txt
//	benchstat -col /impl slices.txt
func BenchmarkSlices(b *testing.B) {
	for _, sz := range slicesSizes {
		n := sz.n
		for _, mode := range []string{"serial", "parallel"} {
			par := mode == "parallel"
			name := func(impl string) string { return "size=" + sz.name + "/mode=" + mode + "/impl=" + impl }

			b.Run(name("syncpool"), func(b *testing.B) {
				p := sync.Pool{New: func() any { s := make([]byte, n); return &s }}
				runSlices(b, par, func() {
					ps := p.Get().(*[]byte)
					s := *ps
					s[0], s[n-1] = 1, 2
					p.Put(ps)
				})
			})
			b.Run(name("libp2p"), func(b *testing.B) {
				var p pool.BufferPool
				runSlices(b, par, func() {
					s := p.Get(n)
					s[0], s[n-1] = 1, 2
					p.Put(s)
				})
			})
			b.Run(name("reuse"), func(b *testing.B) {
				var p reuse.Slices[byte]
				runSlices(b, par, func() {
					s := p.Get(n)
					s[0], s[n-1] = 1, 2
					p.Put(s)
				})
			})
		}
	}
}

// slicesDistWorker is one goroutine of BenchmarkSlicesDist: distInFlight
// slices in flight; each step puts the oldest back and gets one of the next
// length in its place, writing at both ends.
type slicesDistWorker struct {
	lengths []int
	get     func(int) []byte
	put     func([]byte)
	held    [distInFlight][]byte
	i       int
}

func (w *slicesDistWorker) step() {
	k := w.i % distInFlight
	if w.held[k] != nil {
		w.put(w.held[k])
	}
	n := w.lengths[w.i%len(w.lengths)]
	s := w.get(n)
	s[0], s[n-1] = 1, 2
	w.held[k] = s
	w.i++
}

// done puts back the slices still held.
func (w *slicesDistWorker) done() {
	for _, s := range w.held {
		if s != nil {
			w.put(s)
		}
	}
}

// BenchmarkSlicesDist compares reuse.Slices[byte] with libp2p/go-buffer-pool
// on the shapes of the distributions suite (dist_test.go), with
// distInFlight slices in flight per goroutine: one op puts the oldest back
// and gets one of the next length in its place, writing at both ends.
func BenchmarkSlicesDist(b *testing.B) {
	for _, wl := range distWorkloads {
		lengths := wl.lengths
		for _, mode := range []string{"serial", "parallel"} {
			par := mode == "parallel"
			name := func(impl string) string { return "dist=" + wl.name + "/mode=" + mode + "/impl=" + impl }
			run := func(b *testing.B, get func(int) []byte, put func([]byte)) {
				defer reusetest.ReportAllocs(b)()
				body := func(next func() bool) {
					w := slicesDistWorker{lengths: lengths, get: get, put: put}
					for next() {
						w.step()
					}
					w.done()
				}
				if par {
					b.RunParallel(func(pb *testing.PB) { body(pb.Next) })
					return
				}
				body(b.Loop)
			}
			b.Run(name("libp2p"), func(b *testing.B) {
				var p pool.BufferPool
				run(b, p.Get, p.Put)
			})
			b.Run(name("reuse"), func(b *testing.B) {
				var p reuse.Slices[byte]
				run(b, p.Get, p.Put)
			})
		}
	}
}

// BenchmarkSlicesDistPaired is the serial half of BenchmarkSlicesDist
// measured in pairs (reusetest.Paired), which survives a loaded machine:
// x-base is the median ratio of reuse.Slices' time to libp2p's (below 1:
// Slices is faster).
//
//	go test -run '^$' -bench SlicesDistPaired -benchtime 200x
func BenchmarkSlicesDistPaired(b *testing.B) {
	for _, wl := range distWorkloads {
		lengths := wl.lengths
		b.Run("dist="+wl.name, func(b *testing.B) {
			var lp pool.BufferPool
			var rp reuse.Slices[byte]
			base := slicesDistWorker{lengths: lengths, get: lp.Get, put: lp.Put}
			ours := slicesDistWorker{lengths: lengths, get: rp.Get, put: rp.Put}
			reusetest.Paired(b, 1024, base.step, ours.step)
		})
	}
}
