// Package perp is the one per-processor (per-P) cache mechanism of the module:
// a slot per P in front of a shared pool, the way sync.Pool keeps a private
// value per P. reuse.Pool, reuse.Slices and bytebuf.Pool use it; nothing else
// in the module keeps values per P. Shelves (shelves.go) is the other half,
// for values by class: a stack per class and P that every P takes from,
// which ages by the sweeps below without being registered with them.
//
// # The rules
//
//   - Sized lazily: a Slots holds no array of slots until its first use, and
//     then one slot per P (GOMAXPROCS at that time).
//   - Follows GOMAXPROCS: a P whose id is beyond the array (GOMAXPROCS was
//     raised, as Go 1.25 and later do on their own when a container's CPU
//     limit changes) makes a larger array at its next use. Slots of Ps that no
//     longer run (GOMAXPROCS was lowered) are emptied by the sweep below like
//     idle ones.
//   - One retention rule, a second chance: after every garbage collection a
//     sweep visits every live Slots. A slot from which a value was taken
//     since the previous sweep keeps what it holds; any other slot is
//     emptied. So a value Put into a pool that nobody takes from survives the
//     next collection and is released by the one after, exactly as
//     sync.Pool's victim cache treats the values behind the slots; in a pool
//     in use, a slot's value survives until a collection interval passes in
//     which its P took nothing from it. When no slot of a Slots served a
//     Get between two sweeps, the sweep also releases the whole array, and the
//     next use makes a new one: an idle pool keeps no per-P memory. An owner
//     whose values are cheap to make again can decline the second chance
//     (MakeShort, bytebuf.Pool): the sweep then empties every slot, so that a
//     value lasts no longer than in a sync.Pool, and holds the emptied array
//     only by weak pointer, which the next Make takes back unless the
//     collector freed it first: a Slots whose use ended before a collection
//     keeps no per-P memory after the next one.
//
// # Concurrency
//
// A slot is written only by goroutines pinned to its P (see pin.go), with
// plain loads and stores, and by the sweep, which only ever stores nil into
// Val and Val2 and 0 into Used. The sweep never hands a value out, so a race
// between the two can only lose a value to the garbage collector, never give
// one to two owners (an owner that moves Val to Val2 while the sweep empties
// Val keeps it one interval longer). Val and Val2 are pointer words: Go
// never tears a word-sized store.
//
// Under the race detector and TinyGo, OK is false: callers do not use
// slots at all and fall back to their shared pool.
package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
	"weak"
)

// SlotSize is the size of a Slot: two cache lines, because adjacent-line
// prefetching on x86 makes 64-byte padding share a line in practice.
const SlotSize = 128

// Slot is one P's cache entry. The owner (a goroutine pinned to the P) reads
// and writes every field with plain loads and stores; see the package
// documentation for what the sweep may do concurrently.
type Slot struct {
	// Gets and Puts are counters for the owner's use (reuse.Pool's CountAll).
	// They come first for 64-bit alignment on 32-bit platforms; Stats reads
	// them with atomic loads.
	Gets, Puts uint64
	// Val is the cached value, nil when the slot is empty. The sweep may set
	// it to nil at any time; an owner that reads a non-nil Val owns that
	// value once it has stored nil in its place.
	Val unsafe.Pointer
	// Spare is the owner's alone: the sweep never touches it (reuse.Pool
	// keeps an empty box there for its next Put; bytebuf.Pool its per-P
	// cache of arrays, which its own onSweep detaches with an atomic swap).
	Spare unsafe.Pointer
	// Aux describes Val for the owner (reuse.Slices keeps its class size).
	// It may be stale when the sweep has emptied Val: read Val last.
	Aux uintptr
	// Val2 and Aux2 are a second value and its description, with the same
	// rules as Val and Aux (reuse.Slices keeps the slice Put before the
	// last there).
	Val2 unsafe.Pointer
	Aux2 uintptr
	// used is set by Take and Take2 and cleared by the sweep. It and Depth
	// come before Stack, so that an owner that uses no Stack (reuse.Pool,
	// reuse.Slices) touches the first 64 bytes of its slot alone.
	used uint32
	// Depth is the owner's alone, its count of Stack's entries in use: an
	// entry below it may be nil after a sweep.
	Depth uint32
	// Stack holds more values, with the same rules as Val: the sweep may
	// set any of them to nil at any time (bytebuf.Pool keeps a stack of
	// Buffers there).
	Stack [StackLen]unsafe.Pointer
	_     [SlotSize - 16 - (5+StackLen)*unsafe.Sizeof(uintptr(0)) - 8]byte
}

