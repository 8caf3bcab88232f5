package benchmarks

import (
	"bytes"
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reusetest"
)

// BenchmarkPaired measures the two ratios issue targets are set on, in a way
// that survives a loaded machine: bytebuf.Pool against a sync.Pool of
// *bytes.Buffer, and Slices[byte] against a sync.Pool of *[]byte, one
// goroutine, the same ops as BenchmarkBuffer and BenchmarkSlices. Each
// iteration times a batch of the baseline and a batch of ours back to back,
// in alternating order, and takes the ratio of the two; load that comes and
// goes over milliseconds hits both sides of a pair alike. The figures are
// medians over the pairs: x-base is our time over the baseline's (below 1:
// ours is faster), with x-base-p25 and x-base-p75 its quartiles, and
// base-ns/op and ours-ns/op the median batch times per op.
//
//	go test -run '^$' -bench Paired -benchtime 300x
func BenchmarkPaired(b *testing.B) {
	for _, sz := range bufferSizes {
		n := sz.n
		payload := bufferPayload[:n]
		b.Run("op=buffer/size="+sz.name, func(b *testing.B) {
			sp := sync.Pool{New: func() any { return new(bytes.Buffer) }}
			var bp bytebuf.Pool
			sum := 0
			paired(b,
				func() {
					buf := sp.Get().(*bytes.Buffer)
					buf.Write(payload)
					sum += buf.Len()
					buf.Reset()
					sp.Put(buf)
				},
				func() {
					buf := bp.Get()
					buf.Write(payload)
					sum += buf.Len()
					bp.Put(buf)
				})
			bufferSink.Add(int64(sum))
		})
	}
	// Pool[*T] against the same code written inline around a sync.Pool,
	// without hooks and with Reset and Accept (the hooks' cost).
	type event struct {
		n int64
		_ [48]byte
	}
	b.Run("op=pool/hooks=none", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return new(event) }}
		rp := reuse.Pool[*event]{New: func() *event { return new(event) }}
		paired(b,
			func() {
				e := sp.Get().(*event)
				e.n++
				sp.Put(e)
			},
			func() {
				e := rp.Get()
				e.n++
				rp.Put(e)
			})
	})
	b.Run("op=pool/hooks=reset+accept", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return new(event) }}
		rp := reuse.Pool[*event]{
			New:    func() *event { return new(event) },
			Reset:  func(e *event) { e.n = 0 },
			Accept: func(e *event) bool { return e.n < 1<<20 },
		}
		paired(b,
			func() {
				e := sp.Get().(*event)
				e.n++
				if e.n < 1<<20 {
					e.n = 0
					sp.Put(e)
				}
			},
			func() {
				e := rp.Get()
				e.n++
				rp.Put(e)
			})
	})
	b.Run("op=pool/hooks=reset", func(b *testing.B) {
		sp := sync.Pool{New: func() any { return new(event) }}
		rp := reuse.Pool[*event]{
			New:   func() *event { return new(event) },
			Reset: func(e *event) { e.n = 0 },
		}
		paired(b,
			func() {
				e := sp.Get().(*event)
				e.n++
				e.n = 0
				sp.Put(e)
			},
			func() {
				e := rp.Get()
				e.n++
				rp.Put(e)
			})
	})
	for _, sz := range slicesSizes {
		n := sz.n
		b.Run("op=slices/size="+sz.name, func(b *testing.B) {
			sp := sync.Pool{New: func() any { s := make([]byte, n); return &s }}
			var sl reuse.Slices[byte]
			paired(b,
				func() {
					ps := sp.Get().(*[]byte)
					s := *ps
					s[0], s[n-1] = 1, 2
					sp.Put(ps)
				},
				func() {
					s := sl.Get(n)
					s[0], s[n-1] = 1, 2
					sl.Put(s)
				})
		})
	}
}

// paired runs one pair of batches per iteration (see BenchmarkPaired), after
// a warm-up that also lets bytebuf.Pool calibrate.
func paired(b *testing.B, base, ours func()) { reusetest.Paired(b, 2000, base, ours) }
