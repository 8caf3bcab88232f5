package reuse

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// DefaultSliceBytes bounds the arrays a Slices keeps when its MaxCap is 0:
// MaxCap then defaults to the number of elements that fit in 1 MiB, rounded
// down to a size class (1 MiB for []byte, 128 Ki elements for []int64).
const DefaultSliceBytes = 1 << 20

// ErrSlicesConfig is wrapped by the error NewSlices returns for a
// configuration that makes no sense.
var ErrSlicesConfig = errors.New("reuse: invalid Slices configuration")

// Slices is a pool of slices of E in size classes: Get(n) hands out a slice
// of length n whose capacity is n rounded up to its class, and Put takes a
// slice back by its capacity. There are four classes per doubling (1, 2, ...
// 8, 10, 12, 14, 16, 20, ... 1024, 1280, 1536, 1792, 2048, ...), so a slice
// has less than 25% more room than was asked for. A slice at hand (the two
// last Put on the caller's P) serves any n whose class is at most its own
// and more than half its size; and when the pool holds no slice of n's
// class, Get takes one of the nearest larger class below twice its size, if
// it holds one, before it makes a new one. On a spread of sizes that saves
// allocations (benchmarks/README.md has the figures), at the price of that
// slice's extra room.
//
// The zero value is ready to use, with the default MaxCap; NewSlices checks a
// MaxCap before use. Set the fields before the first Get or Put and do not
// change them afterwards. A Slices is safe for use by multiple goroutines and
// must not be copied after first use.
//
// # Contents
//
// A slice from Get is NOT zeroed unless Zero is set: when it comes from the
// pool it holds whatever its previous user left in it, up to its capacity.
// Write every element before reading it, as with a buffer. Only a slice the
// pool had to allocate is zeroed like one from make. Clearing is opt-in
// because it costs in proportion to the capacity, where Get and Put cost the
// same at any size (benchmarks/README.md has the figures). With Zero set,
// Put clears each slice's whole capacity, and Get then behaves exactly like
// make. Set Zero for slices that held secrets, and for element types
// that hold pointers unless you clear them yourself: otherwise the pool keeps
// what they point to alive until the slice is reused or collected.
//
// # Ownership and retention
//
// Put transfers ownership of the slice's array: the caller must not use it,
// or any slice sharing its array, after Put. Put only slices that own their
// array from the start, such as those Get returns or make allocates: a slice
// cut from the end of a larger array would keep all of that array alive.
//
// A slice is kept in the largest class its capacity can serve, so one that
// was appended to past its class, or was never the pool's, lands in the class
// below its capacity; a slice with a capacity above MaxCap is dropped, and so
// is a nil or zero-capacity one. No kept array is larger than MaxCap elements.
// Each P (processor) has a slot that holds the last two slices Put on it, in
// front of one sync.Pool per class: a Get those slices can serve takes one
// back for the cost of a pin and a few plain memory accesses, less than a
// sync.Pool operation, and a Put moves the older of the two behind, to its
// class's sync.Pool. Where a goroutine cannot be pinned to its P (under the
// race detector, and TinyGo) the sync.Pools work alone. Every garbage
// collection drops what a sync.Pool has not handed out again since the
// previous collection, and the slots follow the same rule (see "# Retention"
// in the package documentation). So what a Slices retains is bounded by
// MaxCap times the slices Put since the last two collections, plus two
// slices per P. A Slices from which nothing was taken for a whole collection
// interval also lets go of its state (one sync.Pool per size class, about 3
// KiB for []byte) and makes it anew at its next use, so an idle Slices keeps
// nothing after two collections: a program may hold many of them.
type Slices[E any] struct {
	// MaxCap is the largest capacity, in elements, that the pool keeps, rounded
	// down to a size class. Get(n) for a larger n returns a fresh slice of
	// capacity n, which Put then drops. Zero means DefaultSliceBytes worth of
	// elements. A negative MaxCap makes the first Get or Put panic; NewSlices
	// returns an error instead.
	MaxCap int

	// Zero makes Put clear every slice up to its capacity, kept or dropped,
	// so that Get returns zeroed memory like make and no data outlives its
	// user in the pool.
	Zero bool

	// CountAll makes Stats count every Get and Put, as for Pool. It is off by
	// default: counting costs an add in the caller's per-P slot on each
	// call. Once the calls have returned, the counts are exact: so a Slices
	// gone idle keeps its per-P memory one collection longer with CountAll
	// (see swept).
	CountAll bool

	// st is made at first use, and dropped by the sweep after a
	// collection interval with no Get (see swept), so that an idle Slices
	// keeps no memory; the next use makes a new one.
	st atomic.Pointer[slicesState]

	// The counters live here rather than in st, which comes and goes.
	news, drops atomic.Uint64
	// gets and puts hold the CountAll counters of the states dropped, and
	// the calls counted where no slot was at hand.
	gets, puts atomic.Uint64
	// mu protects dying and the moves of a state's counters from dying to
	// gets and puts, so that Stats sees each count once.
	mu sync.Mutex
	// dying holds the states dropped at the last sweep: a call that loaded
	// one before may still count in its slots until the next collection
	// (see swept).
	dying []*slicesState
}

