package benchmarks

import (
	"bytes"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"

	pool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"
	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

// The mixed workload W11 of docs/WORKLOADS.md: 95% of requests write about
// 1 KiB, 5% about 1 MiB, with 32 requests in flight. A request writes its
// bytes in chunks of at most 4 KiB, as a handler building output does, so
// every pool has to grow its buffers.
const (
	mixedInFlight = 32
	mixedChunk    = 4 << 10
)

// mixedLengths is a fixed pseudo-random sequence of request lengths: small
// ones uniform in [896, 1152), large ones uniform in [960 KiB, 1088 KiB).
var mixedLengths = func() []int {
	r := rand.New(rand.NewPCG(11, 11))
	l := make([]int, 1<<14)
	for i := range l {
		if r.IntN(100) < 5 {
			l[i] = 960<<10 + r.IntN(128<<10)
		} else {
			l[i] = 896 + r.IntN(256)
		}
	}
	return l
}()

// mixedImpl is one pool under the mixed workload. get(k) takes a buffer for
// in-flight slot k; write appends to it; capOf reads its capacity; put gives
// it back. newImpl makes a fresh pool for each run.
type mixedImpl[B any] struct {
	get   func(k int) B
	write func(B, []byte)
	capOf func(B) int
	put   func(B)
}

// mixedStats is what a run of the mixed workload measured.
type mixedStats struct {
	ops             int
	capSum, written int64
	retained        int64 // heap after every buffer is back and one GC, above the heap before the pool
}

func (s mixedStats) meanCap() float64     { return float64(s.capSum) / float64(s.ops) }
func (s mixedStats) meanWritten() float64 { return float64(s.written) / float64(s.ops) }
func (s mixedStats) ratio() float64       { return float64(s.capSum) / float64(s.written) }

// heapAfterGC runs one collection and returns the bytes of live heap
// objects.
func heapAfterGC() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// runMixed makes a pool with newImpl and runs the mixed workload on it,
// loop() times one request: finish the request in a slot, put its buffer
// back, get a buffer for the next request. measureFrom requests are run
// first unmeasured (warm-up; 0 in benchmarks, where b.N dwarfs it). After
// the loop every buffer goes back, one GC runs and the heap still held is
// measured.
func runMixed[B any](newImpl func() mixedImpl[B], warm int, loop func(step func()), measured func()) mixedStats {
	runtime.GC()
	base := heapAfterGC()
	im := newImpl()
	var inFlight [mixedInFlight]B
	for k := range inFlight {
		inFlight[k] = im.get(k)
	}
	var s mixedStats
	i := 0
	step := func() {
		k := i % mixedInFlight
		n := mixedLengths[i%len(mixedLengths)]
		i++
		buf := inFlight[k]
		for m := n; m > 0; m -= mixedChunk {
			im.write(buf, bufferPayload[:min(m, mixedChunk)])
		}
		s.ops++
		s.written += int64(n)
		s.capSum += int64(im.capOf(buf))
		im.put(buf)
		inFlight[k] = im.get(k)
	}
	for range warm {
		step()
	}
	s = mixedStats{}
	if measured != nil {
		measured()
	}
	loop(step)
	for k := range inFlight {
		im.put(inFlight[k])
	}
	s.retained = heapAfterGC() - base
	runtime.KeepAlive(im)
	return s
}

// The pools under the mixed workload.
func mixedSyncPool() mixedImpl[*bytes.Buffer] {
	p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
	return mixedImpl[*bytes.Buffer]{
		get:   func(int) *bytes.Buffer { b := p.Get().(*bytes.Buffer); b.Reset(); return b },
		write: func(b *bytes.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *bytes.Buffer) int { return b.Cap() },
		put:   func(b *bytes.Buffer) { p.Put(b) },
	}
}

func mixedBytebufferpool() mixedImpl[*bytebufferpool.ByteBuffer] {
	p := new(bytebufferpool.Pool)
	return mixedImpl[*bytebufferpool.ByteBuffer]{
		get:   func(int) *bytebufferpool.ByteBuffer { return p.Get() },
		write: func(b *bytebufferpool.ByteBuffer, d []byte) { b.Write(d) },
		capOf: func(b *bytebufferpool.ByteBuffer) int { return cap(b.B) },
		put:   func(b *bytebufferpool.ByteBuffer) { p.Put(b) },
	}
}

// mixedLibp2p uses libp2p's Buffer, one per in-flight slot (it is a value
// that borrows arrays from the pool as it grows and returns them on Reset).
func mixedLibp2p() mixedImpl[*pool.Buffer] {
	p := new(pool.BufferPool)
	slots := make([]pool.Buffer, mixedInFlight)
	for k := range slots {
		slots[k].Pool = p
	}
	return mixedImpl[*pool.Buffer]{
		get:   func(k int) *pool.Buffer { return &slots[k] },
		write: func(b *pool.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *pool.Buffer) int { return b.Cap() },
		put:   func(b *pool.Buffer) { b.Reset() },
	}
}

func mixedZap() mixedImpl[*buffer.Buffer] {
	p := buffer.NewPool()
	return mixedImpl[*buffer.Buffer]{
		get:   func(int) *buffer.Buffer { return p.Get() },
		write: func(b *buffer.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *buffer.Buffer) int { return b.Cap() },
		put:   func(b *buffer.Buffer) { b.Free() },
	}
}

func mixedBytebuf() mixedImpl[*bytebuf.Buffer] {
	p := new(bytebuf.Pool)
	return mixedImpl[*bytebuf.Buffer]{
		get:   func(int) *bytebuf.Buffer { return p.Get() },
		write: func(b *bytebuf.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *bytebuf.Buffer) int { return b.Cap() },
		put:   func(b *bytebuf.Buffer) { p.Put(b) },
	}
}

// benchMixed runs the mixed workload as a benchmark and reports, beside
// time/op and exact allocs/op: the mean capacity of the buffers at Put
// (cap-B/op), the mean bytes written (written-B/op), their ratio (cap/written)
// and the heap retained after every buffer is back and one GC (retained-B).
func benchMixed[B any](b *testing.B, newImpl func() mixedImpl[B]) {
	var report func()
	s := runMixed(newImpl, 0, func(step func()) {
		for b.Loop() {
			step()
		}
		report()
	}, func() { report = reusetest.ReportAllocs(b) })
	b.ReportMetric(s.meanCap(), "cap-B/op")
	b.ReportMetric(s.meanWritten(), "written-B/op")
	b.ReportMetric(s.ratio(), "cap/written")
	b.ReportMetric(float64(s.retained), "retained-B")
}

// BenchmarkMixed compares the pools under W11.
//
//	go test -run '^$' -bench Mixed -count 6 > mixed.txt
//	benchstat -col /impl mixed.txt
func BenchmarkMixed(b *testing.B) {
	b.Run("workload=W11/impl=syncpool", func(b *testing.B) { benchMixed(b, mixedSyncPool) })
	b.Run("workload=W11/impl=bytebufferpool", func(b *testing.B) { benchMixed(b, mixedBytebufferpool) })
	b.Run("workload=W11/impl=libp2p", func(b *testing.B) { benchMixed(b, mixedLibp2p) })
	b.Run("workload=W11/impl=zap", func(b *testing.B) { benchMixed(b, mixedZap) })
	b.Run("workload=W11/impl=bytebuf", func(b *testing.B) { benchMixed(b, mixedBytebuf) })
}

// TestMixedClaims holds bytebuf.Pool to the W11 claims of the README, so that
// they cannot regress silently: mean capacity over mean bytes written no
// more than 2% above libp2p/go-buffer-pool's (bytebuf grows as libp2p does
// since #32: to the power of two of what it holds plus what it needs, 2.40
// against 2.39; the growth plan before held 1.13 at 1.8 times the bytes
// copied), and retained heap within the default budget. (Retained after
// one GC is no longer compared with libp2p's: both keep their arrays in
// sync.Pools, whose victim cache holds what was put back before the last
// collection, so each retains 5.6 MB or 10-11 MB by whether a collection
// ran during the run: a coin flip, not a measurement.)
func TestMixedClaims(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	const warm, ops = 5000, 10000
	loop := func(step func()) {
		for range ops {
			step()
		}
	}
	ours := runMixed(mixedBytebuf, warm, loop, nil)
	theirs := runMixed(mixedLibp2p, warm, loop, nil)
	t.Logf("bytebuf: mean cap %.0f B, mean written %.0f B, ratio %.3f, retained %d B", ours.meanCap(), ours.meanWritten(), ours.ratio(), ours.retained)
	t.Logf("libp2p:  mean cap %.0f B, mean written %.0f B, ratio %.3f, retained %d B", theirs.meanCap(), theirs.meanWritten(), theirs.ratio(), theirs.retained)
	if r, l := ours.ratio(), theirs.ratio(); r > 1.02*l {
		t.Errorf("mean capacity / mean written = %.3f, want at most 1.02 times libp2p's %.3f", r, l)
	}
	if ours.retained > bytebuf.DefaultBudget {
		t.Errorf("retained %d B after one GC, above the default budget %d", ours.retained, bytebuf.DefaultBudget)
	}
}
