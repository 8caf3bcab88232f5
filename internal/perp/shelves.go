package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Shelves keeps values by class for every P: a stack per class and P, from
// which a P takes first, and when it is empty from the other Ps' shelves.
// Nothing on a shelf is out of any P's reach, unlike the private value a
// sync.Pool keeps per P. So a goroutine that moves between Ps finds on the
// next P what it left on the last, where a sync.Pool per class would hold a
// value of every class on every P it visited, and so hold more the more Ps
// there are. A shelf takes a lock, without pinning, uncontended but for a
// P that takes from another's: a Put and a Get on one goroutine cost 16 ns
// against 11 for a sync.Pool (BenchmarkShelvesPutGet, 2 cores), which
// bytebuf pays only where a P's own stack of Buffers cannot serve.
//
// A class's shelves are made at its first Put, 64 bytes for each P, so
// classes never used cost a pointer each.
//
// A value on a shelf lasts as in a sync.Pool: the first Get or Put after a
// sweep moves every shelf's values aside, where a Get still finds them, and
// the first after the next sweep drops them. Use NewShelves.
type Shelves[T any] struct {
	ps    int
	cs    []atomic.Pointer[[]shelf[T]] // cs[c]: class c's shelves, one per P; nil before its first Put
	swept atomic.Uint64
}

type shelf[T any] struct {
	mu        sync.Mutex
	vals, old []*T
	_         [8]byte // one shelf per cache line on 64-bit platforms
}

// NewShelves returns Shelves of classes 0 to classes-1, with a shelf for
// each P (GOMAXPROCS now; a P beyond shares one).
func NewShelves[T any](classes int) *Shelves[T] {
	sh := &Shelves[T]{ps: runtime.GOMAXPROCS(0), cs: make([]atomic.Pointer[[]shelf[T]], classes)}
	sh.swept.Store(sweeps.Load())
	registry.once.Do(watch) // the sweeps age the shelves
	return sh
}

// age moves the values of every shelf aside, and drops those it moved aside
// before, at its first call after each sweep; after two sweeps or more since
// the last call, it drops them all. Get and Put call it when a sweep ran
// since the last call.
func (sh *Shelves[T]) age() {
	n := sweeps.Load()
	last := sh.swept.Swap(n)
	if last == n {
		return
	}
	for c := range sh.cs {
		ss := sh.cs[c].Load()
		if ss == nil {
			continue
		}
		for i := range *ss {
			s := &(*ss)[i]
			s.mu.Lock()
			clear(s.old)
			s.old, s.vals = s.vals, s.old[:0]
			if n-last > 1 {
				clear(s.old)
				s.old = s.old[:0]
			}
			s.mu.Unlock()
		}
	}
}

// Classes returns the number of classes.
func (sh *Shelves[T]) Classes() int { return len(sh.cs) }

// pid returns the caller's P, a hint that may be stale by its use.
func pid() int {
	p := Pin()
	Unpin()
	return p
}

// Get returns a value of class c, or nil: the value last put on the
// caller's P's shelf, or when it is empty one from another P's whose lock
// is free (so it may miss a value another P is putting meanwhile). A class
// out of range has none.
func (sh *Shelves[T]) Get(c int) (v *T) {
	if sh.swept.Load() != sweeps.Load() {
		sh.age()
	}
	if uint(c) >= uint(len(sh.cs)) {
		return nil
	}
	ss := sh.cs[c].Load()
	if ss == nil {
		return nil
	}
	p := pid()
	for i := range sh.ps {
		s := &(*ss)[(p+i)%sh.ps]
		if i == 0 {
			s.mu.Lock()
		} else if !s.mu.TryLock() {
			continue
		}
		// The value put last, else the last of those moved aside.
		if n := len(s.vals) - 1; n >= 0 {
			v, s.vals[n], s.vals = s.vals[n], nil, s.vals[:n]
		} else if n := len(s.old) - 1; n >= 0 {
			v, s.old[n], s.old = s.old[n], nil, s.old[:n]
		}
		s.mu.Unlock()
		if v != nil {
			return v
		}
	}
	return nil
}

// Put keeps v in class c, on the caller's P's shelf.
func (sh *Shelves[T]) Put(c int, v *T) {
	if sh.swept.Load() != sweeps.Load() {
		sh.age()
	}
	ss := sh.cs[c].Load()
	if ss == nil {
		n := make([]shelf[T], sh.ps)
		sh.cs[c].CompareAndSwap(nil, &n) // a Put on another P may have made them first
		ss = sh.cs[c].Load()
	}
	s := &(*ss)[pid()%sh.ps]
	s.mu.Lock()
	s.vals = append(s.vals, v)
	s.mu.Unlock()
}
