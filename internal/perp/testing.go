package perp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Helpers for the tests of the per-P pools, here so that every package's
// tests share them.

// Collect runs n garbage collections, each followed by the sweep of the
// per-P slots, and then waits for the cleanups queued by the last one: it
// drops an object with a cleanup before the last collection and waits, up
// to ten seconds, for that cleanup to have run.
func Collect(n int) {
	registry.once.Do(watch) // so that Sweeps counts collections even where no Slots is used
	var done atomic.Bool
	for i := range n {
		if i == n-1 {
			runtime.AddCleanup(new([16]byte), func(d *atomic.Bool) { d.Store(true) }, &done)
		}
		s := Sweeps()
		runtime.GC()
		wait(func() bool { return Sweeps() != s })
	}
	if n > 0 {
		wait(done.Load)
	}
}

// wait polls cond until it is true or ten seconds have passed.
func wait(cond func() bool) {
	for deadline := time.Now().Add(10 * time.Second); !cond() && time.Now().Before(deadline); {
		time.Sleep(50 * time.Microsecond)
	}
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

var spinSink atomic.Int64

// spin does about 20 µs of work.
func spin() {
	x := 0
	for i := range 20000 {
		x += i * i
	}
	spinSink.Store(int64(x))
}
