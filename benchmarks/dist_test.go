package benchmarks

import (
	"bytes"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	pool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"
	"go.uber.org/zap/buffer"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/cputime"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/reusetest"
)

// The distributions suite: the five pools under workloads none of them was
// tuned for. Each goroutine keeps distInFlight buffers in flight; one op
// finishes the oldest (writes its length in chunks of at most distChunk
// bytes, as a handler building output does), puts it back and gets a new
// one in its place. scripts/disttable turns the results into its tables,
// in bench-results.
const (
	distInFlight = 4
	distChunk    = shapes.Piece
	distLen      = shapes.Len // lengths per workload, cycled
	distMax      = shapes.Max // no length is larger
)

// distWorkload is a fixed pseudo-random sequence of lengths.
type distWorkload struct {
	name    string
	lengths []int
}

// distWorkloads are the shapes of the suite, each 1<<16 lengths long
// (shapes.Suite).
var distWorkloads = func() []distWorkload {
	var wls []distWorkload
	for _, s := range shapes.Suite() {
		wls = append(wls, distWorkload{s.Name, s.Lengths})
	}
	return wls
}()

// distImpl is one pool under the suite. local returns, for one goroutine,
// the function that gets a buffer for its in-flight slot k (libp2p's Buffer
// is a value each goroutine keeps per slot; the others ignore k).
type distImpl[B any] struct {
	local func() func(k int) B
	write func(B, []byte)
	capOf func(B) int
	put   func(B)
}

func distSyncPool() distImpl[*bytes.Buffer] {
	p := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
	return distImpl[*bytes.Buffer]{
		local: func() func(int) *bytes.Buffer {
			return func(int) *bytes.Buffer { b := p.Get().(*bytes.Buffer); b.Reset(); return b }
		},
		write: func(b *bytes.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *bytes.Buffer) int { return b.Cap() },
		put:   func(b *bytes.Buffer) { p.Put(b) },
	}
}

func distBytebufferpool() distImpl[*bytebufferpool.ByteBuffer] {
	p := new(bytebufferpool.Pool)
	return distImpl[*bytebufferpool.ByteBuffer]{
		local: func() func(int) *bytebufferpool.ByteBuffer {
			return func(int) *bytebufferpool.ByteBuffer { return p.Get() }
		},
		write: func(b *bytebufferpool.ByteBuffer, d []byte) { b.Write(d) },
		capOf: func(b *bytebufferpool.ByteBuffer) int { return cap(b.B) },
		put:   func(b *bytebufferpool.ByteBuffer) { p.Put(b) },
	}
}

func distLibp2p() distImpl[*pool.Buffer] {
	p := new(pool.BufferPool)
	return distImpl[*pool.Buffer]{
		local: func() func(int) *pool.Buffer {
			slots := make([]pool.Buffer, distInFlight)
			for k := range slots {
				slots[k].Pool = p
			}
			return func(k int) *pool.Buffer { return &slots[k] }
		},
		write: func(b *pool.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *pool.Buffer) int { return b.Cap() },
		put:   func(b *pool.Buffer) { b.Reset() }, // gives the array back to the pool
	}
}

func distZap() distImpl[*buffer.Buffer] {
	p := buffer.NewPool()
	return distImpl[*buffer.Buffer]{
		local: func() func(int) *buffer.Buffer { return func(int) *buffer.Buffer { return p.Get() } },
		write: func(b *buffer.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *buffer.Buffer) int { return b.Cap() },
		put:   func(b *buffer.Buffer) { b.Free() },
	}
}

func distBytebuf() distImpl[*bytebuf.Buffer] { return distBytebufOf(new(bytebuf.Pool)) }

// distBytebufOf is distBytebuf on the pool p.
func distBytebufOf(p *bytebuf.Pool) distImpl[*bytebuf.Buffer] {
	return distImpl[*bytebuf.Buffer]{
		local: func() func(int) *bytebuf.Buffer { return func(int) *bytebuf.Buffer { return p.Get() } },
		write: func(b *bytebuf.Buffer, d []byte) { b.Write(d) },
		capOf: func(b *bytebuf.Buffer) int { return b.Cap() },
		put:   func(b *bytebuf.Buffer) { p.Put(b) },
	}
}

