package main

import (
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/reuse-go/reuse/benchmarks/internal/shapes"
)

// maxInFlight is the most buffers one goroutine may keep in flight.
const maxInFlight = 16

// run is one measurement's settings: a shape, how many ops, on how many
// goroutines, with how many buffers in flight each, sampling the heap
// every sample ops of the measuring goroutine.
type run struct {
	shape    shapes.Shape
	ops      int  // ops of the timed pass, all goroutines together; the warm-up does as many
	parallel bool // one goroutine per P, else one
	inFlight int
	sample   int
}

// result is one measurement's figures.
type result struct {
	NsPerOp    float64 `json:"ns_per_op"`     // wall time of the timed pass per op
	CPUNsPerOp float64 `json:"cpu_ns_per_op"` // the process's CPU time (user and system) in the timed pass per op
	PeakHeap   int64   `json:"peak_heap"`     // high-water mark of heap objects over the baseline, bytes
	BPerOp     float64 `json:"b_per_op"`      // heap bytes allocated per op in the timed pass
	Retained   int64   `json:"retained"`      // heap objects over the baseline after two collections, bytes
	CapWritten float64 `json:"cap_written"`   // capacity at Put over the bytes written, timed pass
	Samples    int     `json:"heap_samples"`  // heap samples taken
}

const (
	heapObjects = "/memory/classes/heap/objects:bytes"
	heapAllocs  = "/gc/heap/allocs:bytes"

	// exactSamples is about how many of the warm-up pass's heap samples
	// are exact.
	exactSamples = 128
)

// readMetric reads the one metric s names (s is reused, so that the read
// allocates nothing).
func readMetric(s []metrics.Sample) int64 {
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// cpuTime returns the CPU time the process has used, user and system, in
// nanoseconds (0 where getrusage fails).
func cpuTime() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// peak keeps the high-water mark of heap objects; only the measuring
// goroutine samples it.
type peak struct {
	s     []metrics.Sample
	max   int64
	n     int
	exact int // with exact > 0, every exact-th sample is exact
	ms    runtime.MemStats
}

func newPeak() *peak { return &peak{s: []metrics.Sample{{Name: heapObjects}}} }

func (p *peak) take() {
	if p.exact > 0 && p.n%p.exact == 0 {
		p.takeExact()
		return
	}
	p.max = max(p.max, readMetric(p.s))
	p.n++
}

// takeExact samples the heap exactly (see heapNow).
func (p *peak) takeExact() {
	p.max = max(p.max, heapNow(&p.ms))
	p.n++
}

// heapNow returns the bytes of heap objects exactly, the same quantity as
// the metric heapObjects: runtime.ReadMemStats stops the world and flushes
// every P's cache of spans before it counts, so it sees the small objects
// that the metric counts only once their span leaves the cache (up to one
// span per size class in use per P, 8 KiB or more each). It costs a pause
// of the world, so the timed pass takes none.
func heapNow(ms *runtime.MemStats) int64 {
	runtime.ReadMemStats(ms)
	return int64(ms.HeapAlloc)
}

// sink is where an op hands its bytes: it keeps their length and the last
// byte, so that the bytes are read. Each worker has its own; they are added
// into total at the end.
type sink struct {
	n    int64
	last byte
	_    [128 - 9]byte // one worker's sink does not share a cache line with another's
}

// Write reads p as a writer on the network would, and copies nothing.
func (s *sink) Write(p []byte) (int, error) {
	s.take(p)
	return len(p), nil
}

func (s *sink) take(p []byte) {
	s.n += int64(len(p))
	if len(p) > 0 {
		s.last ^= p[len(p)-1]
	}
}

// total is every worker's sink added up.
var total struct {
	sync.Mutex
	n    int64
	last byte
}

// payload is what ops write; no piece is larger.
var payload = make([]byte, shapes.Max)

// worker is one goroutine's state: its in-flight buffers, its position in
// the lengths, and its sums.
type worker[B any] struct {
	im       *impl[B]
	get      func(k int) B
	lengths  []int
	piece    int
	inFlight []B
	start, i int
	n        int // ops per pass
	capSum   int64
	written  int64
	sink     sink
}

func newWorker[B any](im *impl[B], r run, start int) *worker[B] {
	w := &worker[B]{im: im, get: im.local(), lengths: r.shape.Lengths, piece: r.shape.Piece, start: start, i: start}
	w.inFlight = make([]B, r.inFlight)
	for k := range w.inFlight {
		w.inFlight[k] = w.get(k)
	}
	return w
}

// step is one op: it finishes the oldest buffer in flight (writes its
// length in pieces, hands the bytes on through Bytes at even ops and
// WriteTo at odd ones), puts it back, and gets a new one in its place.
func (w *worker[B]) step() {
	k := w.i % len(w.inFlight)
	n := w.lengths[w.i%len(w.lengths)]
	buf := w.inFlight[k]
	for m := n; m > 0; m -= w.piece {
		w.im.write(buf, payload[:min(m, w.piece)])
	}
	w.written += int64(n)
	w.capSum += int64(w.im.capOf(buf))
	if w.i%2 == 0 {
		w.sink.take(w.im.bytes(buf))
	} else {
		w.im.writeTo(buf, &w.sink)
	}
	w.i++
	w.im.put(buf)
	w.inFlight[k] = w.get(k)
}

// steps runs n ops; with p, it samples the heap every every ops.
func (w *worker[B]) steps(n int, p *peak, every int) {
	for j := range n {
		w.step()
		if p != nil && j%every == 0 {
			p.take()
		}
	}
}

func (w *worker[B]) done() {
	for k := range w.inFlight {
		w.im.put(w.inFlight[k])
	}
	total.Lock()
	total.n += w.sink.n
	total.last ^= w.sink.last
	total.Unlock()
}

// pass runs a pass of each worker, each on its own goroutine, the first
// sampling the heap, and returns the wall time from the start signal to the
// last worker's end.
func pass[B any](ws []*worker[B], p *peak, every int) time.Duration {
	if len(ws) == 1 {
		t := time.Now()
		ws[0].steps(ws[0].n, p, every)
		return time.Since(t)
	}
	var ready, wg sync.WaitGroup
	startc := make(chan struct{})
	var first atomic.Bool
	for _, w := range ws {
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var q *peak
			if first.CompareAndSwap(false, true) {
				q = p
			}
			ready.Done()
			<-startc
			w.steps(w.n, q, every)
		}()
	}
	ready.Wait()
	t := time.Now()
	close(startc)
	wg.Wait()
	return time.Since(t)
}

