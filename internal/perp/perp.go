// Package perp is the one per-processor (per-P) cache mechanism of the module:
// a slot per P in front of a shared pool, the way sync.Pool keeps a private
// value per P. reuse.Pool, reuse.Slices and bytebuf.Pool use it; nothing else
// in the module keeps values per P. Shelves (shelves.go) is the other half,
// for values by class: a stack per class and P that every P takes from,
// which ages by the sweeps below without being registered with them.
//
// Each owner declares its own slot type, which embeds Base first, is padded
// to SlotSize, and has a Sweep method: the owner's retention rule, stated
// once, beside the type. Slots[S, K, P] holds the arrays of such slots.
//
// # The rules
//
//   - Sized lazily: a Slots holds no array of slots until its first Grow, and
//     then one slot per P (GOMAXPROCS at that time).
//   - Follows GOMAXPROCS: a P whose id is beyond the array (GOMAXPROCS was
//     raised, as Go 1.25 and later do on their own when a container's CPU
//     limit changes) finds no slot, and the owner's Grow makes a larger
//     array. An array never has fewer slots than one before it: slots of Ps
//     that no longer run (GOMAXPROCS was lowered) are emptied by the sweep
//     like idle ones.
//   - The sweep: after every garbage collection it visits every registered
//     Slots and calls each slot's Sweep with whether a value was taken from
//     it (Base.Take) since the previous sweep. Sweep empties what the
//     owner's rule says: reuse.Pool and reuse.Slices keep the values of a
//     slot taken from (a second chance, which spares rebuilding a costly
//     value after each collection); bytebuf.Pool empties every slot, so that
//     a Buffer lasts no longer than in a sync.Pool.
//   - Idle pools keep no per-P memory: when no slot holds a value after the
//     sweep, the array goes to a weak pointer, the victim, which the owner's
//     next Grow takes back unless the collector freed it first. So a pool
//     whose use ended before a collection keeps no per-P memory after the
//     next one. An array made because the collector freed the victim starts
//     P 0's state (Base.State: bytebuf's sizing) where the victim's P 0 left
//     it, so that the owner's state of P 0 does not depend on whether the
//     collections came back to back.
//   - Counters are never lost to a replacement: each slot counts the calls
//     of its P (CountGet, CountPut), and the counters of an array replaced
//     or let go are folded into the Slots' own. One count can miss: that of
//     a goroutine pinned to the array as the sweep lets it go, when the
//     collector frees the victim before a Grow takes it back, that is when
//     the pool's use ends at that moment. An owner that needs exact
//     counters after the end of its use holds the victim (HoldVictim).
//
// # Concurrency
//
// A slot is written only by goroutines pinned to its P (see pin.go), with
// plain loads and stores, and by the sweep, which only ever stores nil into
// the value words the owner's Sweep empties, and 0 into the mark of a use.
// The sweep never hands a value out, so a race between the two can only lose
// a value to the garbage collector, never give one to two owners. The value
// words are pointer words: Go never tears a word-sized store.
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

// SlotSize is the size of every owner's slot type: two cache lines, because
// adjacent-line prefetching on x86 makes 64-byte padding share a line in
// practice.
const SlotSize = 128

// Base is the part of a slot that perp reads: the counters, the mark of a
// use, and the owner's State. An owner's slot type embeds it as its first
// field: the counters then come first in the slot, which keeps them 64-bit
// aligned on 32-bit platforms (the first word of an allocated array is, and
// slots are SlotSize apart), where Counters reads them with atomic loads.
type Base[K any] struct {
	gets, puts uint64
	used       uint32
	// State is the owner's state of the P, which outlives what the slot
	// holds: the sweep never touches it, and P 0's is carried over to the
	// next array when the collector frees the victim (bytebuf keeps its
	// sizing here; reuse.Pool and reuse.Slices have none).
	State K
}

func (b *Base[K]) base() *Base[K] { return b }

// CountGet and CountPut count a Get or a Put in the slot of the caller's P,
// to which it is pinned. Where a 64-bit store is never torn, they count with
// a plain add, which costs less than a test of whether to count: they then
// count always, and want is unused. Elsewhere they count with an atomic add
// (so that Counters' atomic loads see whole values), only when want is true.
// An owner that counts on request reports the counts only when asked.
func (b *Base[K]) CountGet(want bool) {
	if plainAdd {
		b.gets++
	} else if want {
		atomic.AddUint64(&b.gets, 1)
	}
}

// CountPut: see CountGet.
func (b *Base[K]) CountPut(want bool) {
	if plainAdd {
		b.puts++
	} else if want {
		atomic.AddUint64(&b.puts, 1)
	}
}