// distWorker is one goroutine's state: its in-flight buffers, its position
// in the lengths, and its sums.
type distWorker[B any] struct {
	im       *distImpl[B]
	get      func(k int) B
	lengths  []int
	piece    int // the most bytes one write adds
	inFlight [distInFlight]B
	i        int
	capSum   int64
	written  int64
}

// newDistWorker returns the worker that starts at position start of the
// lengths.
func newDistWorker[B any](im *distImpl[B], lengths []int, start int) *distWorker[B] {
	w := &distWorker[B]{im: im, get: im.local(), lengths: lengths, piece: distChunk, i: start % distLen}
	for k := range w.inFlight {
		w.inFlight[k] = w.get(k)
	}
	return w
}

func (w *distWorker[B]) step() {
	k := w.i % distInFlight
	n := w.lengths[w.i%distLen]
	w.i++
	buf := w.inFlight[k]
	for m := n; m > 0; m -= w.piece {
		w.im.write(buf, bufferPayload[:min(m, w.piece)])
	}
	w.written += int64(n)
	w.capSum += int64(w.im.capOf(buf))
	w.im.put(buf)
	w.inFlight[k] = w.get(k)
}

func (w *distWorker[B]) done(capSum, written *atomic.Int64) {
	for k := range w.inFlight {
		w.im.put(w.inFlight[k])
	}
	capSum.Add(w.capSum)
	written.Add(w.written)
}

// benchDist runs one workload on a fresh pool and reports, beside time/op,
// B/op and exact allocs/op: the process CPU time per op (cpu-ns/op, steadier
// than time/op on a machine shared with other work), the capacity of the
// buffers at Put over the bytes written into them (cap/written), and the heap
// still held after every buffer is back and two collections (retained-B),
// above the heap before the pool was made.
func benchDist[B any](b *testing.B, parallel bool, lengths []int, newImpl func() distImpl[B]) {
	benchDistIn(b, parallel, lengths, distChunk, newImpl)
}

// benchDistIn is benchDist with the lengths written in pieces of at most
// piece bytes.
func benchDistIn[B any](b *testing.B, parallel bool, lengths []int, piece int, newImpl func() distImpl[B]) {
	runtime.GC()
	base := heapAfterGC()
	im := newImpl()
	var capSum, written atomic.Int64
	report := reusetest.ReportAllocs(b)
	cpu := cputime.Report(b)
	if parallel {
		// The goroutines start at even intervals of the lengths, so that
		// together they run through all of them, whatever the pool.
		var seq atomic.Int64
		b.RunParallel(func(pb *testing.PB) {
			w := newDistWorker(&im, lengths, int(seq.Add(1)-1)*distLen/runtime.GOMAXPROCS(0))
			w.piece = piece
			for pb.Next() {
				w.step()
			}
			w.done(&capSum, &written)
		})
	} else {
		w := newDistWorker(&im, lengths, 0)
		w.piece = piece
		for b.Loop() {
			w.step()
		}
		w.done(&capSum, &written)
	}
	b.StopTimer()
	cpu()
	report()
	perp.Collect(1) // the first collection, and the sweep after it
	retained := heapAfterGC() - base
	runtime.KeepAlive(im)
	b.ReportMetric(float64(capSum.Load())/float64(max(written.Load(), 1)), "cap/written")
	b.ReportMetric(float64(max(retained, 0)), "retained-B")
}

// BenchmarkDist runs the distributions suite: every workload, on one
// goroutine (mode=serial) and with RunParallel (mode=parallel), for the five
// pools. Run it with -cpu 1,2,4; scripts/disttable does, and writes the
// table.
//
//	go test -run '^$' -bench Dist -cpu 1,2,4 -benchtime 65536x -count 6 > dist.txt
//	benchstat -col /impl dist.txt
func BenchmarkDist(b *testing.B) {
	for _, wl := range distWorkloads {
		benchDistPools(b, wl, distChunk)
	}
}

