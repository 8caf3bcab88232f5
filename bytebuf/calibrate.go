package bytebuf

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/reuse-go/reuse/internal/sizeclass"
)

// Calibration parameters; the package documentation explains them.
const (
	// nClasses covers every class up to MaxMaxCap.
	nClasses = 116 // sizeclass.Class(MaxMaxCap) + 1
	// calibrateEvery is how many Puts, by weight of the samples, one cell
	// sees between two attempts to calibrate.
	calibrateEvery   = 2048
	firstCalibration = 128
	// decay is the weight kept by the past at each calibration.
	decay = 0.75
	// keepShare is the smallest share of the Puts the lengths of a class
	// and above need for the class to be within the top of the lengths
	// (KeepCap); it leaves the top when the share falls below keepShare/4,
	// so that noise does not make the top flap.
	keepShare = 0.0001
	// defaultQuantile is the share of the lengths the default capacity
	// holds without growing: the median, as a Buffer above it grows from
	// the size-class caches.
	defaultQuantile = 0.5
	// narrowQuantile is the share the default capacity holds instead when
	// it is one class above narrowBase's (see calibrate).
	narrowQuantile = 0.8
	narrowBase     = 0.45
	// homeSlack is how many classes above the default capacity a home
	// array may be and still be kept at Put: a Buffer made before the
	// default moved down is dropped, and made anew with the default, once
	// its home is more than a quarter too large.
	homeSlack = 1
	// settle is how many calibrations in a row must ask the default
	// capacity to move, the same way, before it does.
	settle = 3
	// nearMargin is how far past defaultQuantile the share of the lengths
	// must be for the default to move by one class.
	nearMargin = 0.1
	// slotsPerClass is how many arrays of one class the pool keeps at most.
	slotsPerClass = 8
	// freshMin is the least weight of fresh samples that can move the
	// default capacity down at once (see fallen): 16 samples of Buffers
	// that did not grow.
	freshMin = 16 * sampleEvery
	// copyWeight is the weight, in the growth plan, of a byte copied
	// against a byte of capacity left unused at Put (see planGrowth), and
	// largeCopyWeight its weight when the array copied from is larger than
	// largeArray (see copyWeightOf).
	copyWeight      = 0.35
	largeCopyWeight = 0.2
	largeArray      = 256 << 10
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
	// calibrates; weight and fresh belong to it while it holds busy.
	busy atomic.Bool
	// moves counts the calibrations in a row that asked the default
	// capacity to move up (positive) or down (negative).
	moves  int32
	weight [nClasses]float64
	// fresh holds the counts the cells took since the last calibration.
	fresh [nClasses]float64

	// Written by calibrations, read by Get, Put and growth.
	calibrations atomic.Uint64
	keepCap      atomic.Int64
	// top is the largest class within the top of the lengths, -1 for none
	// (keepTop); before the first calibration, the largest class within
	// the initial keep, which putLarge keeps until then.
	top atomic.Int32
	// plan[i] is the class, plus one, that a Buffer needing a size of
	// class i grows to (planGrowth); 0 means none (see getLarge).
	plan [nClasses]atomic.Int32
	// exact[i] reports whether an empty Buffer that needs class i grows to
	// exactly that class: most such Buffers were written in one piece
	// (see pieces).
	exact [localClasses]atomic.Bool
	// pieces holds, by the class they needed then, the decayed weight of
	// the Buffers that grew empty and were written in one piece, less that
	// of those written in more. Owned by the goroutine that holds busy.
	pieces [localClasses]float32

	// slots hold the large arrays, by class, in rows made on a class's
	// first array, so that a pool whose arrays stay in the per-P caches
	// (or that has none) holds no rows: a nil row, or a nil pointer in a
	// row, is a free slot. A row, once made, stays until the state goes.
	slots [nClasses]atomic.Pointer[slotRow]

	// vmu protects victim and its rows, made like those of slots. victims
	// counts its non-zero entries, so that growth looks there only when
	// there are some.
	vmu     sync.Mutex
	victims atomic.Int32
	// victim holds, by class and weakly, the arrays that were in the slots
	// at the last sweep (see age in large.go).
	victim [nClasses]*victimRow

	_ [128]byte // bytes is written on large-array traffic: keep it off the lines above
	// bytes is the capacity of the arrays in slots and victim.
	bytes atomic.Int64
}

