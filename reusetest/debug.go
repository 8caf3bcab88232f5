package reusetest

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/reuse-go/reuse/internal/debug"
)

// FailOnMisuse makes every misuse of a pool that the debug build (-tags
// reusedebug) detects during t (a double Put, a use after Put, a leak) fail
// t through t.Errorf, with the report's message and stacks, instead of
// panicking or logging. It restores the previous handler when t ends. In a
// normal build it changes nothing that can be observed, since nothing is
// detected.
//
// A leak fails the test whose Get took the object, whichever test is
// running when the collector finds it. Leaks are found some time after the
// fact: before restoring the handler, FailOnMisuse runs the collector twice
// and waits for the cleanups it queued (see Collect), so that objects t took
// with Get and dropped are reported to t. An object t took that is found
// leaked only after t ended (it was still referenced, or found late) is
// printed to standard error instead, never reported to another test. An
// object given up with the pool's Discard is not a leak.
//
// The handler is global: do not call FailOnMisuse from tests that run in
// parallel with other tests using pools.
func FailOnMisuse(t TB) {
	t.Helper()
	scope(t, func(r debug.Report, _ *debug.Handler) { fail(t, r) })
}

// fail fails t with r. t.Errorf would name the line of its own call, here:
// the pool's frames between the caller and the report cannot be marked as
// helpers. Where t is the testing package's own and has Output (Go 1.25),
// fail writes r there, behind the caller's file:line as Errorf writes its
// own, and marks t failed.
func fail(t TB, r debug.Report) {
	o, ok := t.(interface {
		Output() io.Writer
		Fail()
	})
	switch t.(type) {
	case *testing.T, *testing.B, *testing.F:
	default:
		ok = false // a double that embeds a testing.TB records Errorf
	}
	if !ok || r.Site == "" {
		t.Errorf("%s", r)
		return
	}
	fmt.Fprintf(o.Output(), "%s: %s\n", filepath.Base(r.Site), r)
	o.Fail()
}

// IgnoreLeaks is for a test that drops objects taken by Get on purpose (to
// check that New is called, or that a pool lets the garbage collector take
// its objects): in the debug build, the leaks of objects taken during t are
// not reported, even when the collector finds them after t ended. Double Puts
// and uses after Put still go to the handler in place before (by default,
// what REUSEDEBUG says: a panic). In a normal build it does nothing. Prefer
// the pool's Discard where the code under test drops objects on purpose.
func IgnoreLeaks(t TB) {
	t.Helper()
	scope(t, func(r debug.Report, prev *debug.Handler) {
		switch {
		case r.Kind == debug.Leak:
		case prev != nil:
			prev.F(r)
		default:
			debug.Fallback(r)
		}
	})
}

// scope installs a handler scoped to t: the leaks of objects taken during t
// go to it, and it is closed, after a collection, when t ends.
func scope(t TB, f func(r debug.Report, prev *debug.Handler)) {
	var prev *debug.Handler
	h := &debug.Handler{F: func(r debug.Report) { f(r, prev) }, Scoped: true}
	prev = debug.Swap(h)
	t.Cleanup(func() {
		if debug.Enabled && debug.Leaks {
			flushCleanups()
			debug.SettleSlices(h)
		}
		debug.Swap(prev)
		h.Close()
	})
}

// flushCleanups runs the garbage collector twice and waits, each time, for
// the cleanups it queued: leaks of objects dropped during the test are
// reported by then.
func flushCleanups() {
	Collect()
	Collect()
}