// benchDistPools runs the workload, in pieces of at most piece bytes, for
// the five pools, serial and parallel: the sub-benchmarks
// workload=W/mode=M/impl=I of BenchmarkDist and BenchmarkDistUntuned.
func benchDistPools(b *testing.B, wl distWorkload, piece int) {
	for _, mode := range []string{"serial", "parallel"} {
		par := mode == "parallel"
		name := func(impl string) string { return "workload=" + wl.name + "/mode=" + mode + "/impl=" + impl }
		b.Run(name("syncpool"), func(b *testing.B) { benchDistIn(b, par, wl.lengths, piece, distSyncPool) })
		b.Run(name("bytebufferpool"), func(b *testing.B) { benchDistIn(b, par, wl.lengths, piece, distBytebufferpool) })
		b.Run(name("libp2p"), func(b *testing.B) { benchDistIn(b, par, wl.lengths, piece, distLibp2p) })
		b.Run(name("zap"), func(b *testing.B) { benchDistIn(b, par, wl.lengths, piece, distZap) })
		b.Run(name("bytebuf"), func(b *testing.B) { benchDistIn(b, par, wl.lengths, piece, distBytebuf) })
	}
}

// untunedWorkload is a shape of lengths and the pieces they are written in.
type untunedWorkload struct {
	distWorkload
	piece int
}

// untunedWorkloads are shapes the growth rules of bytebuf were not tuned
// on when they were written (shapes.Untuned). They were the check of the
// plan's weight of copies against capacity (0.35), so they are no longer
// unseen by it; the next change to the growth rules needs shapes of its own.
var untunedWorkloads = untunedOf(shapes.Untuned())

// untunedOf returns the shapes ss as untunedWorkloads.
func untunedOf(ss []shapes.Shape) []untunedWorkload {
	var wls []untunedWorkload
	for _, s := range ss {
		wls = append(wls, untunedWorkload{distWorkload{s.Name, s.Lengths}, s.Piece})
	}
	return wls
}

// BenchmarkDistUntuned runs the untuned shapes like BenchmarkDist, for the
// five pools: each shape's lengths written in its own pieces.
//
//	go test -run '^$' -bench DistUntuned -cpu 1,2 -benchtime 65536x -count 6 > untuned.txt
func BenchmarkDistUntuned(b *testing.B) {
	for _, wl := range untunedWorkloads {
		benchDistPools(b, wl.distWorkload, wl.piece)
	}
}

// garbageSink keeps BenchmarkDistGarbage's garbage from being optimized
// away.
var garbageSink []byte

// distGarbage is the garbage BenchmarkDistGarbage allocates per op.
const distGarbage = 16 << 10

// benchDistGarbage runs the workload on one goroutine like benchDist, but
// each op also allocates distGarbage bytes that it drops at once, as the
// rest of a program does: the collector then runs every thousand ops or so,
// instead of a few times a run. The pool first runs once through the
// lengths without garbage, so that what is measured is its steady state,
// not its warm-up. It reports the collections per 1000 ops (gc/kop) and the
// bytes the pool allocated per op (pool-B/op: all the bytes allocated, less
// the garbage).
func benchDistGarbage[B any](b *testing.B, lengths []int, newImpl func() distImpl[B]) {
	im := newImpl()
	w := newDistWorker(&im, lengths, 0)
	for range len(lengths) {
		w.step()
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	gcs, allocated := ms.NumGC, ms.TotalAlloc
	b.ResetTimer()
	for b.Loop() {
		w.step()
		garbageSink = make([]byte, distGarbage)
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.NumGC-gcs)/float64(b.N)*1000, "gc/kop")
	b.ReportMetric(float64(ms.TotalAlloc-allocated)/float64(b.N)-distGarbage, "pool-B/op")
	var capSum, written atomic.Int64
	w.done(&capSum, &written)
}

