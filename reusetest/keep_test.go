package reusetest_test

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/reuse-go/reuse/internal/race"
	"github.com/reuse-go/reuse/reusetest"
)

// gcPercent returns the current GOGC setting without changing it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

func TestKeepPooled(t *testing.T) {
	before := gcPercent()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3)) // not 1, so that KeepPooled's change shows
	procs := runtime.GOMAXPROCS(0)                  // 1 where the port has one thread (js/wasm)
	t.Run("inner", func(t *testing.T) {
		reusetest.KeepPooled(t)
		if race.Enabled {
			t.Fatal("KeepPooled did not skip under -race")
		}
		if got := gcPercent(); got != -1 {
			t.Errorf("during the test: GC percent = %d, want -1 (collector off)", got)
		}
		if got := runtime.GOMAXPROCS(0); got != 1 {
			t.Errorf("during the test: GOMAXPROCS = %d, want 1 (a P's slot is out of the other Ps' reach)", got)
		}
		// What is Put stays: no collection empties the pool.
		var p sync.Pool
		x := new(int)
		p.Put(x)
		if got := p.Get(); got != x {
			t.Errorf("sync.Pool.Get() = %v, want the value Put", got)
		}
	})
	if got := gcPercent(); got != before {
		t.Errorf("after the test: GC percent = %d, want it restored to %d", got, before)
	}
	if got := runtime.GOMAXPROCS(0); got != procs {
		t.Errorf("after the test: GOMAXPROCS = %d, want it restored to %d", got, procs)
	}
}
