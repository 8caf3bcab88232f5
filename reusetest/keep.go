package reusetest

import (
	"runtime"
	"runtime/debug"

	"github.com/reuse-go/reuse/internal/race"
)

// KeepPooled makes pools keep what is Put for the rest of t, for tests that
// expect Get to return what Put stored. It skips t under the race detector,
// where sync.Pool drops a quarter of Puts at random on purpose. Otherwise it
// sets GOMAXPROCS to 1 until t ends, since what a P's slot keeps is out of
// the other Ps' reach and a goroutine may move to another P between a Put and
// a Get; it runs one collection and waits for the sweep of the per-P slots
// that follows it (Collect), so that the test does not start in the middle of
// either; and it turns the garbage collector off until t ends (every
// collection empties sync.Pools). Tests that call it must not run in parallel
// with others.
func KeepPooled(t TB) {
	t.Helper()
	if race.Enabled {
		t.Skip("reusetest: sync.Pool drops Puts at random under -race")
	}
	procs := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
	Collect()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
}
