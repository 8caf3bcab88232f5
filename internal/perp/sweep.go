package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"
)

// The sweep runs once after every garbage collection, on the finalizer
// goroutine, from the first use of any Slots on. It visits every Slots still
// alive through weak pointers, so that it never keeps a pool alive, and
// forgets the ones the collector has freed. A short Slots (MakeShort) is
// held strongly instead, and only while it holds an array or a victim: its
// sweep then lets it go (see Slots.sweep), so that an idle pool keeps no
// weak handle nor registry entry, and is registered again by its next Make.

var registry struct {
	mu         sync.Mutex // protects all the fields below
	all        []weak.Pointer[Slots]
	spare      []weak.Pointer[Slots] // reused by sweepAll, so a sweep does not allocate
	short      []*Slots              // the short Slots; only sweepAll removes entries
	shortSpare []*Slots              // reused by sweepAll
	once       sync.Once
}

// sweeps counts the sweeps run, for tests. started counts the sweeps begun,
// and finished holds the number, in that count, of the last sweep that
// ended: Collect uses them to wait for a sweep that began after its
// collection, not one already under way.
var sweeps, started, finished atomic.Uint64

// Sweeps returns how many sweeps have run since the program started. Tests
// use it to wait for the sweep that follows a collection.
func Sweeps() uint64 { return sweeps.Load() }

// add registers s with the sweep: strongly when short.
func add(s *Slots, short bool) {
	if short {
		registry.mu.Lock()
		registry.short = append(registry.short, s)
		registry.mu.Unlock()
	} else {
		w := weak.Make(s)
		registry.mu.Lock()
		registry.all = append(registry.all, w)
		registry.mu.Unlock()
	}
	registry.once.Do(watch)
}

// watcher is kept unreachable: its finalizer runs after each collection that
// finds it so, sweeps, and sets itself again.
type watcher struct {
	_ *watcher // a pointer, so the tiny allocator does not batch it
	_ [8]byte
}

func watch() { runtime.SetFinalizer(new(watcher), onGC) }

func onGC(w *watcher) {
	k := started.Add(1)
	sweepAll()
	finished.Store(k)
	sweeps.Add(1)
	runtime.SetFinalizer(w, onGC)
}

// sweepAll sweeps every live Slots and forgets the dead ones. It works on a
// copy of the list so that a Slots registering meanwhile never waits for the
// sweep of others, and so that no lock of the registry is held while a
// Slots' own lock is taken.
func sweepAll() {
	registry.mu.Lock()
	list := append(registry.spare[:0], registry.all...)
	short := append(registry.shortSpare[:0], registry.short...)
	registry.mu.Unlock()

	dead := 0
	for _, w := range list {
		if s := w.Value(); s != nil {
			s.sweep()
		} else {
			dead++
		}
	}
	gone := 0
	for i, s := range short {
		if !s.sweep() {
			short[i] = nil
			gone++
		}
	}

	registry.mu.Lock()
	if gone > 0 {
		forget(short)
	}
	clear(short)
	registry.shortSpare = nil
	if cap(short) <= 2*max(cap(registry.short), 32) { // not after a shrink
		registry.shortSpare = short[:0]
	}
	if dead > 0 {
		live := registry.all[:0]
		for _, w := range registry.all {
			if w.Value() != nil {
				live = append(live, w)
			}
		}
		clear(registry.all[len(live):])
		registry.all = live
	}
	clear(list)
	registry.spare = list[:0]
	registry.mu.Unlock()
}

// forget removes from registry.short the entries of the sweep's copy swept
// set to nil. The copy is a prefix of registry.short, which only grows at
// its end meanwhile: a Slots let go and registered again since is kept
// there. The caller holds registry.mu.
func forget(swept []*Slots) {
	all := registry.short
	kept := 0
	for i, s := range all {
		if i >= len(swept) || swept[i] != nil {
			all[kept] = s
			kept++
		}
	}
	clear(all[kept:])
	all = all[:kept]
	if cap(all) > 64 && kept < cap(all)/4 {
		// Shrink, so that pools gone idle leave no long array behind
		// (8 bytes each).
		all = append([]*Slots(nil), all...)
	}
	registry.short = all
}

// Registered returns the number of Slots the sweep knows, dead ones not yet
// forgotten included. It is for tests.
func Registered() int {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return len(registry.all) + len(registry.short)
}
