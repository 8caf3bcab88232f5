package perp

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// Helpers for the tests of the per-P pools, here so that every package's
// tests share them.

// Collect runs n garbage collections, each followed by the sweep of the
// per-P slots, and then waits for the cleanups queued by the last one: it
// drops an object with a cleanup before the last collection and waits, up
// to thirty seconds, for that cleanup to have run, then yields to the other
// cleanup goroutines. It reports false if a sweep or the cleanup did not
// come in time, which only a stuck finalizer or cleanup can cause.
// reusetest.Collect is this with n = 1.
func Collect(n int) bool {
	registry.once.Do(watch) // so that Sweeps counts collections even where no Slots is used
	ok := true
	var done atomic.Bool
	for i := range n {
		if i == n-1 {
			dropSentinel(&done)
		}
		// Let a sweep under way end first: a collection that runs while
		// the watcher is being finalized queues no sweep of its own, and
		// the end of the one under way would be mistaken for it. k is
		// the started count that finished matched, not a later load: a
		// sweep that begins between the two would then be the one
		// Collect waits past, and a collection during it queues none.
		var k uint64
		ok = wait(func() bool { k = started.Load(); return finished.Load() == k }) && ok
		runtime.GC()
		ok = wait(func() bool { return finished.Load() > k }) && ok
	}
	if n > 0 {
		ok = wait(done.Load) && ok
	}
	for range 4 * runtime.GOMAXPROCS(0) {
		runtime.Gosched()
	}
	if !ok {
		dumpStacks()
	}
	return ok
}

var dumped atomic.Bool

// dumpStacks writes every goroutine's stack to standard error, once per
// process: a Collect that timed out means a stuck finalizer or cleanup, and
// the stacks show which (TestSlicesLeakReportedAfterGrace waited 30 s for
// one in a CI run, and nothing else said why).
func dumpStacks() {
	if dumped.Swap(true) {
		return
	}
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	fmt.Fprintf(os.Stderr, "perp.Collect: a sweep or a cleanup did not come within 30 s; every goroutine:\n%s\n", buf)
}

// dropSentinel allocates an object that nothing references once it
// returns, with a cleanup that sets done. 64 bytes keeps it out of the tiny
// allocator, which would batch it with other objects.
//
//go:noinline
func dropSentinel(done *atomic.Bool) {
	runtime.AddCleanup(new([64]byte), func(d *atomic.Bool) { d.Store(true) }, done)
}

// wait polls cond until it is true or thirty seconds have passed, and
// reports cond's last result.
func wait(cond func() bool) bool {
	for deadline := time.Now().Add(30 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Microsecond)
	}
	return true
}

// Spread runs f iters times on each of goroutines goroutines started
// together, with some work between calls so that the scheduler spreads them
// over every P (without it, short goroutines all run on the P that started
// them).
func Spread(goroutines, iters int, f func()) {
	start := make(chan struct{})
	var wg sync.WaitGroup
	for range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			for range iters {
				f()
				spin()
			}
		}()
	}
	close(start)
	wg.Wait()
}

// SpreadUntil runs Spread(goroutines, iters, f) until done reports true, for
// up to ten seconds, and returns the number of rounds it ran. The scheduler
// decides which Ps the goroutines run on, and on a loaded machine one round
// may run them all on one P: tests that need more than one P to have run f
// wait on done for it instead of failing.
func SpreadUntil(goroutines, iters int, f func(), done func() bool) int {
	rounds := 0
	for deadline := time.Now().Add(10 * time.Second); ; {
		Spread(goroutines, iters, f)
		rounds++
		if done() || time.Now().After(deadline) {
			return rounds
		}
	}
}

var spinSink atomic.Int64

// spin does about 20 µs of work.
func spin() {
	x := 0
	for i := range 20000 {
		x += i * i
	}
	spinSink.Store(int64(x))
}

// Handoff runs put on one P and then take on another, and reports whether
// take ran; when it did not, skip says why where a test should skip (no Ps
// to tell apart, or only one), and is empty where no goroutine found itself
// on a second P within five seconds, a failure.
//
// Two goroutines that never block run on two Ps at once (GOMAXPROCS 2 for
// the call): the first to claim put runs it, and then says from which P;
// the first that finds itself on another P runs take.
func Handoff(put, take func()) (ran bool, skip string) {
	if !OK {
		return false, "no Ps to tell apart (race detector or TinyGo)"
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if runtime.GOMAXPROCS(0) < 2 {
		return false, "one P only (js/wasm)"
	}
	var claimed, done atomic.Bool
	var from atomic.Int32
	from.Store(-1)
	took := make(chan bool, 2)
	for range 2 {
		go func() {
			deadline := time.Now().Add(5 * time.Second)
			for !done.Load() {
				if time.Now().After(deadline) {
					if done.CompareAndSwap(false, true) {
						took <- false
					}
					return
				}
				p := int32(pid())
				if claimed.CompareAndSwap(false, true) {
					put()
					from.Store(p)
					continue
				}
				if f := from.Load(); f >= 0 && f != p && done.CompareAndSwap(false, true) {
					take()
					took <- true
					return
				}
			}
		}()
	}
	return <-took, ""
}

// TB is the part of testing.TB that OnOnePNoGC uses.
type TB interface {
	Helper()
	Skip(args ...any)
	Cleanup(func())
}

// OnOnePNoGC skips t where there are no per-P slots, and runs it on one P
// (so that the slot a test reads is the one its Gets and Puts use) with the
// collector off (so that no sweep but the test's own empties the slots
// between its steps).
func OnOnePNoGC(t TB) {
	t.Helper()
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	procs := runtime.GOMAXPROCS(1)
	gc := debug.SetGCPercent(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(gc)
		runtime.GOMAXPROCS(procs)
	})
}
