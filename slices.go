package reuse

import (
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/pin"
	"github.com/reuse-go/reuse/internal/sizeclass"
	"github.com/reuse-go/reuse/internal/stripe"
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
// has less than 25% more room than was asked for.
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
// same at any size: on the reference machine (BenchmarkSlices) a Get/Put pair
// of 64 KiB takes about 20 ns, and 1.1 µs with Zero (make: 20 µs). With Zero set, Put clears each
// slice's whole capacity, and Get then behaves exactly like make. Set Zero for
// slices that held secrets, and for element types that hold pointers unless
// you clear them yourself: otherwise the pool keeps what they point to alive
// until the slice is reused or collected.
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
// Each class is a slot per P (processor) in front of a sync.Pool: the slot
// costs less than a sync.Pool operation, and the sync.Pool takes the slices
// the slot has no room for. Where a goroutine cannot be pinned to its P (under
// the race detector, and TinyGo) the sync.Pools work alone. Every garbage collection drops what a sync.Pool has not
// handed out again since the previous collection, and a P's slots are emptied
// at its first Get or Put after a collection. So what a Slices retains is
// bounded by MaxCap times the slices Put since the last two collections, and
// once it is idle, by one slice per class per P (GOMAXPROCS at first use),
// until it is used again or is itself collected.
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
	// default: counting costs a striped add on each call.
	CountAll bool

	st atomic.Pointer[slicesState]
}

// slicesState is a Slices' configuration, fixed at first use, and its pools.
type slicesState struct {
	// The fields up to the counters are read on every call and written only
	// at first use: padding keeps a neighbouring heap object that is written
	// often off their cache line (measured: parallel Get/Put 2x slower
	// without it on the reference machine).
	_ [64]byte
	// shards holds, for each P, one slot per class: a cache in front of the
	// sync.Pools that costs a pin and two plain memory accesses, less than a
	// sync.Pool's Get or Put. Nil where pin.OK is false.
	shards []slicesShard
	// pools holds one sync.Pool per class, of *E pointing to the first
	// element of an array of the class's size. The class gives the capacity
	// back, so no slice header is stored and Put does not allocate.
	pools    []sync.Pool
	maxCap   int // the largest class size kept; 0 keeps nothing
	zero     bool
	countAll bool
	slowPut  bool             // zero || countAll
	all      *stripe.Counters // Gets and Puts, when countAll

	_ [64]byte // keep the rare counters off the line read on every call

	news  atomic.Uint64
	drops atomic.Uint64
}

// slicesShard is one P's slots. Only goroutines pinned to that P read or
// write it, so plain loads and stores are enough.
type slicesShard struct {
	// gen is the gcGen the slots were filled under. When a collection has
	// happened since, the slots are emptied before use, so that they keep
	// nothing alive longer than a sync.Pool would, once the pool is used
	// again.
	gen uint32
	// slots[c] is nil or points to the first element of an array of at
	// least Size(c) elements. The slots of different shards are padded
	// apart in one array (see shardPad).
	slots []unsafe.Pointer
	_     [128 - 32]byte // one shard per 128 bytes: flush writes gen
}

// shardPad is the number of pointers between two shards' slots: 128 bytes,
// two cache lines, as for the striped counters.
const shardPad = 128 / unsafe.Sizeof(unsafe.Pointer(nil))

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
		panic("reuse: Slices used with " + err.Error())
	}
	st := &slicesState{zero: s.Zero, countAll: s.CountAll}
	maxCap := s.MaxCap
	if maxCap == 0 {
		maxCap = DefaultSliceBytes / max(int(size), 1)
	}
	// Slices of zero-size elements cost nothing to make: none are kept.
	if size > 0 {
		c, _ := sizeclass.Floor(maxCap)
		st.pools = make([]sync.Pool, c+1)
		st.maxCap = sizeclass.Size(c)
		if pin.OK {
			gcWatchOnce.Do(watchGC)
			st.shards = make([]slicesShard, runtime.GOMAXPROCS(0))
			stride := c + 1 + int(shardPad)
			slots := make([]unsafe.Pointer, len(st.shards)*stride)
			for i := range st.shards {
				st.shards[i].slots = slots[i*stride : i*stride+c+1 : i*stride+c+1]
				st.shards[i].gen = gcGen.Load()
			}
		}
	}
	if st.countAll {
		st.all = stripe.New()
	}
	st.slowPut = st.zero || st.countAll
	if !s.st.CompareAndSwap(nil, st) {
		return s.st.Load()
	}
	return st
}