// StackLen is the number of entries of Slot.Stack.
const StackLen = 6

// Slots is a set of per-P slots. The zero value is ready to use; a Slots
// must not be copied after first use. Embed it in the structure it serves: the
// sweep keeps only a weak pointer to it, so it lives and dies with its owner.
type Slots struct {
	// arr points to the slot of P 0 in the current array, or is nil before
	// first use and after the sweep released an idle array. The array's
	// element 0, just before that slot, is a header whose Aux is the number
	// of Ps the array serves (written once, before the array is published,
	// and never after: it shares no line that is written); elements 1 to n
	// are the slots of Ps 0 to n-1. Pointing past the header saves At an
	// add.
	arr atomic.Pointer[Slot]
	// served is a number of Ps that every array published since it was
	// first set serves at least (0: none published yet). It is set before
	// the first array is published and lowered before a smaller one is,
	// never raised: so At, which reads it after the array, on the line of
	// arr, reads the array's header (a line of its own) only for a P at or
	// past it.
	served atomic.Int32

	mu sync.Mutex // protects replacing arr, and registered
	// registered is true while the sweep knows this Slots: from its first
	// use on, or for a short Slots, while it holds an array or a victim.
	registered bool
	// onSweep is set by MakeWith and MakeKept.
	onSweep func(idle bool)
	// kept is set by MakeKept: the sweep never releases the array.
	kept bool
	// short is set by MakeShort: the sweep empties every slot, taken from
	// since the previous sweep or not, and then holds the array only by
	// victim, which the next Make takes back if the collector has not freed
	// it.
	short  bool
	victim weak.Pointer[Slot] // the array's header; protected by mu
	// p0 holds P 0's Aux, Aux2 and Depth (above its low byte, which counts
	// Stack's entries) as the sweep of a short Slots found them when it let
	// the array go. An array made because the collector freed that one
	// starts P 0 from them: so the owner's state of P 0 (bytebuf's sizing)
	// is the same whether or not collections came back to back. Protected
	// by mu.
	p0 [3]uintptr
	// gets and puts hold the counters of the arrays that were replaced.
	gets, puts atomic.Uint64
	// retired holds the arrays grow replaced since the last sweep, and
	// retiring those replaced before it, whose counters are not yet in gets
	// and puts: a goroutine pinned to an array when it is replaced may
	// still add to its counters, and none stays pinned across a collection,
	// so a sweep folds the counters of the arrays replaced before the
	// previous sweep. Protected by mu.
	retired, retiring []*Slot
}

// Load returns the current array, for At: load it before Pin, so that
// the pinned section holds only plain memory accesses. It may be nil.
func (s *Slots) Load() *Slot { return s.arr.Load() }

// At returns the slot of P pid in the array a returned by Load, or nil when a
// is nil or has no slot for pid. The caller is pinned to pid (Pin
// returned it) and stays pinned while it uses the slot; it must not allocate,
// block or call user code until Unpin:
//
//	a := s.Load()
//	pid := Pin()
//	if sl := perp.At(a, pid); sl != nil {
//		if v := sl.Take(); v != nil { ... }  // a Get
//		... or plain loads and stores of Val, Spare, Aux ...
//		Unpin()
//		return
//	}
//	Unpin()
//	s.Grow() // on a Put
//	... the shared pool ...
//
// At and Take are small enough to inline; Pin and Unpin are the runtime's
// own.
func At(a *Slot, pid int) *Slot {
	// Len(a) and Of(a, pid), written out: each inlined call leaves a
	// marker instruction in the caller.
	if a == nil || uint(pid) >= uint((*Slot)(unsafe.Add(unsafe.Pointer(a), -SlotSize)).Aux) {
		return nil
	}
	return (*Slot)(unsafe.Add(unsafe.Pointer(a), uintptr(pid)*SlotSize))
}

// Take empties the slot and returns what it held, nil if nothing; a value
// taken marks the slot as used, which keeps what it holds next through the
// following sweep. The caller is pinned to the slot's P.
func (sl *Slot) Take() unsafe.Pointer { return sl.take(&sl.Val) }

// Take2 is Take for Val2.
func (sl *Slot) Take2() unsafe.Pointer { return sl.take(&sl.Val2) }

