package reuse

import (
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
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
	//
	// Accept may also reset the value it keeps, with Reset left nil: Put
	// then makes one call through a function value instead of two, which is
	// most of what the hooks cost on a small value.
	Accept func(T) bool

	// CountAll makes Stats report every Get and Put; News and Drops are
	// always reported. See "# Cost of counting" in the package
	// documentation.
	CountAll bool

	// mode is how T is stored, decided at first use; 0 before.
	mode atomic.Uint32
	// slots holds one value per P in front of items (see poolSlot).
	slots perp.Slots[poolSlot, struct{}, *poolSlot]
	// items holds T itself when T is pointer-shaped (storing it in an interface
	// does not allocate), and *T boxes otherwise.
	items sync.Pool
	// boxes holds emptied *T boxes for the next Put, for non-pointer-shaped T.
	boxes sync.Pool

	_ [64]byte // keep the rare counters off the lines read on every call

	news  atomic.Uint64
	drops atomic.Uint64
}

// paddedBox is a slot's own box, for T that is not one pointer word, padded
// so that no other object's memory shares its cache lines: boxes allocated
// one after the other for different Ps would otherwise sit on one line, and
// every Get and Put on one P would invalidate the other's (measured:
// Pool[[]byte] in parallel 5.8x slower).
type paddedBox[T any] struct {
	_ [128]byte
	v T
	_ [128]byte
}

// poolSlot is a Pool's slot of one P.
type poolSlot struct {
	perp.Base[struct{}]
	// val is the value Put last on the P, nil when empty: T itself when T
	// is one pointer word (modeWord), box otherwise. The sweep may empty it.
	val unsafe.Pointer
	// box is the slot's own box for a T that is not one word, nil until the
	// P's first Put of one: Put copies the value in and sets val to box; Get
	// copies it out and empties val alone. So each op stores one pointer
	// word less than moving the box between val and a spare, and Get does
	// not zero the box: it keeps a copy of the value Get took until the
	// next Put on the P overwrites it, or the sweep drops the box (one value
	// per P, as val keeps one; see "# Retention"). The sweep empties it with
	// val.
	box unsafe.Pointer
	_   [perp.SlotSize - unsafe.Sizeof(perp.Base[struct{}]{}) - 2*unsafe.Sizeof(uintptr(0))]byte
}

// Sweep is a Pool's retention rule, applied to each slot after every
// collection: a slot taken from since the previous sweep keeps its value (a
// second chance, so that a pool of costly values, gzip writers say, is not
// rebuilt after each collection); any other is emptied, box included. So a
// value Put into a pool nobody takes from survives the next collection and
// is released by the one after, as a sync.Pool releases its values.
func (sl *poolSlot) Sweep(used bool) (held bool) {
	if !used {
		perp.Clear(&sl.val)
		perp.Clear(&sl.box)
	}
	return perp.Holds(&sl.val) || perp.Holds(&sl.box)
}

