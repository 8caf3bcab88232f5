package perp

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcCycles returns how many collections have completed.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestCollectionAtSweepEndIsSwept runs a Collect at the end of a sweep,
// once the sweep has published that it finished and before its finalizer
// returns, and requires that its collection is swept. The runtime keeps a
// finalizer's argument reachable until the finalizer returns: when the
// sweep re-armed the watcher it was given, that collection found it
// reachable and queued no sweep, and the Collect waited 30 s for one
// (TestSlicesLeakReportedAfterGrace failed so in a CI run).
func TestCollectionAtSweepEndIsSwept(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection but the test's own
	if !Collect(1) {
		t.Fatal("Collect before the test did not finish")
	}
	type window struct {
		gcs   uint64 // the collections run in the window
		swept chan bool
	}
	at := make(chan window, 1)
	hook := func() {
		afterSweep.Store(nil) // once
		w := window{swept: make(chan bool, 1)}
		n := gcCycles()
		go func() { w.swept <- Collect(1) }()
		// Return once that Collect's collection is over.
		for deadline := time.Now().Add(30 * time.Second); gcCycles() == n && time.Now().Before(deadline); {
			time.Sleep(50 * time.Microsecond)
		}
		w.gcs = gcCycles() - n
		at <- w
	}
	afterSweep.Store(&hook)
	defer afterSweep.Store(nil)
	runtime.GC()
	w := <-at
	if w.gcs != 1 {
		t.Fatalf("%d collections ran while the sweep was ending, want 1 (the Collect's)", w.gcs)
	}
	if !<-w.swept {
		t.Fatal("Collect at the end of a sweep: no sweep followed its collection within 30 s")
	}
}