// slotRow is one class's slots in the shared tier; victimRow its victims.
type (
	slotRow   [slotsPerClass]atomic.Pointer[byte]
	victimRow [slotsPerClass]weak.Pointer[byte]
)

// cell is one stripe of the sampler, padded so that cells do not share
// cache lines. Its histogram counts the weight of the samples since the
// last calibration, which takes it (merge): 32 bits hold the few thousand
// units between two.
type cell struct {
	gets, puts, n atomic.Uint64
	hist          [nClasses]atomic.Uint32
	// pieces counts, by the class needed then, the sampled Buffers that
	// grew empty: up for each whose length was what it needed then (one
	// piece), down for each written on after.
	pieces [localClasses]atomic.Int32
	_      [(128 - (3*8+nClasses*4+localClasses*4)%128) % 128]byte
}

// state returns p's state, making it on first call.
func (p *Pool) state() *state {
	if st := p.st.Load(); st != nil {
		return st
	}
	return p.newState()
}

// newState takes back the victim of the last sweep (see swept), or makes
// p's state when the collector has freed it, unless another goroutine did
// either first, and returns the one p keeps. It is state's slow path, apart
// so that state inlines.
func (p *Pool) newState() *state {
	for {
		if st := p.st.Load(); st != nil {
			return st
		}
		st := p.takeVictimState()
		if st == nil {
			st = p.makeState()
		}
		if p.st.CompareAndSwap(nil, st) {
			p.refreshLimit()
			return st
		}
	}
}

// takeVictimState takes the victim state from stv, nil if there is none or
// the collector freed it.
func (p *Pool) takeVictimState() *state {
	p.lmu.Lock()
	defer p.lmu.Unlock()
	st := p.stv.Value()
	p.stv = weak.Pointer[state]{}
	if st != nil {
		p.vbytes.Store(0)
	}
	return st
}

// makeState returns a new state.
func (p *Pool) makeState() *state {
	n := 2
	for n < runtime.GOMAXPROCS(0) && n < maxCells {
		n <<= 1
	}
	st := &state{cells: make([]cell, n), mask: uintptr(n - 1)}
	top, _ := sizeclass.Floor(min(initialKeep, p.maxCapBytes()))
	st.top.Store(int32(top))
	return st
}

// pick returns the cell for the calling goroutine, chosen from its stack
// address, which differs between goroutines and costs no runtime call.
func (st *state) pick() *cell {
	var marker byte
	h := stackHash(&marker)
	return &st.cells[uintptr(h>>(64-6))&st.mask]
}

// sample adds the length written into b, with weight w, to the sampler,
// and b's pending counts once they reach sampleEvery, and calibrates every
// calibrateEvery units of weight in a cell. A Buffer that did not grow is
// sampled at one Put in sampleEvery, with that weight; one that grew at one
// Put in sampleGrownEvery, with that weight; so the histogram estimates the
// distribution of lengths over all Puts.
func (p *Pool) sample(b *Buffer, w uint64) {
	st := p.state()
	c := st.pick()
	if b.puts >= sampleEvery {
		// The Buffer's counts, once they are worth two atomic adds: a
		// Buffer that grows is sampled every few Puts (one op in ten
		// samples on a mix where 40% of the Buffers grow, and the two
		// adds cost 4% of its time).
		c.gets.Add(uint64(b.gets))
		c.puts.Add(uint64(b.puts))
		b.gets, b.puts = 0, 0
	}
	n := b.written()
	c.hist[min(sizeclass.Class(n), nClasses-1)].Add(uint32(w))
	if b.need0 > 0 {
		if k := sizeclass.Class(int(b.need0)); k < localClasses {
			d := int32(w)
			if n > int(b.need0) {
				d = -d
			}
			c.pieces[k].Add(d)
		}
	}
	// In a cell's first calibrateEvery units, try every firstCalibration
	// units, so that the pool soon follows the workload.
	if n := c.n.Add(w); n%calibrateEvery < w || n < calibrateEvery && n%firstCalibration < w {
		p.calibrate(st)
	}
}

