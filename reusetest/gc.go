package reusetest

import (
	"time"

	"github.com/reuse-go/reuse/internal/perp"
)

// Collect runs a garbage collection and returns once the cleanups it queued
// (runtime.AddCleanup, and so the debug build's leak reports) have had their
// turn to run, and once the sweep of the pools' per-P slots that follows
// every collection has run. It needs no sleep: it drops a sentinel object
// with a cleanup of its own just before collecting and waits for that
// cleanup and for the sweep, then yields to the other cleanup goroutines. It
// reports false if either did not come within 30 seconds, which only a stuck
// cleanup or finalizer can cause.
//
// The runtime may run cleanups of one cycle in parallel, so a cleanup may
// still be finishing when Collect returns; to wait for a specific effect,
// use CollectUntil.
func Collect() bool { return perp.Collect(1) }

// collectTries bounds the collections of CollectUntil; a variable for the
// package's own test.
var collectTries = 1000

// CollectUntil runs Collect until cond returns true, for up to ten seconds
// or a thousand collections, whichever comes first, and fails t (t.Errorf,
// naming what) if cond is still false then. what says what was awaited, as
// in "5 leak reports". It returns cond's last result. Use it where a test
// waits for the garbage collector to free an object or for a cleanup to
// report one, instead of sleeping.
func CollectUntil(t TB, what string, cond func() bool) bool {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for range collectTries {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			break
		}
		Collect()
	}
	if cond() {
		return true
	}
	t.Errorf("reusetest: CollectUntil: still waiting for %s after many collections", what)
	return false
}