// Bits of Pool.mode.
const (
	modeInit    = 1 << iota // set once decided, so that mode is never 0 after first use
	modeDirect              // T is stored in sync.Pool's interface as is; otherwise through a *T box
	modeWord                // T is one pointer word: the slot holds it; otherwise a box
	modeNilable             // a T can be nil, and a nil T is never kept
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
//
// A value from the pool has been through Reset, when Reset is set. Get may
// treat the pool as empty at any time, as sync.Pool's Get may: do not assume
// any relation between the values Put and those Get returns. Outside the
// debug build, Get allocates nothing but what New does. It panics on a nil
// *Pool.
func (p *Pool[T]) Get() T {
	if p == nil {
		panic("reuse: Pool.Get: nil *Pool")
	}
	if perp.OK {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		if sl := p.slots.At(pid); sl != nil {
			sl.CountGet(p.CountAll)
			// A slot holds a value only after a Put, which decided mode.
			if v := sl.Take(&sl.val); v != nil {
				var x T
				if p.mode.Load()&modeWord != 0 {
					x = p.fromWord(v)
				} else {
					x = p.fromBox(v) // v is sl.box, which serves the next Put
				}
				perp.Unpin()
				if debug.Enabled {
					debugGot(p, x)
				}
				return x
			}
			perp.Unpin()
			return p.getShared()
		}
		perp.Unpin()
		p.slots.Grow() // for the next call
	}
	if p.CountAll {
		p.slots.CountGet()
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
	v := unbox[T](unsafe.Pointer(x.(*T))) // empties the box: it must not keep the value's memory alive
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
		panic("reuse: Pool.Put: nil *Pool")
	}
	if !putAllowed(p, x) {
		return // a double Put, reported by the debug build: storing it twice would hand it out twice
	}
	mode := p.mode.Load()
	if mode == 0 {
		mode = p.init()
	}
	if p.dropsNil(mode, &x) {
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
	seal(x)
	if perp.OK {
		pid := perp.Pin() // nothing may allocate, block or call user code until Unpin
		if sl := p.slots.At(pid); sl != nil {
			sl.CountPut(p.CountAll)
			if sl.val == nil { // else taken: x goes behind
				if mode&modeWord != 0 {
					sl.val = toWord(&x)
					perp.Unpin()
					return
				}
				b := sl.box // once: the sweep may empty it
				if b == nil {
					perp.Unpin()
					p.putBoxed(x) // the P's first box
					return
				}
				intoBox(b, x)
				sl.val = b
				perp.Unpin()
				return
			}
			perp.Unpin()
			p.putShared(x)
			return
		}
		perp.Unpin()
		p.slots.Grow() // for the next call
	}
	if p.CountAll {
		p.slots.CountPut()
	}
	p.putShared(x)
}

// putAllowed is the debug build's check for a double Put (see debug.go), and
// true in a normal build.
func putAllowed[T any](p *Pool[T], x T) bool {
	if !debug.Enabled {
		return true
	}
	return debugPut(p, x)
}

// seal is the debug build's snapshot of x before it is stored (see
// debug.go), and nothing in a normal build.
func seal[T any](x T) {
	if debug.Enabled {
		debugSeal(x)
	}
}

// putBoxed is Put's path when the caller's slot is empty but has no box for
// a T that is not one pointer word: the first Put on a P, and the first after
// the slot's box was released. It makes the slot a padded box of its own.
func (p *Pool[T]) putBoxed(x T) {
	b := &new(paddedBox[T]).v
	*b = x
	pid := perp.Pin()
	if sl := p.slots.At(pid); sl != nil && sl.val == nil && sl.box == nil {
		sl.val, sl.box = unsafe.Pointer(b), unsafe.Pointer(b)
		perp.Unpin()
		return
	}
	perp.Unpin()
	p.items.Put(b)
}

// putShared is Put's path when the caller's slot is taken.
func (p *Pool[T]) putShared(x T) {
	if p.mode.Load()&modeDirect != 0 {
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

// init decides, once per pool, how T is stored. Concurrent first uses
// decide the same.
func (p *Pool[T]) init() uint32 {
	mode := uint32(modeInit)
	switch reflect.TypeFor[T]().Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Chan, reflect.Func:
		mode |= modeDirect | modeWord | modeNilable
	case reflect.Interface:
		// Converting an interface to any does not allocate, but an
		// interface is two words: the slot holds it in a box.
		mode |= modeDirect | modeNilable
	case reflect.Slice:
		mode |= modeNilable
	}
	p.mode.Store(mode)
	return mode
}

// Stats returns a snapshot of the pool's counters. The counters are read one
// at a time while other goroutines may be updating them, so a snapshot taken
// under load is approximate; each counter is exact once the pool is quiet.
func (p *Pool[T]) Stats() Stats {
	if p == nil {
		panic("reuse: Pool.Stats: nil *Pool")
	}
	s := Stats{News: p.news.Load(), Drops: p.drops.Load()}
	if p.CountAll {
		s.Gets, s.Puts = p.slots.Counters()
	}
	return s
}