// calibrate recomputes the default capacity, the top of the lengths and the
// growth targets from the samples, unless another goroutine is already at
// it. It does not allocate, nor do the steps it calls, which run on the
// goroutine that holds busy.
func (p *Pool) calibrate(st *state) {
	if !st.busy.CompareAndSwap(false, true) {
		return
	}
	defer st.busy.Store(false)

	maxClass, _ := sizeclass.Floor(p.maxCapBytes())
	maxClass = min(maxClass, nClasses-1)
	total := st.merge()
	if total == 0 {
		return
	}
	cur := -1 // the default's class, none before the first calibration
	if d := p.defCap.Load(); d > 0 {
		cur = sizeclass.Class(int(d))
	}
	q := p.quantileClass(st.weight[:], defaultQuantile, total, maxClass)
	quant := defaultQuantile
	// Narrow lengths: the 80th percentile one class above the 45th's. Not
	// the median's: on lengths whose median is at a class boundary, the
	// median's class is the upper one half the time, and the rule then took
	// log-normal lengths of sigma 0.5 for narrow.
	if n := p.quantileClass(st.weight[:], narrowQuantile, total, maxClass); n == p.quantileClass(st.weight[:], narrowBase, total, maxClass)+1 {
		q, quant = max(q, n), narrowQuantile
	}

	best := st.settleDefault(cur, q, quant, total)
	if f, ft, ok := p.fallen(st, cur, q, maxClass); ok && best == cur {
		// The workload changed: forget the weights of the lengths before,
		// or they would ask to move back up.
		best, st.moves = f, 0
		st.weight, total = st.fresh, ft
	}
	top := st.keepTop(total, maxClass)
	if st.top.Load() != int32(top) {
		st.top.Store(int32(top))
	}
	st.setExact()
	st.planGrowth(total, maxClass)

	st.keepCap.Store(int64(sizeclass.Size(max(best, top))))
	p.defCap.Store(int64(sizeclass.Size(best)))
	p.homeMax.Store(int64(sizeclass.Size(min(best+homeSlack, nClasses-1))))
	p.refreshLimit()
	st.calibrations.Add(1)
	p.calibrations.Add(1)
}

// merge takes the counts the cells took since the last calibration and adds
// them to the weights, after multiplying these by decay, and returns the
// total weight.
func (st *state) merge() float64 {
	var total float64
	for i := range st.pieces {
		var sum int32
		for k := range st.cells {
			sum += st.cells[k].pieces[i].Swap(0)
		}
		v := st.pieces[i]*decay + float32(sum)
		if v > -0.01 && v < 0.01 {
			v = 0 // as the weights below
		}
		st.pieces[i] = v
	}
	for i := range st.weight {
		var sum uint64
		for k := range st.cells {
			sum += uint64(st.cells[k].hist[i].Swap(0))
		}
		st.fresh[i] = float64(sum)
		w := st.weight[i]*decay + st.fresh[i]
		if w < 0.01 {
			// Below a hundredth of a Put: forget it, before it decays
			// into subnormal floats, whose arithmetic is a hundred times
			// slower.
			w = 0
		}
		st.weight[i] = w
		total += st.weight[i]
	}
	return total
}

// quantileClass returns the class of the defaultQuantile of the lengths,
// whose weights sum to total, or, when it is above maxClass, that of the
// initial capacity.
//
// The default capacity is that class: a Buffer whose length is below it
// never grows, and one above grows from the size-class caches. A quantile is
// a stable estimate on any distribution (the top of the most common cluster
// of classes, used before, moved by several classes with the noise of the
// samples on a smooth one), and it is that length when one length makes most
// of the Puts.
func (p *Pool) quantileClass(weight []float64, quant, total float64, maxClass int) int {
	for i, acc := 0, 0.0; i <= maxClass; i++ {
		if acc += weight[i]; acc >= quant*total {
			return i
		}
	}
	// The quantile is above MaxCap: those Buffers are never kept.
	c, _ := sizeclass.Floor(min(initialCap, p.maxCapBytes()))
	return c
}

