package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// The sweep runs once after every garbage collection, on the finalizer
// goroutine, from the first use of any Slots on. The registry holds every
// Slots that has an array or a victim (or whose owner's OnSweep function asks
// to be swept), and the sweep lets each go once it has neither: so an idle
// pool keeps no registry entry, and a Grow registers it again.

// sweeper is a Slots, of any slot type.
type sweeper interface{ sweep() (keep bool) }

// entry is a Slots' entry in the registry, inside the Slots: so that an
// entry of the registry's arrays is one word.
type entry struct{ s sweeper }

var registry struct {
	mu    sync.Mutex // protects all the fields below
	all   []*entry   // only sweepAll removes entries
	spare []*entry   // reused by sweepAll, so that a sweep does not allocate
	once  sync.Once
}

// sweeps counts the sweeps run, for tests and Shelves. started counts the
// sweeps begun, and finished holds the number, in that count, of the last
// sweep that ended: Collect uses them to wait for a sweep that began after
// its collection, not one already under way.
var sweeps, started, finished atomic.Uint64

// Sweeps returns how many sweeps have run since the program started. Tests
// use it to wait for the sweep that follows a collection.
func Sweeps() uint64 { return sweeps.Load() }

// hold registers e with the sweep.
func hold(e *entry) {
	registry.mu.Lock()
	registry.all = append(registry.all, e)
	registry.mu.Unlock()
	registry.once.Do(watch)
}

// watcher is kept unreachable: its finalizer runs after each collection that
// finds it so, sweeps, and arms a new watcher.
type watcher struct {
	_ *watcher // a pointer, so the tiny allocator does not batch it
	_ [8]byte
}

// watch arms a new watcher. It is not inlined, so that no frame of its
// caller holds the watcher.
//
//go:noinline
func watch() { runtime.SetFinalizer(new(watcher), onGC) }

// afterSweep, when set, is called at the end of each sweep, once finished
// is published: for the test of a collection run at that point.
var afterSweep atomic.Pointer[func()]

// onGC sweeps, and arms the next watcher before it publishes the sweep's
// end. Not the watcher it was given: the runtime keeps a finalizer's
// argument reachable until the finalizer returns, so a collection run
// meanwhile (a Collect that saw the sweep end) finds that one reachable and
// queues no sweep, and Collect waited 30 s for one. The new watcher is
// unreachable from the moment watch returns, so every collection that
// begins after finished is published finds it so.
func onGC(*watcher) {
	k := started.Add(1)
	sweepAll()
	watch()
	finished.Store(k)
	sweeps.Add(1)
	if f := afterSweep.Load(); f != nil {
		(*f)()
	}
}

// sweepAll sweeps every registered Slots and lets go of those that need no
// more sweeps. It works on a copy of the list so that a Slots registering
// meanwhile never waits for the sweep of others, and so that no lock of the
// registry is held while a Slots' own lock is taken.
func sweepAll() {
	registry.mu.Lock()
	list := append(registry.spare[:0], registry.all...)
	registry.mu.Unlock()

	gone := 0
	for i, e := range list {
		if !e.s.sweep() {
			list[i] = nil
			gone++
		}
	}

	registry.mu.Lock()
	if gone > 0 {
		forget(list)
	}
	clear(list)
	registry.spare = nil
	if cap(list) <= 2*max(cap(registry.all), 32) { // not after a shrink
		registry.spare = list[:0]
	}
	registry.mu.Unlock()
}

// forget removes from registry.all the entries the sweep's copy set to nil.
// The copy is a prefix of registry.all, which only grows at its end
// meanwhile: a Slots let go and registered again since is kept there. The
// caller holds registry.mu.
func forget(swept []*entry) {
	all := registry.all
	kept := 0
	for i, e := range all {
		if i >= len(swept) || swept[i] != nil {
			all[kept] = e
			kept++
		}
	}
	clear(all[kept:])
	all = all[:kept]
	if cap(all) > 64 && kept < cap(all)/4 {
		// Shrink, so that pools gone idle leave no long array behind
		// (8 bytes each).
		all = append([]*entry(nil), all...)
	}
	registry.all = all
}

// Registered returns the number of Slots the sweep holds. It is for tests.
func Registered() int {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	return len(registry.all)
}
