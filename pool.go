package reuse

import (
	"reflect"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/pin"
	"github.com/reuse-go/reuse/internal/stripe"
)

// Pool is a typed pool of values of type T.
//
// The zero value is ready to use: Get then returns the zero T when the pool is
// empty. Set New, Reset, Accept and CountAll before the first Get or Put and
// do not change them afterwards. A Pool is safe for use by multiple goroutines
// and must not be copied after first use.
//
// Put transfers ownership of x to the pool: the caller must not use x, or any
// memory reachable only through it, after Put. See the package documentation.
//
// A Pool keeps one value per processor (P) in a slot of its own, and the rest
// in a sync.Pool. Both forget their contents at garbage collection: see
// "# Retention" in the package documentation.
type Pool[T any] struct {
	// New, if non-nil, is called by Get when the pool has nothing to give.
	// When New is nil, Get returns the zero T in that case.
	New func() T

	// Reset, if non-nil, is called by Put before the value is kept, so that Get
	// never hands out state left by the previous user. For a value type (a slice,
	// a struct) Reset receives a copy: it can clear what the value points to but
	// not change the value's own fields or length.
	Reset func(T)

	// Accept, if non-nil, is called by Put first; when it returns false the
	// value is dropped and counted in Stats().Drops. Use it to keep buffers that
	// grew too large out of the pool.
	Accept func(T) bool

	// CountAll makes Stats count every Get and Put. It is off by default
	// because counting costs an increment per call (see "# Cost of counting"
	// in the package documentation); News and Drops are always counted.
	CountAll bool

	// local is set by the first Get or Put: how T is stored, and the per-P
	// slots.
	local atomic.Pointer[poolLocal]
	// items holds T itself when T is pointer-shaped (storing it in an interface
	// does not allocate), and *T boxes otherwise.
	items sync.Pool
	// boxes holds emptied *T boxes for the next Put, for non-pointer-shaped T.
	boxes sync.Pool
	// all holds the Get and Put counters of CountAll where the per-P slots
	// are not used (the race detector, TinyGo, a P added after first use).
	all atomic.Pointer[stripe.Counters]

	_ [64]byte // keep the rare counters off the lines read on every call

	news  atomic.Uint64
	drops atomic.Uint64
}

// poolLocal is what a Pool decides at first use. It is never changed after,
// and read on every call: it is padded so that no neighbouring heap object
// that is written often (a small pooled object, say) shares its cache line
// (measured: parallel Get+Put ran at 2-3x sync.Pool in some runs without it).
type poolLocal struct {
	_    [128]byte
	mode uint32
	// shards has one slot per P at first use; nil where pin.OK is false.
	shards []poolShard
	_      [128]byte
}

// poolShard is one P's slot. Only goroutines pinned to that P read or write
// it, so plain loads and stores are enough; Stats reads the counters with
// atomic loads.
type poolShard struct {
	gets, puts uint64 // counted when CountAll; first, for 64-bit alignment on 32-bit platforms
	// val is the value when T is one pointer word, or the shard's own box
	// (a *T, allocated at first use) otherwise.
	val unsafe.Pointer
	// gen is the gcGen the slot was filled under: a slot filled before the
	// last collection is emptied before use.
	gen  uint32
	full bool
	_    [128 - 32]byte
}

// paddedBox is a shard's own box, padded so that no other object's memory
// shares its cache lines: boxes allocated one after the other for different
// Ps would otherwise sit on one line, and every Get and Put on one P would
// invalidate the other's (measured: Pool[[]byte] in parallel 5.8x slower).
type paddedBox[T any] struct {
	_ [128]byte
	v T
	_ [128]byte
}

// plainCount is true where a shard's owner may increment its counters with
// plain adds: a 64-bit store is never torn, so Stats' atomic loads see whole
// values. 32-bit platforms use atomic adds.
const plainCount = unsafe.Sizeof(uintptr(0)) == 8

func (sh *poolShard) count(n *uint64) {
	if plainCount {
		*n++
	} else {
		atomic.AddUint64(n, 1)
	}
}