// settleDefault returns the class the default capacity moves to from cur (-1
// before the first calibration) when the quantile is in class best, and
// counts the calibrations in a row that asked for a move in st.moves.
//
// Hysteresis: the quantile of samples moves with their noise. A move of one
// class is made only when the quantile is clearly in the other class: the
// lengths that fit in the current default are below
// defaultQuantile-nearMargin of the Puts (move up), or those that fit in the
// class below are above defaultQuantile+nearMargin (move down); a median
// that sits near a class boundary does not make the default flip between
// the two. And any move is made only when settle calibrations in a row ask
// for it the same way. So the default settles on a distribution that does
// not change and follows one that does within a few calibrations.
func (st *state) settleDefault(cur, best int, quant, total float64) int {
	if cur < 0 || best == cur {
		st.moves = 0
		return best
	}
	if best == cur+1 && share(st, cur, total) > quant-nearMargin ||
		best == cur-1 && share(st, cur-1, total) < quant+nearMargin {
		st.moves = 0 // near the boundary: stay
		return cur
	}
	dir := int32(1)
	if best < cur {
		dir = -1
	}
	if st.moves*dir < 0 {
		st.moves = 0 // the other way than before: start over
	}
	st.moves += dir
	if st.moves*dir < settle {
		return cur
	}
	st.moves = 0
	return best
}

// keepTop returns the top of the lengths, -1 for none: the largest class at
// or above which lengths still hold keepShare of the Puts (keepShare/4 for a
// class already within the top, so that noise does not make it flap), within
// maxClass. Growth does not go past it when the length needed is within it;
// arrays above it are kept too once the pool has calibrated (see putLarge).
func (st *state) keepTop(total float64, maxClass int) int {
	for i, above := nClasses-1, 0.0; i >= 0; i-- {
		above += st.weight[i]
		share := keepShare
		if i <= int(st.top.Load()) && st.calibrations.Load() > 0 {
			share /= 4
		}
		if i <= maxClass && above >= share*total {
			return i
		}
	}
	return -1
}

// setExact sets exact from the pieces counted.
func (st *state) setExact() {
	for i, v := range st.pieces {
		if v == 0 {
			continue // no Buffer grew empty at this size lately, or a tie: as before
		}
		if e := v > 0; st.exact[i].Load() != e {
			st.exact[i].Store(e)
		}
	}
}

// planGrowth sets plan, the class each growth goes to, from the weights,
// whose sum is total: for a Buffer that needs class i, the class t >= i
// (within maxClass) that minimizes, over the lengths of class i and above,
// the capacity left unused at Put plus the bytes the growths after this one
// copy (each copies the capacity it leaves), weighted by copyWeightOf the
// array they leave, assuming the same rule for those growths: a dynamic
// program from the top class down, in which cost[i] is the least such sum
// for the lengths of class i and above. A length counts for the middle of its class. No plan (0) where the
// lengths of class i and above hold less than keepShare of total: growth
// then doubles, or adds a quarter to a large array (see getLarge).
//
// It replaced two percentiles of the lengths above the size needed (the
// 40th for a Buffer that grows empty, the 80th bounding the doubling of
// one that holds bytes), which on shapes the suite was not tuned for put
// capacity/written above 1.5 (21 of the 32 rows of BenchmarkDistUntuned):
// a mix of two workloads of different sizes, whose percentiles fall between
// them, and log-normal lengths written in pieces, among others.
func (st *state) planGrowth(total float64, maxClass int) {
	// lo and hi: the lowest and highest classes with weight, within
	// maxClass. No growth goes past hi, which holds every length; one
	// that needs a class below lo goes where one that needs lo does.
	lo, hi := -1, -1
	for j := 0; j <= min(maxClass, nClasses-1); j++ {
		if st.weight[j] > 0 {
			if lo < 0 {
				lo = j
			}
			hi = j
		}
	}
	// w[j] and m[j]: the weight of the classes below j, and of their
	// lengths, from lo; size[j] and cw[j]: class j's size, and that times
	// its copy weight, computed here once rather than in the inner loop
	// below, which runs up to nClasses²/2 times.
	var w, m [nClasses + 1]float64
	var size, cw [nClasses]float64
	for j := max(lo, 0); j <= hi; j++ {
		w[j+1] = w[j] + st.weight[j]
		m[j+1] = m[j] + st.weight[j]*mid(j)
		size[j] = float64(sizeclass.Size(j))
		cw[j] = copyWeightOf(size[j]) * size[j]
	}
	var cost [nClasses + 1]float64
	for i := nClasses - 1; i >= 0; i-- {
		g := int32(0)
		switch {
		case i > hi:
		case i < lo:
			g = st.plan[lo].Load()
		case w[hi+1]-w[i] >= keepShare*total:
			best := math.Inf(1)
			for t := i; t <= hi; t++ {
				c := size[t]*(w[t+1]-w[i]) - (m[t+1] - m[i]) + cw[t]*(w[hi+1]-w[t+1]) + cost[t+1]
				if c < best {
					best, g = c, int32(t+1)
				}
			}
			cost[i] = best
		}
		if st.plan[i].Load() != g {
			st.plan[i].Store(g)
		}
	}
}

