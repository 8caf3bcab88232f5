package reusetest

import (
	"runtime"
	"time"
)

// collectWait bounds how long Collect waits for its sentinel's cleanup. It
// is a safety net against a hang, not a delay: Collect returns as soon as
// the cleanup has run, in microseconds on an idle machine.
const collectWait = 30 * time.Second

// Collect runs a garbage collection and returns once the cleanups it queued
// (runtime.AddCleanup, and so the debug build's leak reports) have had their
// turn to run. It needs no sleep: it drops a sentinel object with a cleanup
// of its own just before collecting and waits for that cleanup, then yields
// to the other cleanup goroutines. It reports false if the sentinel's
// cleanup did not run within 30 seconds, which only a stuck cleanup can
// cause.
//
// The runtime may run cleanups of one cycle in parallel, so a cleanup may
// still be finishing when Collect returns; to wait for a specific effect,
// use CollectUntil.
func Collect() bool {
	done := make(chan struct{})
	dropSentinel(done)
	runtime.GC()
	ok := true
	select {
	case <-done:
	case <-time.After(collectWait):
		ok = false
	}
	for range 4 * runtime.GOMAXPROCS(0) {
		runtime.Gosched()
	}
	return ok
}

// dropSentinel allocates an object that nothing references once it
// returns, with a cleanup that closes done. 64 bytes keeps it out of the
// tiny allocator, which would batch it with other objects.
//
//go:noinline
func dropSentinel(done chan struct{}) {
	sentinel := new([64]byte)
	runtime.AddCleanup(sentinel, func(ch chan struct{}) { close(ch) }, done)
}

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
