package reusetest

import (
	"runtime"
	"testing"
	"time"

	"github.com/reuse-go/reuse/internal/debug"
)

// FailOnMisuse makes every misuse of a pool that the debug build (-tags
// reusedebug) detects during t (a double Put, a use after Put, a leak) fail
// t through t.Errorf, with the report's message and stacks, instead of
// panicking. It restores the previous handler when t ends. In a normal build
// it changes nothing that can be observed, since nothing is detected.
//
// Leaks are reported when the garbage collector finds the leaked object, so
// before restoring the handler FailOnMisuse runs the collector twice and
// waits, up to a second, for the cleanups it queued: objects t leaked and
// dropped are reported to t. An object still referenced when t ends, or
// found late, goes to the handler in place by then (by default a panic).
//
// The handler is global: do not call FailOnMisuse from tests that run in
// parallel with other tests using pools.
func FailOnMisuse(t testing.TB) {
	t.Helper()
	prev := debug.Swap(&debug.Handler{F: func(r debug.Report) {
		t.Errorf("%s", r)
	}})
	t.Cleanup(func() {
		if debug.Enabled && debug.Leaks {
			flushCleanups()
		}
		debug.Swap(prev)
	})
}

// flushCleanups runs the garbage collector and waits until the cleanups it
// queued have most likely run: a sentinel object dropped just before is
// collected in the same cycle, and its cleanup is waited for.
func flushCleanups() {
	done := make(chan struct{})
	sentinel := new([64]byte) // above the tiny-allocator size: collected on its own
	runtime.AddCleanup(sentinel, func(ch chan struct{}) { close(ch) }, done)
	runtime.KeepAlive(sentinel)
	sentinel = nil
	_ = sentinel
	runtime.GC()
	runtime.GC()
	select {
	case <-done:
	case <-time.After(time.Second):
	}
	// Cleanups may run concurrently: give the others of the cycle a moment.
	for range 10 {
		runtime.Gosched()
	}
	time.Sleep(10 * time.Millisecond)
}