// plainAdd is true where a 64-bit store is never torn.
const plainAdd = unsafe.Sizeof(uintptr(0)) == 8

// Take empties *v, a value word of the slot b begins, and returns what it
// held, nil if nothing. A value taken marks the slot used until the next
// sweep, which then passes used true to the slot's Sweep. The caller is
// pinned to the slot's P.
func (b *Base[K]) Take(v *unsafe.Pointer) unsafe.Pointer {
	x := *v
	if x != nil {
		*v = nil
		b.used = 1
	}
	return x
}

// Clear empties the value word *v for a Sweep method, with an atomic store
// (the owner may be using the slot on its P), and only when it is not empty
// already, so that the sweep does not write lines it need not.
func Clear(v *unsafe.Pointer) {
	if atomic.LoadPointer(v) != nil {
		atomic.StorePointer(v, nil)
	}
}

// Empty is Clear for a typed pointer word.
func Empty[T any](v **T) { Clear((*unsafe.Pointer)(unsafe.Pointer(v))) }

// Holds reports, for a Sweep method, whether the value word *v holds a value.
func Holds(v *unsafe.Pointer) bool { return atomic.LoadPointer(v) != nil }

// Slot is the constraint on an owner's slot type S, through its pointer P:
// S embeds Base[K] first and is SlotSize bytes (Grow checks both), and P
// has the method the sweep calls.
type Slot[S, K any] interface {
	*S
	base() *Base[K]
	// Sweep applies the owner's retention rule to the slot, after a
	// collection: used reports whether a value was taken from it since the
	// previous sweep. It empties value words with Clear or Empty only, and
	// reports whether the slot still holds a value (Holds). It runs on the
	// finalizer goroutine, while the slot's P may be using the slot.
	Sweep(used bool) (held bool)
}

// Slots holds a slot of type S for each P. The zero value is ready to use; a
// Slots must not be copied after first use. Embed it in the structure it
// serves: the sweep holds it while it has an array or a victim, and lets it
// go after, so an idle pool's Slots is not kept alive by the sweep.
type Slots[S, K any, P Slot[S, K]] struct {
	// n is the number of slots of the current array, never lowered: Grow
	// publishes an array of more slots before it raises n, and At loads n
	// before the array, so the array At loads has at least the n it loaded
	// (sync.Pool's pin loads localSize and local in the same opposite
	// order). A victim taken back has n slots, as every current array.
	n   atomic.Uint32
	arr atomic.Pointer[S] // P 0's slot of the current array; nil before the first Grow and while let go

	mu sync.Mutex // protects the fields below, and replacing arr
	// cur is the current array, arr's.
	cur []S
	// victim is the last array let go, held weakly until the owner's next
	// Grow takes it back; victimGets and victimPuts are its counters as the
	// sweep let it go, folded if the collector frees it.
	victim                 weak.Pointer[S]
	victimGets, victimPuts uint64
	// held is the victim while HoldVictim holds it, until the next sweep.
	held []S
	// p0 is the State of P 0 of the last array let go, for an array made
	// because the collector freed it.
	p0 K
	// retired holds the arrays Grow replaced since the last sweep, and
	// retiring those replaced before it, whose counters are not yet in gets
	// and puts: a goroutine pinned to an array when it is replaced may still
	// add to its counters, and none stays pinned across a collection, so a
	// sweep folds the counters of the arrays replaced before the previous
	// sweep.
	retired, retiring [][]S
	// registered is true while the sweep holds this Slots, by entry.
	registered bool
	entry      entry
	// onSweep is the owner's, set by OnSweep.
	onSweep func(idle bool) (keep bool)

	// gets and puts hold the counters folded from the arrays let go or
	// replaced, and the calls counted where there was no slot.
	gets, puts atomic.Uint64
}

// At returns the slot of P pid, or nil when there is none: before the first
// Grow, after the sweep let the array go, or for a P beyond it. The caller
// is pinned to pid (Pin returned it) and stays pinned while it uses the
// slot; it must not allocate, block or call user code until Unpin. At is the
// one way to a P's slot:
//
//	pid := perp.Pin()
//	if sl := s.At(pid); sl != nil {
//		... plain loads and stores of sl's fields, sl.Take ...
//		perp.Unpin()
//		return
//	}
//	perp.Unpin()
//	s.Grow() // so that the next call has a slot
//	... the shared pool ...
func (s *Slots[S, K, P]) At(pid int) P {
	n := s.n.Load() // before arr: see n
	a := s.arr.Load()
	if uint(pid) >= uint(n) || a == nil {
		return nil
	}
	return P(unsafe.Add(unsafe.Pointer(a), uintptr(pid)*SlotSize))
}