// Get returns a slice of length n whose capacity is the size of n's class,
// from the pool when it has one. Unless Zero is set, a slice from the pool
// holds its previous user's data: see the type's documentation. For n above
// MaxCap, Get returns a new slice of capacity n. Get panics if n is negative,
// as make does. The caller owns the slice until it Puts it.
func (s *Slices[E]) Get(n int) []E {
	if s == nil {
		panic("reuse: Slices.Get called on a nil *Slices")
	}
	st := s.st.Load()
	// One test sends the rare cases to getSlow: first use, counting, n < 0
	// (a huge uint) and n > maxCap.
	if st == nil || st.countAll || uint(n) > uint(st.maxCap) {
		var fresh bool
		if st, fresh = s.getSlow(n); fresh {
			return make([]E, n)
		}
	}
	x, c, size := st.take(n)
	if x != nil {
		r := unsafe.Slice((*E)(x), size)[:n]
		if debug.Enabled {
			debugSlicesGot(s, r, st.zero)
		}
		return r
	}
	if x := st.pools[c].Get(); x != nil {
		// The pool holds only *E: read the pointer out of the interface
		// without a type assertion, which in generic code costs a lookup.
		r := unsafe.Slice((*E)((*eface)(unsafe.Pointer(&x)).data), size)[:n]
		if debug.Enabled {
			debugSlicesGot(s, r, st.zero)
		}
		return r
	}
	st.news.Add(1)
	return make([]E, n, size)
}

// getSlow is Get's path for the first use, counting and lengths out of
// range. It panics on a negative n, and reports whether Get must return a
// fresh slice, n being above MaxCap.
func (s *Slices[E]) getSlow(n int) (st *slicesState, fresh bool) {
	if n < 0 {
		panic("reuse: Slices.Get called with negative length " + strconv.Itoa(n))
	}
	st = s.st.Load()
	if st == nil {
		st = s.init()
	}
	if st.countAll {
		st.all.Add(countGets)
	}
	if n > st.maxCap {
		st.news.Add(1)
		return st, true
	}
	return st, false
}

// eface is the layout of an interface value.
type eface struct {
	typ, data unsafe.Pointer
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
		panic("reuse: Slices.Put called on a nil *Slices")
	}
	if debug.Enabled && !debugSlicesPut(s, x) {
		return // a double Put, reported; storing it twice would hand it out twice
	}
	st := s.st.Load()
	if st == nil || st.slowPut {
		st = s.putSlow(x)
	}
	if debug.Enabled {
		debugSlicesSeal(x, st.zero)
	}
	// One test drops capacities 0 (a huge uint once 1 is taken off) and
	// above maxCap.
	if uint(cap(x)-1) >= uint(st.maxCap) {
		st.drops.Add(1)
		return
	}
	// The largest class cap(x) can serve: sizeclass.Floor without its
	// checks, since 1 <= cap(x) <= maxCap, the size of the last class, so c
	// indexes pools.
	c := sizeclass.Class(cap(x)+1) - 1
	p := unsafe.Pointer(unsafe.SliceData(x))
	if st.shards != nil && st.give(c, p) {
		return
	}
	st.pools[c].Put((*E)(p))
}

// putSlow is Put's path for the first use, counting and zeroing.
func (s *Slices[E]) putSlow(x []E) *slicesState {
	st := s.st.Load()
	if st == nil {
		st = s.init()
	}
	if st.countAll {
		st.all.Add(countPuts)
	}
	if st.zero {
		clear(x[:cap(x)])
	}
	return st
}

// take returns n's class and its size, and empties and returns the slot of
// that class of the caller's P: nil when it is empty, or when the P has no
// shard (no pinning here, or GOMAXPROCS grew after the first use). It is not
// generic, so that the pinning inlines into it.
func (st *slicesState) take(n int) (x unsafe.Pointer, c, size int) {
	c, size = sizeclass.Fit(n)
	if st.shards == nil {
		return nil, c, size
	}
	pid := pin.Pin() // nothing here may allocate or block
	if pid < len(st.shards) {
		sh := &st.shards[pid]
		if sh.gen != gcGen.Load() {
			sh.flush()
		}
		x = sh.slots[c]
		sh.slots[c] = nil
	}
	pin.Unpin()
	return x, c, size
}

// give stores x in the slot of class c of the caller's P if that slot is
// empty, and reports whether it did.
func (st *slicesState) give(c int, x unsafe.Pointer) bool {
	ok := false
	pid := pin.Pin()
	if pid < len(st.shards) {
		sh := &st.shards[pid]
		if sh.gen != gcGen.Load() {
			sh.flush()
		}
		if sh.slots[c] == nil {
			sh.slots[c] = x
			ok = true
		}
	}
	pin.Unpin()
	return ok
}

// flush empties the shard's slots after a collection, so that they keep
// arrays alive no longer than a sync.Pool would once the pool is used again.
// Its goroutine is pinned to the shard's P.
func (sh *slicesShard) flush() {
	clear(sh.slots)
	sh.gen = gcGen.Load()
}

// Stats returns a snapshot of the pool's counters over all classes, with the
// same meaning as Pool's: News counts the slices Get had to allocate, Drops
// the slices Put did not keep, and Gets and Puts are counted only when
// CountAll is set. Under load the snapshot is approximate, as for Pool.
func (s *Slices[E]) Stats() Stats {
	if s == nil {
		panic("reuse: Slices.Stats called on a nil *Slices")
	}
	st := s.st.Load()
	if st == nil {
		return Stats{}
	}
	r := Stats{News: st.news.Load(), Drops: st.drops.Load()}
	if st.all != nil {
		r.Gets = st.all.Sum(countGets)
		r.Puts = st.all.Sum(countPuts)
	}
	return r
}