// take empties *w, sl's Val or Val2, and returns what it held.
func (sl *Slot) take(w *unsafe.Pointer) unsafe.Pointer {
	v := *w
	if v != nil {
		*w = nil
		sl.used = 1
	}
	return v
}

// Make makes the array, at first use and after the sweep released it, and
// returns it. The caller must not be pinned.
func (s *Slots) Make() *Slot {
	s.Grow()
	return s.arr.Load()
}

// MakeWith is Make that also sets, on its first call, a function that each
// sweep calls after it has visited the slots, with idle true when nothing
// was taken from any slot since the previous sweep (the array is then
// released). bytebuf.Pool releases its other caches with it. onSweep runs on
// the finalizer goroutine: it must be quick, must not block and must not
// panic. Later calls do not change it.
func (s *Slots) MakeWith(onSweep func(idle bool)) *Slot {
	s.mu.Lock()
	if s.onSweep == nil {
		s.onSweep = onSweep
	}
	s.mu.Unlock()
	return s.Make()
}

// MakeKept is MakeWith for an owner that lets go of the whole Slots when
// onSweep reports it idle (reuse.Slices drops its state): the sweep still
// empties unused slots but never releases the array, so that where OK is
// true the array Load returns is never nil once MakeKept has returned, and
// the hot paths can use Len and Of without testing for nil.
func (s *Slots) MakeKept(onSweep func(idle bool)) *Slot {
	s.mu.Lock()
	s.kept = true
	s.mu.Unlock()
	return s.MakeWith(onSweep)
}

// MakeShort is MakeWith for an owner whose values are cheap to make again
// (bytebuf.Pool's Buffers): the sweep empties every slot, not only those
// nothing was taken from, so that a value Put lasts no longer than in a
// sync.Pool, whose collection frees it by the second collection after the
// Put. The sweep then lets the array go too (see letGo): Load returns nil
// until the owner's next Make, which takes the same array back if no
// collection freed it, so an owner must Make after a nil Load before it
// stores, as it does at first use. Without MakeShort, a slot its P takes
// from keeps its value through a collection: a second chance that spares
// rebuilding a costly value (a gzip writer) after each collection, and that
// keeps one value per P for one collection more than a sync.Pool. The cost
// is one slot per P emptied at each collection, so that the next Get on that
// P goes to the owner's shared pool, and one Make taking the array back.
func (s *Slots) MakeShort(onSweep func(idle bool)) *Slot {
	s.mu.Lock()
	s.short = true
	s.mu.Unlock()
	return s.MakeWith(onSweep)
}

// Header returns the header of the non-nil array a (as Load returns it),
// just before P 0's slot. Its Spare is the owner's, for a value that lives
// as long as the array does (bytebuf.Pool hangs its class pools there):
// the sweep never touches it, and any goroutine may set it, with an atomic
// store.
func Header(a *Slot) *Slot { return (*Slot)(unsafe.Add(unsafe.Pointer(a), -SlotSize)) }

// Len returns the number of Ps the non-nil array a (as Load returns it)
// serves, from the header just before P 0's slot.
func Len(a *Slot) int { return int(Header(a).Aux) }

// Of returns the slot of P pid in the non-nil array a, pid < Len(a).
func Of(a *Slot, pid int) *Slot {
	return (*Slot)(unsafe.Add(unsafe.Pointer(a), uintptr(pid)*SlotSize))
}

// Grow makes the array on first use, after the sweep released it, or
// larger when GOMAXPROCS has grown past it. The caller must not be pinned.
// Where slots are not used (OK is false) it makes no array, but still has
// the sweep visit s, so that the owner's onSweep runs after each collection
// there too (reuse.Slices lets go of its state when idle).
func (s *Slots) Grow() {
	if OK {
		s.grow()
	} else {
		s.register() // no slots, but the owner's onSweep still runs after each collection
	}
}

// register makes the sweep visit s, unless it does already.
func (s *Slots) register() {
	s.mu.Lock()
	register := !s.registered
	s.registered = true
	short := s.short
	s.mu.Unlock()
	if register {
		add(s, short)
	}
}