// measure runs r on a fresh pool from newImpl: a warm-up pass, then the
// timed pass through the same lengths.
func measure[B any](r run, newImpl func() impl[B]) result {
	allocs := []metrics.Sample{{Name: heapAllocs}}
	p := newPeak()
	runtime.GC()
	runtime.GC()
	base := heapNow(&p.ms)
	im := newImpl()
	nw := 1
	if r.parallel {
		nw = runtime.GOMAXPROCS(0)
	}
	ws := make([]*worker[B], nw)
	for g := range ws {
		// The goroutines share the first r.ops lengths out in even runs,
		// so that together they run through the same lengths as one
		// goroutine does, whatever the pool (through all of them, as the
		// suite's benchmarks do, when r.ops is shapes.Len).
		ws[g] = newWorker(&im, r, g*r.ops/nw)
		ws[g].n = (g+1)*r.ops/nw - g*r.ops/nw
	}
	// The warm-up pass, untimed, takes exact samples among the others;
	// the timed pass takes one at its end.
	p.exact = max(1, ws[0].n/r.sample/exactSamples)
	pass(ws, p, r.sample)
	p.exact = 0
	p.takeExact()
	for _, w := range ws {
		w.i, w.capSum, w.written = w.start, 0, 0
	}
	a0, c0 := readMetric(allocs), cpuTime()
	elapsed := pass(ws, p, r.sample)
	a1, c1 := readMetric(allocs), cpuTime()
	p.takeExact()
	var capSum, written int64
	for _, w := range ws {
		capSum += w.capSum
		written += w.written
		w.done()
	}
	runtime.GC()
	runtime.GC()
	retained := heapNow(&p.ms) - base
	runtime.KeepAlive(im)
	ops := float64(r.ops)
	return result{
		NsPerOp:    float64(elapsed.Nanoseconds()) / ops,
		CPUNsPerOp: float64(c1-c0) / ops,
		PeakHeap:   max(0, p.max-base),
		BPerOp:     float64(a1-a0) / ops,
		Retained:   max(0, retained),
		CapWritten: float64(capSum) / float64(max(written, 1)),
		Samples:    p.n,
	}
}