// slicesState is a Slices' configuration, fixed at first use, and its pools.
type slicesState struct {
	// The fields up to the counters are read on every call and written only
	// at first use: padding keeps a neighbouring heap object that is written
	// often off their cache line (measured: parallel Get/Put 2x slower
	// without it on the reference machine).
	_ [64]byte
	// slots holds the two slices Put last on each P (see slicesSlot): a
	// cache in front of the sync.Pools that costs a pin and a few plain
	// memory accesses, less than a sync.Pool's Get or Put. Unused where
	// perp.OK is false.
	slots perp.Slots[slicesSlot, struct{}, *slicesSlot]
	// pools holds one sync.Pool per class, of unsafe.Pointers to the first
	// element of an array of the class's size. The class gives the capacity
	// back, so no slice header is stored and Put does not allocate.
	pools []sync.Pool
	// stocked[c] is set at the first Put into pools[c]. Get looks in a
	// larger class's pool only if it is stocked: a Get on a sync.Pool that
	// has never been used since a collection allocates its per-P array, so
	// looking in classes nobody puts to would cost allocations, not save
	// them (measured on a bimodal workload).
	stocked []atomic.Bool
	// getLimit and putLimit fold Get's and Put's rare cases into one
	// comparison each. Get goes to getSlow when uint(n) >= getLimit:
	// maxCap+1, or 0 (always) when nothing is kept. Put goes to putSlow
	// when uint(cap-1) >= putLimit: maxCap, or 0 (always) when zeroing.
	getLimit uint
	putLimit uint
	maxCap   int // the largest class size kept; 0 keeps nothing
	zero     bool
	countAll bool

	_ [64]byte // keep the rarely written flag off the line read on every call

	// active is set by a Get that the shared pools served since the last
	// sweep: the slots see only the Gets they serve.
	active atomic.Bool
}

// slicesSlot is a Slices' slot of one P: the slices Put last and before.
type slicesSlot struct {
	perp.Base[struct{}]
	last, prev keptArray
	_          [perp.SlotSize - unsafe.Sizeof(perp.Base[struct{}]{}) - 2*unsafe.Sizeof(keptArray{})]byte
}

// keptArray is an array a slot holds, by its first element: the class gives
// its capacity back, so no slice header is stored.
type keptArray struct {
	data unsafe.Pointer // the first element; nil when none. The sweep may empty it
	size int            // the size of the largest class its capacity serves; stale once the sweep emptied data, so read it first
}

// Sweep is a Slices' retention rule, Pool's: a slot taken from since the
// previous sweep keeps its slices, any other is emptied.
func (sl *slicesSlot) Sweep(used bool) (held bool) {
	if !used {
		perp.Clear(&sl.last.data)
		perp.Clear(&sl.prev.data)
	}
	return perp.Holds(&sl.last.data) || perp.Holds(&sl.prev.data)
}

// NewSlices returns a Slices that keeps slices of capacity up to maxCap
// elements, or an error wrapping ErrSlicesConfig when maxCap is negative or
// its arrays would exceed the largest size class in bytes. A maxCap of 0 means
// the default, as for the zero Slices. Set Zero and CountAll on the result
// before using it.
func NewSlices[E any](maxCap int) (*Slices[E], error) {
	if err := checkMaxCap(maxCap, unsafe.Sizeof(*new(E))); err != nil {
		return nil, err
	}
	return &Slices[E]{MaxCap: maxCap}, nil
}