// Bits of poolLocal.mode.
const (
	modeDirect  = 1 << iota // T is stored in sync.Pool's interface as is; otherwise through a *T box
	modeWord                // T is one pointer word: the slot holds it; otherwise a box
	modeNilable             // a T can be nil, and a nil T is never kept
	modeHooks               // Accept or Reset is set
)

// Counter indexes in the striped counters.
const (
	countGets = iota
	countPuts
)

// Stats is a snapshot of a pool's counters.
type Stats struct {
	// Gets and Puts count calls to Get and Put. They are counted only while
	// the pool's CountAll field is true, and are 0 otherwise.
	Gets, Puts uint64
	// News counts the calls Get made to New: the times the pool had nothing.
	News uint64
	// Drops counts the values Put did not keep: nil values and values Accept
	// refused.
	Drops uint64
}

// Hits returns the number of Gets served from the pool, Gets - News, or 0 when
// Gets are not counted.
func (s Stats) Hits() uint64 {
	if s.Gets < s.News {
		return 0
	}
	return s.Gets - s.News
}

// Get takes a value from the pool, or returns New() when the pool is empty
// (the zero T when New is nil). The caller owns the value until it Puts it.
func (p *Pool[T]) Get() T {
	if p == nil {
		panic("reuse: Pool.Get called on a nil *Pool")
	}
	l := p.local.Load()
	if l == nil {
		l = p.init()
	}
	if pin.OK {
		pid := pin.Pin() // nothing may allocate, block or call user code until Unpin
		if pid < len(l.shards) {
			sh := &l.shards[pid]
			if sh.gen != gcGen.Load() {
				flush[T](sh, l.mode)
			}
			if p.CountAll {
				sh.count(&sh.gets)
			}
			if sh.full {
				var v T
				if l.mode&modeWord != 0 {
					v = *(*T)(unsafe.Pointer(&sh.val))
					sh.val = nil
				} else {
					b := (*T)(sh.val)
					v = *b
					var zero T
					*b = zero // the box must not keep the value's memory alive
				}
				sh.full = false
				pin.Unpin()
				if debug.Enabled {
					debugGot(p, v)
				}
				return v
			}
			pin.Unpin()
			return p.getShared()
		}
		pin.Unpin()
	}
	if p.CountAll {
		p.count(countGets)
	}
	return p.getShared()
}

// getShared is Get's path when the caller's slot is empty.
func (p *Pool[T]) getShared() T {
	if x := p.items.Get(); x != nil {
		// A pointer-shaped T was stored as is; anything else in a *T box.
		if v, ok := x.(T); ok {
			if debug.Enabled {
				debugGot(p, v)
			}
			return v
		}
		return p.unbox(x)
	}
	if p.New == nil {
		var zero T
		return zero
	}
	p.news.Add(1)
	v := p.New()
	if debug.Enabled {
		debugGot(p, v)
	}
	return v
}

// unbox takes the value out of a *T box and keeps the emptied box for the
// next Put, so that storing a value type does not allocate.
func (p *Pool[T]) unbox(x any) T {
	b := x.(*T)
	v := *b
	var zero T
	*b = zero // the box must not keep the value's memory alive
	p.boxes.Put(x)
	if debug.Enabled {
		debugGot(p, v)
	}
	return v
}

// Put gives x back to the pool. Nil pointers, slices, maps, channels, funcs
// and interfaces are never kept; neither is a value for which Accept returns
// false. Both count as drops. Otherwise Reset, if set, is applied and the value
// is kept for a later Get.
//
// Put transfers ownership: the caller must not touch x afterwards.
func (p *Pool[T]) Put(x T) {
	if p == nil {
		panic("reuse: Pool.Put called on a nil *Pool")
	}
	if debug.Enabled && !debugPut(p, x) {
		return // a double Put, reported; storing it twice would hand it out twice
	}
	l := p.local.Load()
	if l == nil {
		l = p.init()
	}
	// Every nilable kind keeps its nil-ness in its first word: the pointer,
	// the slice's array, the interface's type.
	if l.mode&modeNilable != 0 && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == nil {
		p.drops.Add(1)
		return
	}
	if l.mode&modeHooks != 0 && !p.prepare(x) {
		return
	}
	if debug.Enabled {
		debugSeal(x)
	}
	if pin.OK {
		pid := pin.Pin() // nothing may allocate, block or call user code until Unpin
		if pid < len(l.shards) {
			sh := &l.shards[pid]
			if sh.gen != gcGen.Load() {
				flush[T](sh, l.mode)
			}
			if p.CountAll {
				sh.count(&sh.puts)
			}
			if !sh.full {
				if l.mode&modeWord != 0 {
					sh.val = *(*unsafe.Pointer)(unsafe.Pointer(&x))
				} else {
					*(*T)(sh.val) = x
				}
				sh.full = true
				pin.Unpin()
				return
			}
			pin.Unpin()
			p.putShared(x, l.mode)
			return
		}
		pin.Unpin()
	}
	if p.CountAll {
		p.count(countPuts)
	}
	p.putShared(x, l.mode)
}

