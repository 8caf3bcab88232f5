package bytebuf

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"unsafe"
	"weak"

	idebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
)

// onOneP skips t where there are no per-P slots, and runs it on one P, so
// that P 0's slot is the one its Gets and Puts use.
func onOneP(t *testing.T) {
	t.Helper()
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	procs := runtime.GOMAXPROCS(1)
	t.Cleanup(func() { runtime.GOMAXPROCS(procs) })
}

// slot0 returns P 0's slot of p, nil if p has no slots.
func slot0(p *Pool) *perp.Slot {
	var s *perp.Slot
	p.slots.Each(func(pid int, sl *perp.Slot) {
		if pid == 0 {
			s = sl
		}
	})
	return s
}

// slotBuffer returns the Buffer in P 0's slot. The test must run on one P
// (onOneP) for the answer to stay true.
func slotBuffer(p *Pool) *Buffer {
	if sl := slot0(p); sl != nil {
		return (*Buffer)(sl.Val)
	}
	return nil
}

// TestSlot pins down what the per-P slot holds: the last Buffer Put, with
// the one it held before moved behind to the sync.Pool rather than lost.
func TestSlot(t *testing.T) {
	onOneP(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection may empty the sync.Pool
	var p Pool
	a, b := p.Get(), p.Get()
	a.WriteString("a")
	b.WriteString("b")
	p.Put(a)
	if got := slotBuffer(&p); got != a {
		t.Fatalf("slot after Put(a) = %p, want a = %p", got, a)
	}
	p.Put(b) // takes the slot: a goes behind
	if got := slotBuffer(&p); got != b {
		t.Fatalf("slot after Put(b) = %p, want b = %p", got, b)
	}
	first := p.Get()
	defer p.Put(first) // give everything back: the debug build reports leaks
	if first != b || first.Len() != 0 {
		t.Errorf("first Get = %p with Len %d, want b = %p, empty", first, first.Len(), b)
	}
	if got := slotBuffer(&p); got != nil {
		t.Errorf("slot after Get took it = %p, want nil", got)
	}
	second := p.Get()
	defer p.Put(second)
	if second != a || second.Len() != 0 {
		t.Errorf("second Get = %p with Len %d, want a = %p from the sync.Pool, empty", second, second.Len(), a)
	}
	if s := p.Stats(); s.News != 2 {
		t.Errorf("Stats().News = %d, want 2: both Gets after the Puts were served by the pool", s.News)
	}
}

// TestGOMAXPROCSUp: a pool first used with one P gives every P a slot once
// GOMAXPROCS grows.
func TestGOMAXPROCSUp(t *testing.T) {
	onOneP(t)
	var p Pool
	p.Put(p.Get())
	if n := p.slots.Len(); n != 1 {
		t.Fatalf("%d slots at GOMAXPROCS 1, want 1", n)
	}
	runtime.GOMAXPROCS(8)
	if runtime.GOMAXPROCS(0) != 8 {
		t.Skip("GOMAXPROCS cannot be raised on this platform (js/wasm, wasip1)")
	}
	perp.SpreadUntil(64, 10, func() { p.Put(p.Get()) }, func() bool { return p.slots.Len() == 8 })
	if n := p.slots.Len(); n != 8 {
		t.Errorf("%d slots after GOMAXPROCS 1 -> 8, want 8", n)
	}
}

// TestIdleReleasesLarge: after a burst of Buffers that grew, a pool left idle
// gives back the larger arrays it keeps for growth, with its slots' Buffers,
// within two collections of going idle; it used to keep them until used again.
func TestIdleReleasesLarge(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var p Pool
	for range 200 { // a burst: 16 Buffers in flight, most small, a few growing to 32 KiB
		bufs := make([]*Buffer, 16)
		for i := range bufs {
			bufs[i] = p.Get()
			n := 100
			if i%8 == 0 {
				n = 30 << 10
			}
			bufs[i].Write(make([]byte, n))
		}
		for _, b := range bufs {
			p.Put(b)
		}
	}
	if p.large()+p.localBytes() == 0 {
		t.Fatal("the burst left no large array in the pool; the test's premise is wrong")
	}
	perp.Collect(3) // the burst's last interval, then two idle ones
	if n := p.large() + p.localBytes(); n != 0 {
		t.Errorf("after the pool went idle and two collections: %d bytes of large arrays kept, want 0", n)
	}
	if r := p.Stats().RetainedBytes; r > 64<<10 {
		t.Errorf("after the pool went idle and two collections: RetainedBytes = %d, want <= 64 KiB", r)
	}
}

// TestLargeFreedBySecondCollection: the larger arrays follow sync.Pool's
// victim rule. An array put back and not taken again is freed by the second
// collection after, even though the pool was in use until the first (it
// used to stay in its slot until the sweep after the second, and be freed
// by the third).
func TestLargeFreedBySecondCollection(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var p Pool
	payload := make([]byte, 30<<10)
	burst := func() {
		var bufs [16]*Buffer
		for i := range bufs {
			bufs[i] = p.Get()
			n := 100
			if i%8 == 0 {
				n = 30 << 10
			}
			bufs[i].Write(payload[:n])
		}
		for _, b := range bufs {
			p.Put(b)
		}
	}
	for range 200 {
		burst()
	}
	// Let the sweeps of the collections during the burst run, then use the
	// pool twice more (the first fills the per-P slot the sweep may have
	// emptied, the second takes from it), so that it is in use at the
	// first collection below.
	perp.Collect(1)
	burst()
	burst()
	var w weak.Pointer[byte]
	p.slots.Each(func(_ int, sl *perp.Slot) {
		if c := (*lcache)(sl.Spare); c != nil && w == (weak.Pointer[byte]{}) {
			for i := range c.n {
				if c.n[i] > 0 {
					w = weak.Make(c.arr[i][0])
					return
				}
			}
		}
	})
	st := p.st.Load()
	for i := range st.slots {
		if row := st.slots[i].Load(); row != nil {
			for k := range row {
				if ptr := row[k].Load(); ptr != nil && w == (weak.Pointer[byte]{}) {
					w = weak.Make(ptr)
				}
			}
		}
	}
	if w == (weak.Pointer[byte]{}) {
		t.Fatal("the burst left no large array in the pool; the test's premise is wrong")
	}
	perp.Collect(1) // the first collection, and the sweep after it
	runtime.GC()    // the second
	if w.Value() != nil {
		t.Errorf("a large array put back before two collections is still alive after the second")
	}
	perp.Collect(1)
	if n := p.large() + p.localBytes(); n != 0 {
		t.Errorf("after the sweep of the second collection: %d bytes of large arrays counted, want 0", n)
	}
}

// TestManyIdleGrownPools: pools used once, with a Buffer that grew, then left
// idle (one per template or connection) keep no more than about what as
// many sync.Pools of *bytes.Buffer keep, two collections after their use,
// the first of which ends it: the state of the sampler and of the larger
// arrays (about 6 KiB at 2 Ps) and the per-P slots go with them. The state
// used to stay for the life of the pool, then until the third collection.
func TestManyIdleGrownPools(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every object handed out")
	}
	const n = 500
	payload := make([]byte, 30<<10)
	heapAfter := func(use func(i int)) int64 {
		perp.Collect(2)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		// No collection during the use, so that every pool is still in
		// use at the first collection below (one made in the loop would
		// find the pools used before it idle at the next).
		gc := debug.SetGCPercent(-1)
		for i := range n {
			use(i)
		}
		debug.SetGCPercent(gc)
		perp.Collect(2) // the one that ends the interval of use, and the next
		runtime.ReadMemStats(&after)
		return int64(after.HeapAlloc) - int64(before.HeapAlloc)
	}
	syncPools := make([]sync.Pool, n)
	// Each pool serves two requests, so that the second Get takes the
	// Buffer the first Put left in its P's slot: a pool in use, not one
	// idle from its first collection on.
	base := heapAfter(func(i int) {
		for range 2 {
			b, _ := syncPools[i].Get().(*bytes.Buffer)
			if b == nil {
				b = new(bytes.Buffer)
			}
			b.Write(payload)
			b.Reset()
			syncPools[i].Put(b)
		}
	})
	pools := make([]Pool, n)
	got := heapAfter(func(i int) {
		for range 2 {
			b := pools[i].Get()
			b.Write(payload)
			pools[i].Put(b)
		}
	})
	per := float64(got-base) / n
	t.Logf("%.0f B per idle pool more than a sync.Pool of *bytes.Buffer (those: %d B in all)", per, base)
	if per > 1<<10 {
		t.Errorf("a pool used once keeps %.0f B more than a sync.Pool two collections later; want <= 1 KiB", per)
	}
	for i := range pools {
		if pools[i].liveState() != nil {
			t.Fatalf("pool %d still holds its state two collections after its use", i)
		}
		if pools[i].slots.Len() != 0 {
			t.Fatalf("pool %d still holds its per-P slots two collections after its use", i)
		}
	}
	runtime.KeepAlive(syncPools)
	runtime.KeepAlive(pools)
}