func checkMaxCap(maxCap int, size uintptr) error {
	if maxCap < 0 {
		return fmt.Errorf("%w: negative MaxCap %d", ErrSlicesConfig, maxCap)
	}
	if size > 0 && uint64(maxCap) > sizeclass.MaxSize/uint64(size) {
		return fmt.Errorf("%w: MaxCap %d elements of %d bytes is above %d bytes",
			ErrSlicesConfig, maxCap, size, uint64(sizeclass.MaxSize))
	}
	return nil
}

// init makes the pool's state on first use.
func (s *Slices[E]) init() *slicesState {
	size := unsafe.Sizeof(*new(E))
	if err := checkMaxCap(s.MaxCap, size); err != nil {
		panic("reuse: Slices: " + strings.TrimPrefix(err.Error(), "reuse: "))
	}
	st := &slicesState{zero: s.Zero, countAll: s.CountAll}
	maxCap := s.MaxCap
	if maxCap == 0 {
		maxCap = DefaultSliceBytes / max(int(size), 1)
	}
	// Slices of zero-size elements cost nothing to make: none are kept, and
	// both limits stay 0.
	if size > 0 {
		c, _ := sizeclass.Floor(maxCap)
		st.pools = make([]sync.Pool, c+1)
		st.stocked = make([]atomic.Bool, c+1)
		st.maxCap = sizeclass.Size(c)
		st.getLimit = uint(st.maxCap) + 1
		if !st.zero {
			st.putLimit = uint(st.maxCap)
		}
	}
	if !s.st.CompareAndSwap(nil, st) {
		return s.st.Load()
	}
	st.slots.OnSweep(func(idle bool) bool { return s.swept(st, idle) })
	st.slots.Grow()
	return st
}

// swept runs after each sweep of st's slots (see internal/perp). When no Get
// was served since the previous sweep, neither by the slots (idle) nor by the
// shared pools, it drops st: its sync.Pools, one per size class, and what
// they hold go to the garbage collector, and the next use makes a new state.
// A goroutine still using the old state meanwhile loses what it puts there
// to the collector, never hands it out twice. It reports whether st is
// still in use, to be swept again.
//
// A call counts in st's slots only in the pinned section where it loaded
// st, so a collection after the drop, which waits for every pinned
// goroutine, ends the counts in st. With CountAll, st is then swept once
// more, after that collection: its counters are final, and move to s's own.
// Until then Stats reads them in dying. (Folded at the drop, the counts of
// the calls in flight were lost: TestSlicesHammer missed a Get or a Put in
// about one run of 25.)
func (s *Slices[E]) swept(st *slicesState, idle bool) (keep bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := slices.Index(s.dying, st); i >= 0 {
		gets, puts := st.slots.Counters()
		s.gets.Add(gets)
		s.puts.Add(puts)
		s.dying = slices.Delete(s.dying, i, i+1)
		return false
	}
	if active := st.active.Swap(false); !idle || active {
		return true
	}
	if !s.st.CompareAndSwap(st, nil) {
		return false // not reached: st is s's until swept drops it
	}
	if !st.countAll {
		return false // nothing to count: let st go now
	}
	// The slots' array, let go by this sweep, may hold counts that the
	// sweep did not see: held, it is summed again at the next sweep.
	st.slots.HoldVictim()
	s.dying = append(s.dying, st)
	return true
}

