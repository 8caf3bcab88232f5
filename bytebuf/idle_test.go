package bytebuf

import (
	"bytes"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"
	"time"

	idebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/race"
)

// TestIdlePoolsCostLikeSyncPool: many pools, each used a few times and then
// left idle, hold at most 64 bytes each more than as many sync.Pools of
// *bytes.Buffer two collections later (the collection that ends their use,
// and the next), and nothing of theirs is still reachable.
func TestIdlePoolsCostLikeSyncPool(t *testing.T) {
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every object handed out")
	}
	n := 8000
	if race.Enabled {
		n = 2000 // 4 times faster there, within its bound of 128 B
	}
	collects := 2
	if v := os.Getenv("COLLECTS"); v != "" {
		collects, _ = strconv.Atoi(v)
	}
	payload := make([]byte, 30<<10)
	heapAfter := func(use func(i int)) int64 {
		perp.Collect(2)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		gc := debug.SetGCPercent(-1)
		for i := range n {
			use(i)
		}
		debug.SetGCPercent(gc)
		perp.Collect(collects)
		runtime.ReadMemStats(&after)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	usePools := func(pools []Pool) func(int) {
		return func(i int) {
			for range 3 {
				b := pools[i].Get()
				b.Write(payload)
				pools[i].Put(b)
			}
		}
	}
	// Two sets of pools, used and left idle but not measured, settle what
	// earlier tests left and what the runtime makes the first times it
	// collects at this GOMAXPROCS while pools are used: the Ms and
	// goroutines of its mark workers, about 40 KB at -cpu 16. With 2000
	// pools and no such sets, they read as 16-22 B a pool at -cpu 16 (73-79
	// B in all, over the bound, on 2 cores).
	// The sets, and 8000 pools, which makes what the runtime still adds
	// late weigh a quarter as much, give 56-58 B at -cpu 1 to 64 (on 2
	// cores, 4 runs each). Their cleanups run before the next step, or what
	// they hold would be freed during it (seen under the race detector).
	for range 2 {
		warm := make([]Pool, n)
		heapAfter(usePools(warm))
		waitCleanups(t, warm)
	}
	syncPools := make([]sync.Pool, n)
	useSync := func(i int) {
		for range 3 {
			b, _ := syncPools[i].Get().(*bytes.Buffer)
			if b == nil {
				b = new(bytes.Buffer)
			}
			b.Write(payload)
			b.Reset()
			syncPools[i].Put(b)
		}
	}
	// The difference is what bytebuf adds. syncPools is kept alive past
	// the measurement: otherwise the collector frees its slice during it,
	// and the sync.Pools read 40 B each below what they hold.
	base := heapAfter(useSync)
	runtime.KeepAlive(syncPools)
	pools := make([]Pool, n)
	got := heapAfter(usePools(pools))
	per := float64(got-base) / float64(n)
	t.Logf("%.0f B per idle pool more than a sync.Pool of *bytes.Buffer (those: %d B in all)", per, base)
	// The target is 64 B (issue #32): measured 56-58 B after two
	// collections (20 runs; 40 B on 386), 0 after three. What is left
	// after two is the runtime's, freed by the third: the weak handle of
	// the per-P array (16 B), the weak handle of the 32 KiB array kept on a
	// shelf (8 B, 0-55 B before the shelves held arrays weakly) and, for
	// each array, its cleanup's argument box (8 B) and closure (16 B); with
	// 8000 pools the runtime's own allocations weigh little. The sweep holds
	// the pool only while it has an array or a victim (internal/perp),
	// so no registry entry or weak handle stays with an idle pool. Under the
	// race detector, sync.Pool drops a quarter of the Puts at random, so each
	// pool makes more arrays, each with its box: 16-75 B (34-54 B now, with
	// 2000 pools).
	bound := 64.0
	if race.Enabled {
		bound = 128
	}
	if per > bound {
		t.Errorf("a pool used and left idle keeps %.0f B more than a sync.Pool %d collections later; want <= %.0f", per, collects, bound)
	}
	for i := range pools {
		if pools[i].slots.Len() != 0 || pools[i].classes.Load() != nil {
			t.Fatalf("pool %d still holds its per-P slots or class pools two collections after its use", i)
		}
	}
	waitCleanups(t, pools)
}

// waitCleanups waits until no pool counts any bytes alive. The bytes of the
// freed Buffers leave the count when their cleanups run, on the runtime's
// cleanup goroutine after the collection: wait for them (under the race
// detector they ran late in CI), not for a figure.
func waitCleanups(t *testing.T, pools []Pool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for i := range pools {
		for pools[i].alive.Load() != 0 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if r := pools[i].alive.Load(); r != 0 {
			t.Fatalf("pool %d: %d bytes still counted alive two collections after its use and 10 s of cleanups, want 0", i, r)
		}
	}
}

// TestGOMAXPROCSChanges: the pool keeps working when GOMAXPROCS rises and
// falls under it, and the sizing of P 0 survives a fall.
func TestGOMAXPROCSChanges(t *testing.T) {
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var p Pool
	use := func(n, times int) {
		for range times {
			b := p.Get()
			if b.Len() != 0 {
				t.Fatalf("Get returned %d bytes", b.Len())
			}
			b.Write(make([]byte, n))
			p.Put(b)
		}
	}
	use(3000, 1000)
	if d := p.Stats().DefaultCap; d != 4096 {
		t.Fatalf("DefaultCap = %d after 1000 Puts of 3000 bytes at GOMAXPROCS 1, want 4096", d)
	}
	for _, procs := range []int{8, 2, 1} {
		runtime.GOMAXPROCS(procs)
		var wg sync.WaitGroup
		for range procs {
			wg.Add(1)
			go func() { defer wg.Done(); use(3000, 500) }()
		}
		wg.Wait()
	}
	if d := p.Stats().DefaultCap; d != 4096 {
		t.Errorf("DefaultCap = %d after GOMAXPROCS rose and fell, want 4096", d)
	}
}

// TestIdleAgainAndAgain: a pool used and left idle lets go of its per-P
// slots and class pools two collections later every time, not only the
// first (the sweep stops visiting an idle pool, and its next use must have
// it visit the pool again).
func TestIdleAgainAndAgain(t *testing.T) {
	var p Pool
	payload := make([]byte, 30<<10)
	for round := range 3 {
		for range 3 {
			b := p.Get()
			b.Write(payload)
			p.Put(b)
		}
		perp.Collect(2)
		if p.slots.Len() != 0 || p.classes.Load() != nil {
			t.Fatalf("idle period %d: the pool still holds its per-P slots or class pools two collections after its use", round)
		}
	}
}
