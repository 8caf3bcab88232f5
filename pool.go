package reuse

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/stripe"
)

// Pool is a typed pool of values of type T over sync.Pool.
//
// The zero value is ready to use: Get then returns the zero T when the pool is
// empty. Set New, Reset and Accept before the first Get or Put and do not change
// them afterwards. A Pool is safe for use by multiple goroutines and must not be
// copied after first use.
//
// Put transfers ownership of x to the pool: the caller must not use x, or any
// memory reachable only through it, after Put. See the package documentation.
//
// Like sync.Pool, a Pool may drop any value at any time, in particular at every
// garbage collection; it retains at most what sync.Pool retains, which is bounded
// by what was Put since the previous two collections.
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

	// CountAll makes Stats count every Get and Put. It is off by default because
	// counting costs a striped atomic add on each call (see "# Cost of
	// counting" in the package documentation); News and Drops are always
	// counted.
	CountAll bool

	// items holds T itself when T is pointer-shaped (storing it in an interface
	// does not allocate), and *T boxes otherwise.
	items sync.Pool
	// mode is 0 until the first Put decides how T is stored: see initMode.
	mode atomic.Uint32
	// all holds the Get and Put counters once CountAll is used.
	all atomic.Pointer[stripe.Counters]
	// boxes holds emptied *T boxes for the next Put, for non-pointer-shaped
	// T. (A per-P stack of boxes, tried instead, cost as many instructions as
	// this second sync.Pool and kept boxes across collections.)
	boxes sync.Pool

	_ [64]byte // keep the rare counters off the lines read on every call

	news  atomic.Uint64
	drops atomic.Uint64
}

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

// Bits of Pool.mode.
const (
	modeSet     = 1 << iota // the mode has been decided
	modeDirect              // T is stored in the interface as is; otherwise through a *T box
	modeNilable             // a T can be nil, and a nil T is never kept
	modeHooks               // Accept, Reset or CountAll is set

	// modeFast is a pointer-shaped T with no hooks: Put only checks for nil.
	modeFast = modeSet | modeDirect | modeNilable
)

// Counter indexes in the striped counters.
const (
	countGets = iota
	countPuts
)

// Get takes a value from the pool, or returns New() when the pool is empty
// (the zero T when New is nil). The caller owns the value until it Puts it.
func (p *Pool[T]) Get() T {
	if p == nil {
		panic("reuse: Pool.Get called on a nil *Pool")
	}
	if p.CountAll {
		p.count(countGets)
	}
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
	return p.miss()
}

// miss is Get's path when the pool is empty.
func (p *Pool[T]) miss() T {
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
	p.boxes.Put(b)
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
	// The common case, a pointer with no hooks, checks one word of mode.
	// Every nilable kind keeps its nil-ness in its first word: the pointer,
	// the slice's array, the interface's type.
	if p.mode.Load() == modeFast && *(*unsafe.Pointer)(unsafe.Pointer(&x)) != nil {
		if debug.Enabled {
			debugSeal(x)
		}
		p.items.Put(x)
		return
	}
	p.put(x)
}

// put is Put's general path: first Put, nil values, hooks, and boxing.
func (p *Pool[T]) put(x T) {
	m := p.mode.Load()
	if m == 0 {
		m = p.initMode()
	}
	if m&modeNilable != 0 && *(*unsafe.Pointer)(unsafe.Pointer(&x)) == nil {
		p.drops.Add(1)
		return
	}
	if p.Accept != nil && !p.Accept(x) {
		p.drops.Add(1)
		return
	}
	if p.Reset != nil {
		p.Reset(x)
	}
	if debug.Enabled {
		debugSeal(x)
	}
	if p.CountAll {
		p.count(countPuts)
	}
	if m&modeDirect != 0 {
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

// initMode decides, once per pool, how T is stored and whether Put can take
// the fast path. Concurrent first Puts compute and store the same value. That is why New, Reset, Accept and CountAll must be set
// before first use.
func (p *Pool[T]) initMode() uint32 {
	m := uint32(modeSet)
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		m |= modeDirect | modeNilable
	case reflect.Interface:
		// Converting an interface to any does not allocate.
		m |= modeDirect | modeNilable
	case reflect.Slice:
		m |= modeNilable
	}
	if p.Accept != nil || p.Reset != nil || p.CountAll {
		m |= modeHooks
	}
	p.mode.Store(m)
	return m
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
	return s
}