// TestHomeSwapsToDefault: a Buffer made before the default capacity rose,
// which then grows into an array of exactly the new default, keeps that
// array as its home at Put, so that it stops growing; its old home goes to
// the larger arrays.
func TestHomeSwapsToDefault(t *testing.T) {
	onOneP(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no sweep may empty the slot
	var p Pool
	old := p.Get() // made with the initial capacity
	home := old.Cap()
	payload := make([]byte, 2000)
	for i := 0; p.Stats().DefaultCap < len(payload); i++ {
		if i == 100000 {
			t.Fatalf("DefaultCap = %d after 100000 Puts of %d B; the test's premise is wrong", p.Stats().DefaultCap, len(payload))
		}
		b := p.Get()
		b.Write(payload)
		p.Put(b)
	}
	d := p.Stats().DefaultCap
	if d <= home {
		t.Fatalf("DefaultCap %d is not above the initial capacity %d; the test's premise is wrong", d, home)
	}
	full := make([]byte, d)
	for range 2 * sampleGrownEvery { // through the Puts that sample, too
		old.Write(full)
		if old.Cap() != d {
			t.Fatalf("a Buffer written %d B has capacity %d, want the default %d; the test's premise is wrong", d, old.Cap(), d)
		}
		p.Put(old)
		if b := p.Get(); b != old {
			t.Fatal("Get after Put on one P did not return the Buffer in the slot; the test's premise is wrong")
		}
		if old.Cap() != d || old.home != nil {
			t.Fatalf("a Buffer that grew into the default %d B has capacity %d after Put (home %v), want the grown array as its home",
				d, old.Cap(), old.home != nil)
		}
	}
	p.Put(old)
}

// TestStateSmall: the state a pool in use holds (sampler, calibration,
// shared tier) stays small, so that many pools in use cost little: the
// shared tier's rows are made per class on its first array, and a pool whose
// grown arrays all fit its per-P caches holds none. It was 18 KiB, most of
// it slots and victims for every class up to MaxMaxCap.
func TestStateSmall(t *testing.T) {
	onOneP(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no sweep may age the arrays
	if n := unsafe.Sizeof(state{}); n > 6<<10 {
		t.Errorf("a pool's state is %d bytes, want at most 6 KiB", n)
	}
	rows := func(st *state) (n int) {
		for i := range st.slots {
			if st.slots[i].Load() != nil {
				n++
			}
		}
		return n
	}
	var p Pool
	for i := range 5000 {
		b := p.Get()
		b.Write(make([]byte, 100+i%40*100)) // up to 4 KiB: growth within the local cache
		p.Put(b)
	}
	st := p.st.Load()
	if st == nil {
		t.Fatal("no state after 5000 Puts; the test's premise is wrong")
	}
	if n := rows(st); n != 0 {
		t.Errorf("%d shared rows after growth the local cache served, want 0", n)
	}
	big := p.Get()
	big.Write(make([]byte, 300<<10)) // above the local caches' classes
	p.Put(big)
	if n := rows(st); n != 1 {
		t.Errorf("%d shared rows after one array above the local caches, want 1", n)
	}
}

// TestSlotsFreedBySecondCollection: the Buffers in the per-P slots of a pool
// used from many Ps are freed by the second collection after their Put, as
// a sync.Pool's values are. They used to get the slots' second chance (a slot
// its P took from keeps its value through a collection) and lived to the
// third: at 16 Ps, one Buffer and its home array per P, 105 KiB still held
// two collections after the last use on the distributions suite.
func TestSlotsFreedBySecondCollection(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every Buffer handed out")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
	if runtime.GOMAXPROCS(0) != 8 {
		t.Skip("GOMAXPROCS cannot be raised on this platform (js/wasm, wasip1)")
	}
	var p Pool
	payload := make([]byte, 3000)
	use := func() {
		b := p.Get()
		b.Write(payload)
		p.Put(b)
	}
	// Until at least half the Ps hold a Buffer in their slot, taken from
	// since the last sweep (each use takes the slot's Buffer and puts it
	// back).
	var ws []weak.Pointer[Buffer]
	held := func() bool {
		ws = ws[:0]
		p.slots.Each(func(_ int, sl *perp.Slot) {
			if sl.Val != nil {
				ws = append(ws, weak.Make((*Buffer)(sl.Val)))
			}
		})
		return len(ws) >= 4
	}
	perp.SpreadUntil(64, 20, func() { use(); use() }, held)
	if len(ws) < 4 {
		t.Fatalf("%d slots hold a Buffer after spreading the use over 8 Ps; the test's premise is wrong", len(ws))
	}
	perp.Collect(2) // the first collection and its sweep, then the second
	alive := 0
	for _, w := range ws {
		if w.Value() != nil {
			alive++
		}
	}
	if alive != 0 {
		t.Errorf("%d of the %d Buffers in the slots are alive after two collections, want 0", alive, len(ws))
	}
}

// TestStateTakenBack: the sweep after each collection lets go of the state
// (the sampler, the calibration and the larger arrays) to a weak victim; a
// pool still in use takes the same state back at its next growth, with its
// calibration and the bytes it counts, and the budget counts those bytes
// while the state is a victim. A victim not taken back before the next
// collection is freed by it.
func TestStateTakenBack(t *testing.T) {
	if !perp.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every object handed out")
	}
	var p Pool
	big := make([]byte, 100<<10) // above the per-P caches: kept in the state's slots
	use := func() {
		var bufs [8]*Buffer
		for i := range bufs {
			bufs[i] = p.Get()
			n := 300
			if i == 0 {
				n = len(big)
			}
			bufs[i].Write(big[:n])
		}
		for _, b := range bufs {
			p.Put(b)
		}
	}
	// Only the test's own collections run: one during the warm-up could
	// find the pool idle at the next (no Buffer taken from a slot since),
	// and one between a sweep and the use after it would free the victim.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for range 500 {
		use()
	}
	perp.Collect(1)
	use()
	use()
	st := p.st.Load()
	if st == nil || st.calibrations.Load() == 0 || st.bytes.Load() == 0 {
		t.Fatalf("the pool has no calibrated state holding large arrays (Stats %+v); the test's premise is wrong", p.Stats())
	}
	cal := p.Stats().Calibrations
	perp.Collect(1)
	if p.st.Load() != nil {
		t.Fatalf("after the sweep of a pool in use: the state is still held strongly")
	}
	if got, want := p.large(), st.bytes.Load(); got != want {
		t.Errorf("while the state is a victim: large() = %d, want its %d bytes", got, want)
	}
	if got := p.Stats().Calibrations; got < cal {
		t.Errorf("while the state is a victim: Stats.Calibrations = %d, want >= %d", got, cal)
	}
	use()
	if got := p.st.Load(); got != st {
		t.Errorf("after the next use: state %p, want the victim %p taken back", got, st)
	}
	if got := p.vbytes.Load(); got != 0 {
		t.Errorf("after the state was taken back: vbytes = %d, want 0", got)
	}
	w := weak.Make(st)
	st = nil
	perp.Collect(1) // the state becomes the victim again, and no use takes it back
	perp.Collect(1)
	if w.Value() != nil {
		t.Errorf("a victim state not taken back is alive after the next collection")
	}
	if p.st.Load() != nil || p.vbytes.Load() != 0 {
		t.Errorf("after an idle collection: the state is still held, or its bytes counted (%d)", p.vbytes.Load())
	}
}
