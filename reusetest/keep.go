package reusetest

import (
	"runtime"
	"runtime/debug"

	"github.com/reuse-go/reuse/internal/race"
)

// KeepPooled makes pools keep what is Put for the rest of t, for tests that
// expect Get to return what Put stored. It skips t under the race detector,
// where sync.Pool drops a quarter of Puts at random on purpose. Otherwise it
// runs one collection, so the test does not start in the middle of one, and
// turns the garbage collector off until t ends (every collection empties
// sync.Pools). Tests that call it must not run in parallel with others.
func KeepPooled(t TB) {
	t.Helper()
	if race.Enabled {
		t.Skip("reusetest: sync.Pool drops Puts at random under -race")
	}
	runtime.GC()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