// First returns P 0's slot of the current array, nil while there is none,
// for state of the whole array that an owner keeps there (bytebuf hangs its
// class pools from it). The caller is not pinned: it may read and write only
// the fields it accesses atomically everywhere.
func (s *Slots[S, K, P]) First() P { return P(s.arr.Load()) }

// Grow gives s an array with a slot for every P, unless it has one: at
// first use, after the sweep let the array go (taking back the victim if the
// collector has not freed it), and when GOMAXPROCS has grown past it. A
// replaced array is dropped (its counters are kept, see retired): a goroutine
// still pinned to it may finish its operation there, and what it stores is
// lost to the garbage collector, never handed out twice. The caller must not
// be pinned. Where OK is false it does nothing.
func (s *Slots[S, K, P]) Grow() {
	if !OK {
		return
	}
	procs := runtime.GOMAXPROCS(0)
	s.mu.Lock()
	if s.cur == nil {
		s.takeBack()
	}
	if len(s.cur) < procs {
		a := make([]S, max(procs, int(s.n.Load())))
		first := P(&a[0])
		if uintptr(unsafe.Pointer(first.base())) != uintptr(unsafe.Pointer(first)) || unsafe.Sizeof(a[0]) != SlotSize {
			s.mu.Unlock()
			panic("perp: Slots.Grow: a slot type must embed Base first and be SlotSize bytes")
		}
		if s.cur == nil {
			first.base().State = s.p0
		} else {
			s.retired = append(s.retired, s.cur)
		}
		s.cur = a
		s.arr.Store(first)
		s.n.Store(uint32(len(a))) // after arr: see n
	}
	s.register()
	s.mu.Unlock()
}

// takeBack installs the victim as the current array, if the collector has not
// freed it; otherwise it folds the victim's counters. The caller holds s.mu.
func (s *Slots[S, K, P]) takeBack() {
	if s.held != nil {
		s.cur, s.held, s.victim = s.held, nil, weak.Pointer[S]{}
		s.arr.Store(&s.cur[0])
		return
	}
	if s.victim == (weak.Pointer[S]{}) {
		return
	}
	v := s.victim.Value()
	s.victim = weak.Pointer[S]{}
	if v == nil {
		s.gets.Add(s.victimGets)
		s.puts.Add(s.victimPuts)
		return
	}
	s.cur = unsafe.Slice(v, s.n.Load())
	s.arr.Store(v)
}

// register has the sweep hold s, unless it does already. The caller holds
// s.mu.
func (s *Slots[S, K, P]) register() {
	if !s.registered {
		s.registered = true
		s.entry.s = s
		hold(&s.entry)
	}
}

// OnSweep sets, on its first call, a function that each sweep calls after it
// has visited the slots, with idle true when nothing was taken from any slot
// since the previous sweep, and registers s with the sweep, also where it has
// no array (where OK is false, the function still runs after each
// collection). The function decides alone whether the sweep goes on holding
// s: it reports false once its owner no longer needs s swept (a Grow or
// OnSweep registers s again). It runs on the finalizer goroutine: it must be
// quick, must not block and must not panic. Later calls do not change it.
func (s *Slots[S, K, P]) OnSweep(f func(idle bool) (keep bool)) {
	s.mu.Lock()
	if s.onSweep == nil {
		s.onSweep = f
	}
	s.register()
	s.mu.Unlock()
}

// CountGet and CountPut count a Get or a Put of a caller that is not pinned:
// in the slot of its P, or where there is none, with an atomic add to
// counters all Ps share.
func (s *Slots[S, K, P]) CountGet() { s.count((*Base[K]).CountGet, &s.gets) }

// CountPut: see CountGet.
func (s *Slots[S, K, P]) CountPut() { s.count((*Base[K]).CountPut, &s.puts) }

// count counts with inc in the caller's slot, or in shared where it has none.
func (s *Slots[S, K, P]) count(inc func(*Base[K], bool), shared *atomic.Uint64) {
	if OK {
		pid := Pin()
		if sl := s.At(pid); sl != nil {
			inc(sl.base(), true)
			Unpin()
			return
		}
		Unpin()
	}
	shared.Add(1)
}

// sum returns the sums of the counters of array a.
func sum[S, K any, P Slot[S, K]](a []S) (gets, puts uint64) {
	for i := range a {
		b := P(&a[i]).base()
		gets += atomic.LoadUint64(&b.gets)
		puts += atomic.LoadUint64(&b.puts)
	}
	return gets, puts
}