// BenchmarkDistGarbage runs the suite's workloads on one goroutine, in a
// program that allocates 16 KiB of garbage per op besides, for three of the
// pools: what each allocates when collections are frequent, and, at -cpu 2
// and above, when the goroutine moves between Ps (bytebuf's per-P caches
// are lost to a P it leaves for a whole collection interval).
//
// Run each -cpu value in a process of its own: in one process, the runs at
// other P counts before it move every pool's figures.
//
//	for c in 1 2 4; do go test -run '^$' -bench DistGarbage -cpu $c -benchtime 262144x; done
func BenchmarkDistGarbage(b *testing.B) {
	for _, wl := range distWorkloads {
		name := func(impl string) string { return "workload=" + wl.name + "/impl=" + impl }
		b.Run(name("syncpool"), func(b *testing.B) { benchDistGarbage(b, wl.lengths, distSyncPool) })
		b.Run(name("libp2p"), func(b *testing.B) { benchDistGarbage(b, wl.lengths, distLibp2p) })
		b.Run(name("bytebuf"), func(b *testing.B) { benchDistGarbage(b, wl.lengths, distBytebuf) })
	}
}

// BenchmarkDistPaired is the serial half of the suite measured in pairs
// (reusetest.Paired), which survives a loaded machine: for each workload and
// each of the four other pools, batches of that pool's ops and of bytebuf's
// run back to back, and x-base is the median ratio of bytebuf's time to the
// other pool's (below 1: bytebuf is faster).
//
//	go test -run '^$' -bench DistPaired -benchtime 200x
func BenchmarkDistPaired(b *testing.B) {
	for _, wl := range distWorkloads {
		run := func(peer string, w func() func()) {
			b.Run("workload="+wl.name+"/peer="+peer, func(b *testing.B) {
				im := distBytebuf()
				ours := newDistWorker(&im, wl.lengths, 0)
				reusetest.Paired(b, 512, w(), ours.step)
			})
		}
		run("syncpool", func() func() { im := distSyncPool(); return newDistWorker(&im, wl.lengths, 0).step })
		run("bytebufferpool", func() func() { im := distBytebufferpool(); return newDistWorker(&im, wl.lengths, 0).step })
		run("libp2p", func() func() { im := distLibp2p(); return newDistWorker(&im, wl.lengths, 0).step })
		run("zap", func() func() { im := distZap(); return newDistWorker(&im, wl.lengths, 0).step })
	}
}

// BenchmarkDistBudget runs bytebuf, in parallel, on the two workloads whose
// larger arrays fill the default Budget (32 MiB) when many goroutines run
// them, with the default and with a Budget of 128 MiB: drops/op counts the
// arrays and Buffers Put let go (Stats.Drops), which the Budget forces, and
// which the next growth that far allocates again. Run it with many Ps and
// several passes over the lengths (scripts/manycore does: -cpu 4,8,16,
// -benchtime 524288x).
func BenchmarkDistBudget(b *testing.B) {
	for _, wl := range distWorkloads {
		if wl.name != "lognormal-heavy" && wl.name != "pareto" {
			continue
		}
		for _, budget := range []int64{0, 128 << 20} {
			name := "workload=" + wl.name + "/budget=default"
			if budget != 0 {
				name = "workload=" + wl.name + "/budget=" + strconv.FormatInt(budget>>20, 10) + "MiB"
			}
			b.Run(name, func(b *testing.B) {
				p, err := bytebuf.NewPool(bytebuf.Config{Budget: budget})
				if err != nil {
					b.Fatal(err)
				}
				benchDist(b, true, wl.lengths, func() distImpl[*bytebuf.Buffer] { return distBytebufOf(p) })
				b.ReportMetric(float64(p.Stats().Drops)/float64(b.N), "drops/op")
			})
		}
	}
}