// grow makes an array with a slot for every P, unless the current one has
// them already, and registers s with the sweep on first use. What the
// replaced array held is dropped (its counters are kept, see retired): a
// goroutine still pinned to it may finish its operation there, and what it
// stores is lost to the garbage collector, never handed out twice.
func (s *Slots) grow() {
	n := runtime.GOMAXPROCS(0)
	s.mu.Lock()
	old := s.arr.Load()
	if old == nil {
		old = s.recover() // replaced below if it has too few slots
	}
	if old == nil || Len(old) < n {
		arr := make([]Slot, n+1)
		arr[0].Aux = uintptr(n)
		if old == nil {
			arr[1].Aux, arr[1].Aux2, arr[1].Depth = s.p0[0], s.p0[1], uint32(s.p0[2])
		}
		s.retire(old)
		s.serve(n)
		s.arr.Store(&arr[1])
	}
	s.mu.Unlock()
	s.register()
}

// recover takes back the array that the last sweep of a short Slots let go
// (see MakeShort), if the collector has not freed it, installs it and
// returns it; nil otherwise. The caller holds s.mu.
func (s *Slots) recover() *Slot {
	h := s.victim.Value()
	s.victim = weak.Pointer[Slot]{}
	if h == nil {
		return nil
	}
	a := (*Slot)(unsafe.Add(unsafe.Pointer(h), SlotSize))
	s.serve(Len(a))
	s.arr.Store(a)
	return a
}

// serve lowers served to n, if it is above, before an array of n slots is
// published. The caller holds s.mu.
func (s *Slots) serve(n int) {
	if c := s.served.Load(); c == 0 || int32(n) < c {
		s.served.Store(int32(n))
	}
}

// At is perp.At for an array a that s.Load returned: it reads the array's
// header only for a P that not every array of s has served.
func (s *Slots) At(a *Slot, pid int) *Slot {
	if uint(pid) < uint(s.served.Load()) && a != nil {
		return (*Slot)(unsafe.Add(unsafe.Pointer(a), uintptr(pid)*SlotSize))
	}
	return At(a, pid)
}

// plainAdd is true where a slot's owner may increment its counters with
// plain adds: a 64-bit store is never torn there, so the atomic loads of
// Counters see whole values. 32-bit platforms use atomic adds.
const plainAdd = unsafe.Sizeof(uintptr(0)) == 8

// Add adds one to *n, a Gets or Puts counter of a slot the caller is pinned
// to.
func Add(n *uint64) {
	if plainAdd {
		*n++
	} else {
		atomic.AddUint64(n, 1)
	}
}

// Count adds one to the Gets counter (get true) or the Puts counter of the
// calling goroutine's P's slot, for a Get or Put that did not go through its
// slot; where there is no slot for it, to counters shared by all Ps, with an
// atomic add.
func (s *Slots) Count(get bool) {
	if OK {
		a := s.Load()
		pid := Pin()
		if sl := At(a, pid); sl != nil {
			if get {
				Add(&sl.Gets)
			} else {
				Add(&sl.Puts)
			}
			Unpin()
			return
		}
		Unpin()
	}
	if get {
		s.gets.Add(1)
	} else {
		s.puts.Add(1)
	}
}

// retire keeps a, an array being replaced, for its counters to be folded
// two sweeps later (see retired). The caller holds s.mu.
func (s *Slots) retire(a *Slot) {
	if a != nil {
		s.retired = append(s.retired, a)
	}
}

// foldRetired adds the counters of the arrays replaced before the previous
// sweep to s's own, and lets those arrays go. The sweep calls it.
func (s *Slots) foldRetired() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.retiring {
		g, p := sum(a)
		s.gets.Add(g)
		s.puts.Add(p)
	}
	s.retiring, s.retired = s.retired, nil
}

// sum returns the sums of the Gets and Puts counters of array a.
func sum(a *Slot) (gets, puts uint64) {
	for i := range Len(a) {
		sl := Of(a, i)
		gets += atomic.LoadUint64(&sl.Gets)
		puts += atomic.LoadUint64(&sl.Puts)
	}
	return gets, puts
}

// Counters returns the sums of the slots' Gets and Puts, over the current
// array and every array replaced before it. Under concurrent use it is a
// snapshot that may miss increments in flight.
func (s *Slots) Counters() (gets, puts uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gets, puts = s.gets.Load(), s.puts.Load()
	add := func(a *Slot) {
		g, p := sum(a)
		gets, puts = gets+g, puts+p
	}
	if a := s.arr.Load(); a != nil {
		add(a)
	}
	for _, a := range s.retired {
		add(a)
	}
	for _, a := range s.retiring {
		add(a)
	}
	return gets, puts
}