// Counters returns the sums of the counts of every slot, over the current
// array or the victim and every array replaced before, and of the calls
// counted without a slot. Under concurrent use it is a snapshot that may miss
// increments in flight.
func (s *Slots[S, K, P]) Counters() (gets, puts uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	gets, puts = s.gets.Load(), s.puts.Load()
	add := func(a []S) {
		g, p := sum[S, K, P](a)
		gets, puts = gets+g, puts+p
	}
	for _, a := range s.retired {
		add(a)
	}
	for _, a := range s.retiring {
		add(a)
	}
	if s.cur != nil {
		add(s.cur)
	} else if s.held != nil {
		add(s.held)
	} else if s.victim != (weak.Pointer[S]{}) {
		if v := s.victim.Value(); v != nil {
			add(unsafe.Slice(v, s.n.Load()))
		} else {
			gets, puts = gets+s.victimGets, puts+s.victimPuts
		}
	}
	return gets, puts
}

// Len returns the number of slots of the current array, 0 when there is
// none. It is for tests and diagnostics.
func (s *Slots[S, K, P]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.cur)
}

// Each calls f with every slot of the current array, for tests and
// diagnostics; f must not keep the slot.
func (s *Slots[S, K, P]) Each(f func(pid int, sl P)) {
	s.mu.Lock()
	a := s.cur
	s.mu.Unlock()
	for i := range a {
		f(i, P(&a[i]))
	}
}

// sweep applies the owners' retention rule to s (see the package
// documentation) and reports whether the sweep should go on holding s.
func (s *Slots[S, K, P]) sweep() (keep bool) {
	s.mu.Lock()
	s.foldRetired()
	if s.held != nil {
		// A collection ran since HoldVictim: no goroutine is pinned to
		// the array any more, and its counters are final.
		s.victimGets, s.victimPuts = sum[S, K, P](s.held)
		s.held = nil
	}
	idle, held := true, false
	for i := range s.cur {
		sl := P(&s.cur[i])
		b := sl.base()
		used := atomic.LoadUint32(&b.used) != 0
		if used {
			atomic.StoreUint32(&b.used, 0)
			idle = false
		}
		if sl.Sweep(used) {
			held = true
		}
	}
	if s.cur != nil && !held {
		s.letGo()
	} else if s.cur == nil && s.victim != (weak.Pointer[S]{}) && s.victim.Value() == nil {
		s.takeBack() // folds the freed victim's counters
	}
	holds := s.cur != nil || s.victim != (weak.Pointer[S]{})
	f := s.onSweep
	if f == nil {
		s.registered = holds
		s.mu.Unlock()
		return holds
	}
	// Unregistered before f runs: an owner that makes what f lets go and
	// then calls OnSweep either finds s unregistered and registers it
	// again, or has what it made let go by f.
	s.registered = false
	s.mu.Unlock()
	if !f(idle) {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.registered {
		return false // registered again meanwhile, as a new entry
	}
	s.registered = true
	return true
}

// letGo makes the current array, whose slots hold nothing, the victim. The
// caller holds s.mu.
func (s *Slots[S, K, P]) letGo() {
	s.victimGets, s.victimPuts = sum[S, K, P](s.cur)
	first := P(&s.cur[0])
	s.p0 = first.base().State
	s.victim = weak.Make((*S)(first))
	s.cur = nil
	s.arr.Store(nil)
}

// HoldVictim holds the victim strongly, if the collector has not freed it,
// until the next sweep, which sums its counters again: a goroutine pinned
// to the array as the sweep let it go may have counted there after the
// sweep summed it. So Counters after that sweep misses no count. An owner
// that stops using s calls it from its OnSweep function, and asks for that
// sweep (reuse.Slices does, when it drops a state).
func (s *Slots[S, K, P]) HoldVictim() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil || s.held != nil || s.victim == (weak.Pointer[S]{}) {
		return
	}
	if v := s.victim.Value(); v != nil {
		s.held = unsafe.Slice(v, s.n.Load())
	}
}

// foldRetired adds the counters of the arrays replaced before the previous
// sweep to s's own, and lets those arrays go. The caller holds s.mu.
func (s *Slots[S, K, P]) foldRetired() {
	for _, a := range s.retiring {
		g, p := sum[S, K, P](a)
		s.gets.Add(g)
		s.puts.Add(p)
	}
	clear(s.retiring)
	s.retiring, s.retired = s.retired, s.retiring[:0]
}