// Get returns a slice of length n whose capacity is the size of n's class,
// from the pool when it has one, or else a pooled slice of a larger class
// below twice that size (those at hand on the caller's P first, then the
// nearest larger class: see the type's documentation), or else a new one. Unless Zero is set, a slice from
// the pool holds its previous user's data: see the type's documentation. For
// n above MaxCap, Get returns a new slice of capacity n. Get panics if n is
// negative, as make does. The caller owns the slice until it Puts it.
func (s *Slices[E]) Get(n int) []E {
	if s == nil {
		panic("reuse: Slices.Get: nil *Slices")
	}
	if perp.OK {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		// st is loaded in the pin that counts in its slots: see swept. One
		// test sends the rare cases to getSlow below: first use, n < 0 (a
		// huge uint) and n > maxCap.
		st := s.st.Load()
		if st == nil || uint(n) >= st.getLimit {
			perp.Unpin()
			return s.getRare(n)
		}
		if sl := st.slots.At(pid); sl != nil {
			sl.CountGet(st.countAll)
			// The slice Put last first, then the one before. size before
			// data: size is stale once the sweep emptied data.
			if c := sl.last.size; serves(c, n) {
				if x := sl.Take(&sl.last.data); x != nil {
					perp.Unpin()
					return s.fromSlot(st, x, n, c)
				}
			}
			if c := sl.prev.size; serves(c, n) {
				if x := sl.Take(&sl.prev.data); x != nil {
					perp.Unpin()
					return s.fromSlot(st, x, n, c)
				}
			}
			perp.Unpin()
			return s.getShared(st, n)
		}
		perp.Unpin()
		st.slots.Grow() // for the next call
		if st.countAll {
			s.gets.Add(1)
		}
		return s.getShared(st, n)
	}
	return s.getRare(n)
}

// getRare is Get where it uses no slot: where there are none, at first use
// and for lengths out of range.
func (s *Slices[E]) getRare(n int) []E {
	st := s.st.Load()
	if st == nil || uint(n) >= st.getLimit {
		var fresh bool
		if st, fresh = s.getSlow(n); fresh {
			return make([]E, n)
		}
	}
	if st.countAll {
		s.gets.Add(1)
	}
	return s.getShared(st, n)
}

// serves reports whether an array of class size c serves Get(n), n >= 0:
// when c is n's class or a larger one below twice its size, as getShared
// looks for, which is when n <= c < 2n, c/2 being a class size too (0 is in
// the class of 1). TestServesAsClasses checks it on every length.
func serves(c, n int) bool { return n <= c && 2*max(n, 1) > c }

// fromSlot is Get's end for the array at x, of capacity c, that the
// caller's P's slot held: the slice of length n on it.
func (s *Slices[E]) fromSlot(st *slicesState, x unsafe.Pointer, n, c int) []E {
	r := makeSlice[E](x, n, c)
	if debug.Enabled {
		debugSlicesGot(s, r, st.zero)
	}
	return r
}

// getSlow is Get's path for the first use and lengths out of range. It panics on a negative n, and reports whether Get must return a
// fresh slice, n being above MaxCap (or nothing being kept).
func (s *Slices[E]) getSlow(n int) (st *slicesState, fresh bool) {
	if n < 0 {
		panic("reuse: Slices.Get: negative length " + strconv.Itoa(n))
	}
	st = s.st.Load()
	if st == nil {
		st = s.init()
	}
	if n > st.maxCap || st.pools == nil {
		if st.countAll {
			s.gets.Add(1)
		}
		s.news.Add(1)
		return st, true
	}
	return st, false
}

// getShared is Get's path when the P's slot does not hold a slice of n's
// class: it takes one from the class's sync.Pool, or makes one.
func (s *Slices[E]) getShared(st *slicesState, n int) []E {
	c, size := sizeclass.Fit(n)
	// n's class first, then the nearest larger class below twice its size
	// that was ever stocked: on a distribution of sizes, a slice of the class
	// above often waits where n's class has none, and handing it out beats
	// making a new one. No further: a Get on an empty sync.Pool looks
	// through every P's queue and the victim cache, and looking in all
	// four classes of the doubling cost more time than the allocations it
	// saved (BenchmarkSlicesDistPaired on log-normal lengths: 0.98 times
	// libp2p's time, against 0.86 looking in two; allocations per op
	// 0.0004 against 0.00055).
	for k, tries := c, 0; k < len(st.pools) && tries < 2; k++ {
		ks := sizeclass.Size(k)
		if ks >= 2*size {
			break
		}
		if k > c && !st.stocked[k].Load() {
			continue
		}
		tries++
		x := st.pools[k].Get()
		if x == nil {
			continue
		}
		// The pool holds only unsafe.Pointers: read the pointer out of the
		// interface without a type assertion.
		r := makeSlice[E](efaceData(x), n, ks)
		if !st.active.Load() {
			st.active.Store(true) // written once per collection interval at most
		}
		if debug.Enabled {
			debugSlicesGot(s, r, st.zero)
		}
		return r
	}
	s.news.Add(1)
	r := make([]E, n, size)
	if debug.Enabled {
		debugSlicesNew(s, r)
	}
	return r
}

