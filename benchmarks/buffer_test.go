package benchmarks

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"

	pool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"
	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/reusetest"
)

// bufferSizes are the fixed payloads BenchmarkBuffer writes.
var bufferSizes = []struct {
	name string
	n    int
}{{"100B", 100}, {"4KiB", 4 << 10}, {"64KiB", 64 << 10}}

// bufferPayload is what the buffer benchmarks write: 2 MiB of text.
var bufferPayload = bytes.Repeat([]byte("0123456789abcdef"), 1<<17)

// bufferSink keeps results alive, so the writes are not optimised away.
// Each goroutine sums into its own local and adds it here once.
var bufferSink atomic.Int64

// runBuffer runs op once per iteration, on one goroutine or in parallel,
// and reports exact allocations. op gets the goroutine's own state from
// newState, for the pools that need one (libp2p's Buffer is a value).
func runBuffer[S any](b *testing.B, parallel bool, newState func() S, op func(S) int) {
	defer reusetest.ReportAllocs(b)()
	if parallel {
		b.RunParallel(func(pb *testing.PB) {
			s, sum := newState(), 0
			for pb.Next() {
				sum += op(s)
			}
			bufferSink.Add(int64(sum))
		})
		return
	}
	s, sum := newState(), 0
	for b.Loop() {
		sum += op(s)
	}
	bufferSink.Add(int64(sum))
}

func none() struct{} { return struct{}{} }

// BenchmarkBuffer compares bytebuf.Pool with the byte-buffer pools people
// use: a sync.Pool of *bytes.Buffer (the baseline), valyala/bytebufferpool,
// libp2p/go-buffer-pool's Buffer and zap's buffer pool, and with no pool at
// all (impl=fresh, a new bytes.Buffer each time). One op takes a
// buffer, writes a fixed payload into it with one Write, reads its length,
// and gives it back.
//
//	go test -run '^$' -bench 'Buffer$' -count 6 > buffer.txt
//	benchstat -col /impl buffer.txt
func BenchmarkBuffer(b *testing.B) {
	for _, sz := range bufferSizes {
		data := bufferPayload[:sz.n]
		for _, mode := range []string{"serial", "parallel"} {
			par := mode == "parallel"
			name := func(impl string) string { return "size=" + sz.name + "/mode=" + mode + "/impl=" + impl }

			b.Run(name("syncpool"), func(b *testing.B) {
				p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
				runBuffer(b, par, none, func(struct{}) int {
					buf := p.Get().(*bytes.Buffer)
					buf.Reset()
					buf.Write(data)
					n := buf.Len()
					p.Put(buf)
					return n
				})
			})
			b.Run(name("bytebufferpool"), func(b *testing.B) {
				var p bytebufferpool.Pool
				runBuffer(b, par, none, func(struct{}) int {
					buf := p.Get()
					buf.Write(data)
					n := buf.Len()
					p.Put(buf)
					return n
				})
			})
			b.Run(name("libp2p"), func(b *testing.B) {
				p := new(pool.BufferPool)
				runBuffer(b, par, func() *pool.Buffer { return &pool.Buffer{Pool: p} }, func(buf *pool.Buffer) int {
					buf.Write(data)
					n := buf.Len()
					buf.Reset() // gives the array back to the pool
					return n
				})
			})
			b.Run(name("zap"), func(b *testing.B) {
				p := buffer.NewPool()
				runBuffer(b, par, none, func(struct{}) int {
					buf := p.Get()
					buf.Write(data)
					n := buf.Len()
					buf.Free()
					return n
				})
			})
			b.Run(name("bytebuf"), func(b *testing.B) {
				var p bytebuf.Pool
				runBuffer(b, par, none, func(struct{}) int {
					buf := p.Get()
					buf.Write(data)
					n := buf.Len()
					p.Put(buf)
					return n
				})
			})
			b.Run(name("fresh"), func(b *testing.B) {
				// No pool: a new bytes.Buffer each time, for the cost of
				// not pooling at all.
				runBuffer(b, par, none, func(struct{}) int {
					var buf bytes.Buffer
					buf.Write(data)
					return buf.Len()
				})
			})
		}
	}
}