// prepare runs Accept and Reset on x, and reports whether x is to be kept.
func (p *Pool[T]) prepare(x T) bool {
	if p.Accept != nil && !p.Accept(x) {
		p.drops.Add(1)
		return false
	}
	if p.Reset != nil {
		p.Reset(x)
	}
	return true
}

// putShared is Put's path when the caller's slot is taken.
func (p *Pool[T]) putShared(x T, mode uint32) {
	if mode&modeDirect != 0 {
		p.items.Put(x)
		return
	}
	b, _ := p.boxes.Get().(*T)
	if b == nil {
		b = new(T)
	}
	*b = x
	p.items.Put(b)
}

// flush empties a slot filled before the last garbage collection, so that it
// keeps nothing alive longer than the sync.Pool behind it would. The caller is
// pinned to the slot's P.
func flush[T any](sh *poolShard, mode uint32) {
	if sh.full {
		if mode&modeWord != 0 {
			sh.val = nil
		} else {
			var zero T
			*(*T)(sh.val) = zero
		}
		sh.full = false
	}
	sh.gen = gcGen.Load()
}

// init decides, once per pool, how T is stored, and makes the per-P slots.
// Concurrent first uses may each build one; the first stored wins.
func (p *Pool[T]) init() *poolLocal {
	l := new(poolLocal)
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		l.mode = modeDirect | modeWord | modeNilable
	case reflect.Interface:
		// Converting an interface to any does not allocate, but an
		// interface is two words: the slot holds it in a box.
		l.mode = modeDirect | modeNilable
	case reflect.Slice:
		l.mode = modeNilable
	}
	if p.Accept != nil || p.Reset != nil {
		l.mode |= modeHooks
	}
	if pin.OK {
		gcWatchOnce.Do(watchGC)
		l.shards = make([]poolShard, runtime.GOMAXPROCS(0))
		gen := gcGen.Load()
		for i := range l.shards {
			l.shards[i].gen = gen
			if l.mode&modeWord == 0 {
				l.shards[i].val = unsafe.Pointer(&new(paddedBox[T]).v)
			}
		}
	}
	if !p.local.CompareAndSwap(nil, l) {
		l = p.local.Load()
	}
	return l
}

func (p *Pool[T]) count(i int) {
	c := p.all.Load()
	if c == nil {
		c = stripe.New()
		if !p.all.CompareAndSwap(nil, c) {
			c = p.all.Load()
		}
	}
	c.Add(i)
}

// Stats returns a snapshot of the pool's counters. The counters are read one
// at a time while other goroutines may be updating them, so a snapshot taken
// under load is approximate; each counter is exact once the pool is quiet.
func (p *Pool[T]) Stats() Stats {
	if p == nil {
		panic("reuse: Pool.Stats called on a nil *Pool")
	}
	s := Stats{News: p.news.Load(), Drops: p.drops.Load()}
	if c := p.all.Load(); c != nil {
		s.Gets = c.Sum(countGets)
		s.Puts = c.Sum(countPuts)
	}
	if l := p.local.Load(); l != nil {
		for i := range l.shards {
			s.Gets += atomic.LoadUint64(&l.shards[i].gets)
			s.Puts += atomic.LoadUint64(&l.shards[i].puts)
		}
	}
	return s
}
