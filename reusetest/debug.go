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
// Leaks are found by the garbage collector, some time after the fact. Before
// restoring the handler, FailOnMisuse runs the collector twice and waits, up
// to a second, for the cleanups it queued, so that objects t took with Get
// and dropped are reported to t. An object t took that is found leaked only
// after t ended (it was still referenced, or found late) is printed to
// standard error instead, never reported to another test.
//
// The handler is global: do not call FailOnMisuse from tests that run in
// parallel with other tests using pools.
func FailOnMisuse(t testing.TB) {
	t.Helper()
	scope(t, func(r debug.Report, _ *debug.Handler) { t.Errorf("%s", r) })
}

// IgnoreLeaks is for a test that drops objects taken by Get on purpose (to
// check that New is called, or that a pool lets the garbage collector take
// its objects): in the debug build, the leaks of objects taken during t are
// not reported, even when the collector finds them after t ended. Double Puts
// and uses after Put still go to the handler in place before (by default a
// panic). In a normal build it does nothing.
func IgnoreLeaks(t testing.TB) {
	t.Helper()
	scope(t, func(r debug.Report, prev *debug.Handler) {
		switch {
		case r.Kind == debug.Leak:
		case prev != nil:
			prev.F(r)
		default:
			panic(r.String())
		}
	})
}

// scope installs a handler scoped to t: the leaks of objects taken during t
// go to it, and it is closed, after a collection, when t ends.
func scope(t testing.TB, f func(r debug.Report, prev *debug.Handler)) {
	var prev *debug.Handler
	h := &debug.Handler{F: func(r debug.Report) { f(r, prev) }, Scoped: true}
	prev = debug.Swap(h)
	t.Cleanup(func() {
		if debug.Enabled && debug.Leaks {
			flushCleanups()
		}
		debug.Swap(prev)
		h.Close()
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
