package reuse_test

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
	"github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/race"
)

// The per-P pools of the module share one retention rule (internal/perp):
// what an idle pool holds is released by the second collection, as sync.Pool
// releases it, also in the slots of Ps that GOMAXPROCS no longer runs. These
// tests hold every per-P pool of the module to it, with sync.Pool beside them
// as the reference.

// tracked is a pool under test, seen as a way to put values whose release
// is counted.
type tracked struct {
	name string
	// put makes a value, arranges for freed to be incremented when the
	// collector frees it, and puts it into the pool (made by newPool).
	newPool func() (put func(freed *atomic.Int64), keepAlive func())
}

func perPPools() []tracked {
	return []tracked{
		{"sync.Pool", func() (func(*atomic.Int64), func()) {
			p := new(sync.Pool)
			return func(freed *atomic.Int64) {
				x := new([64]byte)
				runtime.AddCleanup(x, func(f *atomic.Int64) { f.Add(1) }, freed)
				p.Put(x)
			}, func() { runtime.KeepAlive(p) }
		}},
		{"Pool[*T]", func() (func(*atomic.Int64), func()) {
			p := new(reuse.Pool[*[64]byte])
			return func(freed *atomic.Int64) {
				x := new([64]byte)
				runtime.AddCleanup(x, func(f *atomic.Int64) { f.Add(1) }, freed)
				p.Put(x)
			}, func() { runtime.KeepAlive(p) }
		}},
		{"Pool[[]byte]", func() (func(*atomic.Int64), func()) {
			p := new(reuse.Pool[[]byte])
			return func(freed *atomic.Int64) {
				x := make([]byte, 64)
				runtime.AddCleanup(&x[0], func(f *atomic.Int64) { f.Add(1) }, freed)
				p.Put(x)
			}, func() { runtime.KeepAlive(p) }
		}},
		{"Slices", func() (func(*atomic.Int64), func()) {
			p := new(reuse.Slices[byte])
			return func(freed *atomic.Int64) {
				x := make([]byte, 256)
				runtime.AddCleanup(&x[0], func(f *atomic.Int64) { f.Add(1) }, freed)
				p.Put(x)
			}, func() { runtime.KeepAlive(p) }
		}},
		{"bytebuf", func() (func(*atomic.Int64), func()) {
			p := new(bytebuf.Pool)
			return func(freed *atomic.Int64) {
				b := p.Get()
				b.WriteString("x")
				runtime.AddCleanup(b, func(f *atomic.Int64) { f.Add(1) }, freed)
				p.Put(b)
			}, func() { runtime.KeepAlive(p) }
		}},
	}
}

// collect runs n collections (see perp.Collect), then waits up to a second
// more for freed to reach want, for cleanups still running.
func collect(n int, freed *atomic.Int64, want int64) {
	perp.Collect(n)
	for deadline := time.Now().Add(time.Second); freed.Load() < want && time.Now().Before(deadline); {
		runtime.Gosched()
	}
}

// TestIdleRelease: a value Put into a pool that nobody uses afterwards is
// released by the second collection, as sync.Pool releases it, and not by the
// first (the second chance).
func TestIdleRelease(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	for _, tc := range perPPools() {
		t.Run("pool="+tc.name, func(t *testing.T) {
			put, keep := tc.newPool()
			var freed atomic.Int64
			collect(1, &freed, 0) // start between collections
			put(&freed)
			collect(1, &freed, 0)
			if n := freed.Load(); n != 0 {
				t.Errorf("freed by the first collection after Put; want kept until the second")
			}
			collect(1, &freed, 1)
			if n := freed.Load(); n != 1 {
				t.Errorf("not freed by the second collection after Put (freed %d of 1)", n)
			}
			keep()
		})
	}
}

// TestGOMAXPROCSDown: values spread over the slots of 8 Ps are all released
// once GOMAXPROCS drops to 1 and the pool is idle, although the Ps that held
// them no longer run (sync.Pool releases them all; the module's slots used to
// keep them forever).
func TestGOMAXPROCSDown(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	for _, tc := range perPPools() {
		t.Run("pool="+tc.name, func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
			put, keep := tc.newPool()
			var freed atomic.Int64
			const goroutines, each = 64, 4
			perp.Spread(goroutines, each, func() { put(&freed) })
			runtime.GOMAXPROCS(1)
			collect(10, &freed, goroutines*each)
			if n := freed.Load(); n != goroutines*each {
				t.Errorf("after GOMAXPROCS 8 -> 1 and 10 collections: %d of %d values freed, want all",
					n, goroutines*each)
			}
			keep()
		})
	}
}

// TestManyIdlePools: pools used once and left idle keep no per-P memory: the
// heap after two collections grows by little more than for sync.Pools used
// alike. A Pool keeps only its registration with the sweep (a weak pointer);
// Slices and bytebuf.Pool also keep the state they make at first use (one
// sync.Pool per size class; the calibration), bounded here so that it cannot
// grow unnoticed.
func TestManyIdlePools(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops Puts at random under -race")
	}
	if debug.Enabled {
		t.Skip("the debug build keeps a record of every object handed out")
	}
	const n = 2000
	heapAfter := func(use func(i int)) uint64 {
		var freed atomic.Int64
		collect(2, &freed, 0)
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		for i := range n {
			use(i)
		}
		collect(2, &freed, 0)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		return after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	}
	syncPools := make([]sync.Pool, n)
	base := heapAfter(func(i int) {
		x, _ := syncPools[i].Get().(*[64]byte)
		if x == nil {
			x = new([64]byte)
		}
		syncPools[i].Put(x)
	})
	for _, tc := range []struct {
		name  string
		limit float64 // bytes per pool
		use   func(i int)
	}{
		{"Pool[*T]", 64, func() func(int) {
			ps := make([]reuse.Pool[*[64]byte], n)
			for i := range ps {
				ps[i].New = func() *[64]byte { return new([64]byte) }
			}
			return func(i int) { ps[i].Put(ps[i].Get()) }
		}()},
		{"Slices", 64, func() func(int) {
			ps := make([]reuse.Slices[byte], n)
			return func(i int) { ps[i].Put(ps[i].Get(64)) }
		}()},
		// bytebuf: measured 57 B on amd64 and 104 B under js/wasm since its
		// rebuild (#32), where a pool's per-P array and sizing go with its
		// last Buffer, whose cleanup runs after the collection that frees
		// it (32-44 and 80 B before).
		{"bytebuf", 128, func() func(int) {
			ps := make([]bytebuf.Pool, n)
			return func(i int) { ps[i].Put(ps[i].Get()) }
		}()},
	} {
		t.Run("pool="+tc.name, func(t *testing.T) {
			if tc.name == "bytebuf" && !perp.OK {
				// Without per-P slots (reuse_nolinkname, TinyGo) a
				// bytebuf.Pool keeps its shared sizing state in its struct.
				t.Skip("bytebuf releases its state on the slots' sweep, which needs per-P slots")
			}
			got := heapAfter(tc.use)
			per := (float64(got) - float64(base)) / n
			t.Logf("%s: %.0f B per idle pool more than a sync.Pool (sync.Pools: %d B in all)", tc.name, per, base)
			if per > tc.limit {
				t.Errorf("%s: an idle pool keeps %.0f B more than a sync.Pool after two collections; want <= %.0f",
					tc.name, per, tc.limit)
			}
		})
	}
	runtime.KeepAlive(syncPools)
}