// Put gives s back to the pool, which keeps it in the largest class its
// capacity can serve, or drops it when its capacity is 0 (Put(nil) does
// nothing else) or above MaxCap; drops are counted in Stats. With Zero set, s
// is cleared up to its capacity first.
//
// Put transfers ownership: the caller must not touch s, or any slice sharing
// its array, afterwards.
func (s *Slices[E]) Put(x []E) {
	if s == nil {
		panic("reuse: Slices.Put: nil *Slices")
	}
	if debug.Enabled && !debugSlicesPut(s, x) {
		return // a double Put, reported; storing it twice would hand it out twice
	}
	st := s.st.Load()
	// One test sends the rare cases to putSlow: first use, zeroing, and
	// capacities 0 (a huge uint once 1 is taken off) and above maxCap.
	if st == nil || uint(cap(x)-1) >= st.putLimit {
		if st = s.putSlow(x); st == nil {
			return
		}
	} else if debug.Enabled {
		debugSlicesSeal(x, false)
	}
	p := unsafe.Pointer(unsafe.SliceData(x))
	if perp.OK {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		// st again, in the pin that counts in its slots (see swept): the
		// sweep may have dropped it since the load above.
		if sl := st.slots.At(pid); sl != nil && s.st.Load() == st {
			sl.CountPut(st.countAll)
			// x takes the last place, with its capacity rounded down to a
			// class size (1 <= cap(x) <= maxCap); what was there moves to
			// the second place, and what that held goes behind.
			old := sl.last
			if old.data != nil {
				old, sl.prev = sl.prev, old
			}
			sl.last = keptArray{p, sizeclass.FloorSize(cap(x))}
			perp.Unpin()
			if old.data != nil {
				st.putShared(old.data, old.size)
			}
			return
		}
		perp.Unpin()
		if s.st.Load() == st {
			st.slots.Grow() // for the next call
		}
	}
	if st.countAll {
		s.puts.Add(1)
	}
	st.putShared(p, cap(x))
}

// putSlow is Put's path for the first use, zeroing and capacities out of
// range. It returns nil when x is dropped, and the state otherwise.
func (s *Slices[E]) putSlow(x []E) *slicesState {
	st := s.st.Load()
	if st == nil {
		st = s.init()
	}
	if st.zero {
		clear(x[:cap(x)])
	}
	if debug.Enabled {
		debugSlicesSeal(x, st.zero)
	}
	if uint(cap(x)-1) >= uint(st.maxCap) {
		if st.countAll {
			s.puts.Add(1)
		}
		s.drops.Add(1)
		return nil
	}
	return st
}

// putShared keeps the array of capacity n (1 <= n <= maxCap) that p points
// to in the sync.Pool of the largest class it can serve. It is not generic:
// an unsafe.Pointer goes into an interface without allocating, and Get reads
// it back without looking at the type.
func (st *slicesState) putShared(p unsafe.Pointer, n int) {
	// sizeclass.Floor without its checks: 1 <= n <= maxCap, the size of the
	// last class, so c indexes pools.
	c := sizeclass.Class(n+1) - 1
	if !st.stocked[c].Load() {
		st.stocked[c].Store(true) // once per class
	}
	st.pools[c].Put(p)
}

// Stats returns a snapshot of the pool's counters over all classes, with the
// same meaning as Pool's: News counts the slices Get had to allocate, Drops
// the slices Put did not keep, and Gets and Puts are counted only when
// CountAll is set. Under load the snapshot is approximate, as for Pool.
func (s *Slices[E]) Stats() Stats {
	if s == nil {
		panic("reuse: Slices.Stats: nil *Slices")
	}
	r := Stats{News: s.news.Load(), Drops: s.drops.Load()}
	if s.CountAll {
		s.mu.Lock()
		defer s.mu.Unlock()
		r.Gets, r.Puts = s.gets.Load(), s.puts.Load()
		add := func(st *slicesState) {
			gets, puts := st.slots.Counters()
			r.Gets += gets
			r.Puts += puts
		}
		for _, st := range s.dying {
			add(st)
		}
		if st := s.st.Load(); st != nil {
			add(st)
		}
	}
	return r
}