// copyWeightOf returns the growth plan's weight of a byte copied out of an
// array of size bytes against a byte of capacity left unused. Capacity
// left unused in arrays larger than largeArray weighs more: a few of them
// fill the Budget (128 of 256 KiB fill the default), and past it the pool
// drops arrays it would reuse. On the mixed workload of docs/WORKLOADS.md
// (W11: 5% of the requests write 960 KiB to 1088 KiB, in 4 KiB pieces), the
// one weight of 0.35 grew them all to 1.25 MiB at once, for
// capacity/written 1.22 to 1.25 against the 1.25 its target allows; with
// 0.2 above 256 KiB, those that fit in 1 MiB stop there and the others
// copy it into 1.25 MiB, for 1.12 to 1.16.
func copyWeightOf(size float64) float64 {
	if size > largeArray {
		return largeCopyWeight
	}
	return copyWeight
}

// mid is the middle of the lengths of class i, (Size(i-1), Size(i)].
func mid(i int) float64 {
	if i == 0 {
		return 1
	}
	return float64(sizeclass.Size(i-1)+sizeclass.Size(i)) / 2
}

// target returns the class that a Buffer holding n bytes and needing class
// i grows to, -1 when the plan has none. A Buffer that holds bytes grows to
// at least a quarter more than it holds, so that one written in many small
// pieces copies each byte a bounded number of times (at most four, in
// all); an empty one that most likely gets no more than it needs now grows
// to exactly that.
func (st *state) target(i, n, maxCap int) int {
	t := int(st.plan[min(i, nClasses-1)].Load()) - 1
	switch {
	case t < 0:
		return -1
	case n > 0:
		return max(t, sizeclass.Class(min(n+n/4, maxCap)))
	case i < localClasses && st.exact[i].Load():
		return i
	}
	return t
}

// share returns the share of the weight of the samples in classes up to c,
// of total.
func share(st *state, c int, total float64) float64 {
	w := 0.0
	for i := 0; i <= c && i < len(st.weight); i++ {
		w += st.weight[i]
	}
	return w / total
}

// fallen reports whether the default capacity, now in class cur, is to move
// down at once, without waiting for settle calibrations, to which class, and
// the weight of the fresh samples: when the quantile of the decayed weights,
// q, is two classes or more below cur (beyond the noise that the hysteresis
// of settleDefault is for), and the quantile of the lengths since the last
// calibration alone is at or below q. The decayed weights lag a workload
// whose lengths fall (their mean age is four calibrations), and meanwhile
// every Buffer up to the default gets all its capacity; a workload whose
// lengths rise only makes more Buffers grow, and waits. The fresh lengths
// count only when they hold at least freshMin of weight, so that a
// calibration made soon after the previous one does not act on a handful of
// samples.
func (p *Pool) fallen(st *state, cur, q, maxClass int) (class int, total float64, ok bool) {
	if cur < 0 || q > cur-2 {
		return 0, 0, false
	}
	for _, w := range st.fresh {
		total += w
	}
	if total < freshMin {
		return 0, 0, false
	}
	if f := p.quantileClass(st.fresh[:], defaultQuantile, total, maxClass); f <= q {
		return f, total, true
	}
	return 0, 0, false
}