// Len returns the number of Ps the current array serves, 0 when there is
// none. It is for tests and diagnostics.
func (s *Slots) Len() int {
	if a := s.arr.Load(); a != nil {
		return Len(a)
	}
	return 0
}

// Each calls f with every slot of the current array, for tests and
// diagnostics; f must not keep the slot.
func (s *Slots) Each(f func(pid int, sl *Slot)) {
	if a := s.arr.Load(); a != nil {
		for i := range Len(a) {
			f(i, Of(a, i))
		}
	}
}

// sweep applies the retention rule to s: it empties every slot from which
// nothing was taken since the previous sweep, and releases the array when
// that is all of them. It reports whether the sweep should keep s: false
// for a short Slots left with no array and no victim, which it marks
// unregistered.
func (s *Slots) sweep() (keep bool) {
	s.foldRetired()
	s.mu.Lock()
	short := s.short
	s.mu.Unlock()
	idle := true
	if a := s.arr.Load(); a != nil {
		for i := range Len(a) {
			sl := Of(a, i)
			if atomic.LoadUint32(&sl.used) != 0 {
				atomic.StoreUint32(&sl.used, 0)
				idle = false
				if !short {
					continue // the second chance (see MakeShort)
				}
			}
			if atomic.LoadPointer(&sl.Val) != nil {
				atomic.StorePointer(&sl.Val, nil)
			}
			if atomic.LoadPointer(&sl.Val2) != nil {
				atomic.StorePointer(&sl.Val2, nil)
			}
			for k := range sl.Stack {
				if atomic.LoadPointer(&sl.Stack[k]) != nil {
					atomic.StorePointer(&sl.Stack[k], nil)
				}
			}
		}
		if idle {
			s.mu.Lock()
			if s.arr.Load() == a && !s.kept && !short {
				// Folded now, not retired: an idle pool keeps no per-P
				// memory (a Put in flight on a pool idle for a whole
				// interval may lose its count, not its value). A short
				// Slots' array goes to the victim in letGo instead, whose
				// weak pointer lets an owner that holds it by other means
				// take it back.
				g, p := sum(a)
				s.gets.Add(g)
				s.puts.Add(p)
				s.arr.Store(nil)
			}
			s.mu.Unlock()
		}
	}
	keep = !short || s.letGo()
	// After the decision: an owner that makes what onSweep lets go and
	// then registers s (bytebuf's class pools where there are no slots)
	// either finds s unregistered and registers it again, or has what it
	// made let go below.
	s.mu.Lock()
	f := s.onSweep
	s.mu.Unlock()
	if f != nil {
		f(idle)
	}
	return keep
}

// letGo is the end of the sweep of a short Slots: it turns the array,
// emptied, into the victim (replacing the victim the previous sweep left,
// if a Make took that back), after adding its counters to s's own. So a pool in use makes no
// array after each collection (its next Make takes the victim back), and
// one whose use ended before a collection holds no per-P memory after the
// next one, as a sync.Pool, whose victim cache the collection after that
// frees. It reports whether the sweep should keep s: false once s has no
// array and no victim, which it marks unregistered.
func (s *Slots) letGo() (keep bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.arr.Load()
	if a == nil || s.kept {
		// No Make took the victim back since the last sweep: keep the
		// weak pointer, which the collector clears when it frees the
		// array, unless the owner holds it by other means (bytebuf's
		// Buffers point to it); once cleared, let its handle go too, and
		// s: the sweep holds it no longer, until its next Make.
		if s.victim.Value() == nil {
			s.victim = weak.Pointer[Slot]{}
			if a == nil {
				s.registered = false
				return false
			}
		}
		return true
	}
	g, p := sum(a)
	s.gets.Add(g)
	s.puts.Add(p)
	for i := range Len(a) {
		sl := Of(a, i)
		atomic.StoreUint64(&sl.Gets, 0)
		atomic.StoreUint64(&sl.Puts, 0)
	}
	p0 := Of(a, 0)
	s.p0 = [3]uintptr{atomic.LoadUintptr(&p0.Aux), atomic.LoadUintptr(&p0.Aux2), uintptr(atomic.LoadUint32(&p0.Depth) &^ 0xff)}
	s.victim = weak.Make((*Slot)(unsafe.Add(unsafe.Pointer(a), -SlotSize)))
	s.arr.Store(nil)
	return true
}
