package bytebuf

import (
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/sizeclass"
)

// Calibration parameters; the package documentation explains them.
const (
	// nClasses covers every class up to MaxMaxCap.
	nClasses = 116 // sizeclass.Class(MaxMaxCap) + 1
	// calibrateEvery is how many samples one cell takes between two
	// attempts to calibrate.
	calibrateEvery = 32
	// decay is the weight kept by the past at each calibration.
	decay = 0.75
	// keepShare is the smallest share of the samples a class needs for its
	// arrays to be kept.
	keepShare = 0.01
	// growPenalty is the cost, in bytes of capacity, charged for a Buffer
	// that outgrows its home array: the copy and the trip to the slots.
	growPenalty = 1024
	// slotsPerClass is how many arrays of one class the pool keeps at most.
	slotsPerClass = 8
	// maxCells bounds the number of sampler cells.
	maxCells = 16
)

// state is what a Pool allocates on first need: the sampler's cells, the
// calibration and the large arrays. Each field says who writes it.
type state struct {
	// cells are written by Puts that take a sample, each in the cell picked
	// by its stack address.
	cells []cell
	mask  uintptr

	// busy is claimed with a compare-and-swap by the one goroutine that
	// calibrates; last and weight belong to it while it holds busy.
	busy   atomic.Bool
	last   [nClasses]uint64
	weight [nClasses]float64

	// Written by calibrations, read by Get, Put and growth.
	calibrations atomic.Uint64
	keepCap      atomic.Int64
	// keep[i] says whether arrays of class i are kept.
	keep [nClasses]atomic.Bool
	// growTo[i] is the class, plus one, that a Buffer needing a size of
	// class i grows to; 0 means grow by doubling.
	growTo [nClasses]atomic.Int32

	// slots hold the large arrays, by class; a nil pointer is a free slot.
	slots [nClasses][slotsPerClass]atomic.Pointer[byte]
}

// cell is one stripe of the sampler, padded so that cells do not share
// cache lines.
type cell struct {
	gets, puts, n atomic.Uint64
	hist          [nClasses]atomic.Uint64
	_             [128 - (3+nClasses)*8%128]byte
}

// state returns p's state, making it on first call.
func (p *Pool) state() *state {
	if st := p.st.Load(); st != nil {
		return st
	}
	n := 2
	for n < runtime.GOMAXPROCS(0) && n < maxCells {
		n <<= 1
	}
	st := &state{cells: make([]cell, n), mask: uintptr(n - 1)}
	keep := min(initialKeep, p.maxCapBytes())
	for i := range st.keep {
		st.keep[i].Store(sizeclass.Size(i) <= keep)
	}
	if !p.st.CompareAndSwap(nil, st) {
		return p.st.Load()
	}
	return st
}

// pick returns the cell for the calling goroutine, chosen from its stack
// address, which differs between goroutines and costs no runtime call.
func (st *state) pick() *cell {
	var marker byte
	h := (uintptr(unsafe.Pointer(&marker)) >> 13) * 0x9E3779B97F4A7C15
	return &st.cells[(h>>(unsafe.Sizeof(h)*8-6))&st.mask]
}

// sample adds b's pending counts and the length written into it to the
// sampler, and calibrates every calibrateEvery samples of a cell.
func (p *Pool) sample(b *Buffer) {
	b.tick = sampleEvery
	st := p.state()
	c := st.pick()
	c.gets.Add(uint64(b.gets))
	c.puts.Add(uint64(b.puts))
	b.gets, b.puts = 0, 0
	c.hist[min(sizeclass.Class(len(b.buf)), nClasses-1)].Add(1)
	if c.n.Add(1)%calibrateEvery == 0 {
		p.calibrate(st)
	}
}

// calibrate recomputes the default capacity, the classes kept and the growth
// targets from the samples, unless another goroutine is already at it. It
// does not allocate.
func (p *Pool) calibrate(st *state) {
	if !st.busy.CompareAndSwap(false, true) {
		return
	}
	defer st.busy.Store(false)

	maxClass, _ := sizeclass.Floor(p.maxCapBytes())
	maxClass = min(maxClass, nClasses-1)
	var total float64
	for i := range st.weight {
		var sum uint64
		for k := range st.cells {
			sum += st.cells[k].hist[i].Load()
		}
		st.weight[i] = st.weight[i]*decay + float64(sum-st.last[i])
		st.last[i] = sum
		total += st.weight[i]
	}
	if total == 0 {
		return
	}

	// The default capacity D minimises the expected cost of a Buffer: D for
	// its home array, plus, for the lengths above D, the array it grows
	// into and growPenalty.
	best, bestCost := -1, 0.0
	tail := 0.0 // sum of weight[j] * (size(j) + growPenalty) over j > i
	for i := maxClass; i >= 0; i-- {
		if st.weight[i] > 0 {
			if cost := float64(sizeclass.Size(i)) + tail/total; best < 0 || cost <= bestCost {
				best, bestCost = i, cost
			}
		}
		tail += st.weight[i] * float64(sizeclass.Size(i)+growPenalty)
	}
	if best < 0 { // every sample above MaxCap
		best, _ = sizeclass.Floor(min(initialCap, p.maxCapBytes()))
	}

	// Keep the classes that hold a share of the samples, within MaxCap.
	keepCap := sizeclass.Size(best)
	for i := range st.keep {
		k := i <= maxClass && st.weight[i] >= keepShare*total
		st.keep[i].Store(k)
		if k {
			keepCap = max(keepCap, sizeclass.Size(i))
		} else {
			p.evict(st, i)
		}
	}

	// A Buffer that outgrows its array at a length of class i grows to the
	// median class of the lengths of class i and above, so that half the
	// Buffers that grow that far grow once. Going down from the top, the
	// median t only moves down.
	t := nClasses - 1
	above := 0.0  // weight of the classes >= i
	beyond := 0.0 // weight of the classes > t
	for i := nClasses - 1; i >= 0; i-- {
		above += st.weight[i]
		for t > i && beyond+st.weight[t] <= 0.5*above {
			beyond += st.weight[t]
			t--
		}
		g := int32(0)
		if above >= keepShare*total && t <= maxClass {
			g = int32(t + 1)
		}
		st.growTo[i].Store(g)
	}

	st.keepCap.Store(int64(keepCap))
	p.def.Store(int32(best + 1))
	st.calibrations.Add(1)
}
