package bytebuf

import (
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"weak"

	idebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
	"github.com/reuse-go/reuse/internal/sizeclass"
)

// localCache returns the cache in P 0's slot, nil if none. The test must run
// on one P (onOneP) for the answer to stay true.
func localCache(p *Pool) *lcache {
	if sl := slot0(p); sl != nil {
		return (*lcache)(sl.Spare)
	}
	return nil
}

// grownArray writes n bytes into a Buffer of p and returns the Buffer and the
// first byte of the array it grew into.
func grownArray(t *testing.T, p *Pool, n int) (*Buffer, *byte) {
	t.Helper()
	b := p.Get()
	b.Write(make([]byte, n))
	if b.home == nil {
		t.Fatalf("a Buffer written %d bytes did not grow (cap %d)", n, b.Cap())
	}
	return b, &b.buf[:1][0]
}

// TestLocalCacheServesGrowth: the array a Buffer grew into goes to its P's
// cache at Put, and the next Buffer that grows to the same class takes that
// array from there, not from the shared slots.
func TestLocalCacheServesGrowth(t *testing.T) {
	onOneP(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no sweep may detach the cache
	var p Pool
	p.Put(p.Get()) // makes the slots
	b, first := grownArray(t, &p, 5000)
	size := b.Cap()
	p.Put(b)
	c := localCache(&p)
	if c == nil {
		t.Fatal("no local cache after the Put of a grown Buffer")
	}
	i, _ := sizeclass.Floor(size)
	if c.n[i] != 1 || c.arr[i][0] != first || c.bytes != int64(size) {
		t.Fatalf("local cache holds %d arrays of class %d (%d B in all), want the grown array of %d B", c.n[i], i, c.bytes, size)
	}
	if n := p.large(); n != 0 {
		t.Errorf("the shared slots hold %d B, want 0: the local cache had room", n)
	}
	b2, again := grownArray(t, &p, 5000)
	defer p.Put(b2)
	if again != first {
		t.Errorf("the second Buffer grew into a new array, want the one the local cache held")
	}
	if c.n[i] != 0 || c.bytes != 0 {
		t.Errorf("local cache after the take: %d arrays, %d B; want 0, 0", c.n[i], c.bytes)
	}
}

// TestLocalCacheAging: in a pool that stays in use, the arrays of a class
// nothing takes are dropped within two collections, while a class in use
// keeps its arrays.
func TestLocalCacheAging(t *testing.T) {
	onOneP(t)
	var p Pool
	p.Put(p.Get()) // makes the slots
	// One Buffer grows to about 40 KiB once; others keep growing to
	// about 5 KiB.
	big, _ := grownArray(t, &p, 40<<10)
	bigClass, _ := sizeclass.Floor(big.Cap())
	p.Put(big)
	use := func() {
		// Mostly short Buffers, so that the calibration keeps the
		// default capacity small and the 5000-byte one grows.
		for range 7 {
			s := p.Get()
			s.WriteString("short")
			p.Put(s)
		}
		b, _ := grownArray(t, &p, 5000)
		p.Put(b)
	}
	use()
	held := func() uint8 {
		if c := localCache(&p); c != nil {
			return c.n[bigClass]
		}
		return 0
	}
	if held() == 0 {
		t.Fatal("the 40 KiB array is not in the local cache; the test's premise is wrong")
	}
	for range 3 {
		perp.Collect(1)
		use()
	}
	if held() != 0 {
		t.Errorf("an array of a class nothing took stayed in the local cache over three collections")
	}
	if c := localCache(&p); c == nil || c.bytes == 0 {
		t.Errorf("the class in use lost its arrays: cache %v, stats %+v", c != nil, p.Stats())
	}
}

// TestLocalCacheVictim: the sweep detaches every cache and keeps it weakly;
// the P's next use takes it back with its arrays, and a cache nobody takes
// back is freed by the next collection.
func TestLocalCacheVictim(t *testing.T) {
	onOneP(t)
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every array handed out")
	}
	var p Pool
	p.Put(p.Get()) // makes the slots
	b, first := grownArray(t, &p, 5000)
	p.Put(b)
	c := localCache(&p)
	if c == nil {
		t.Fatal("no local cache after the Put of a grown Buffer")
	}
	perp.Collect(1)
	if localCache(&p) != nil {
		t.Fatal("the sweep left the cache in the slot")
	}
	p.Put(p.Get()) // keeps the slots in use
	b, again := grownArray(t, &p, 5000)
	if again != first || localCache(&p) != c {
		t.Errorf("growth after a sweep did not take the victim's array back")
	}
	p.Put(b)
	w := weak.Make(c)
	c = nil
	perp.Collect(1) // detaches it again
	runtime.GC()    // nothing took it back: freed
	if w.Value() != nil {
		t.Errorf("a cache nobody took back is alive after the collection that followed its sweep")
	}
	runtime.KeepAlive(&p)
}

// TestLocalCacheWithinReserve: a P's cache holds at most its share of the
// reserve, and a Budget equal to MaxCap leaves no reserve and so no cache:
// the bound holds without the hot paths counting bytes in shared memory.
func TestLocalCacheWithinReserve(t *testing.T) {
	onOneP(t)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	none, err := NewPool(Config{MaxCap: 64 << 10, Budget: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	none.Put(none.Get()) // makes the slots
	b, _ := grownArray(t, none, 5000)
	none.Put(b)
	if c := localCache(none); c != nil {
		t.Errorf("a pool without reserve made a local cache of limit %d", c.limit)
	}

	p, err := NewPool(Config{MaxCap: 64 << 10, Budget: 64<<10 + 4*20<<10})
	if err != nil {
		t.Fatal(err)
	}
	p.Put(p.Get()) // makes the slots
	var bufs []*Buffer
	for _, n := range []int{5000, 9000, 17000, 17000, 33000} {
		b, _ := grownArray(t, p, n)
		bufs = append(bufs, b)
	}
	for _, b := range bufs {
		p.Put(b)
	}
	c := localCache(p)
	if c == nil {
		t.Fatal("no local cache")
	}
	if c.limit != 20<<10 || c.bytes > c.limit || c.bytes == 0 {
		t.Errorf("local cache: %d B of limit %d, want within the share of the reserve, 20 KiB", c.bytes, c.limit)
	}
	if s := p.Stats(); s.RetainedBytes > 64<<10+4*20<<10 {
		t.Errorf("RetainedBytes = %d, above Budget", s.RetainedBytes)
	}
}

// TestLocalCacheGOMAXPROCS: caches follow GOMAXPROCS both ways. Raised, every
// P that grows a Buffer gets a cache of its own in the new slots; lowered,
// the caches of the Ps that no longer run are detached by the next sweep
// and freed by the collection after it.
func TestLocalCacheGOMAXPROCS(t *testing.T) {
	onOneP(t)
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every array handed out")
	}
	var p Pool
	payload := make([]byte, 5000)
	var calls atomic.Int64
	grow := func() {
		// One Buffer in 8 long, so that the calibration keeps the
		// default capacity small and those grow.
		b := p.Get()
		if calls.Add(1)%8 == 0 {
			b.Write(payload)
		} else {
			b.Write(payload[:10])
		}
		p.Put(b)
	}
	grow()
	gc := debug.SetGCPercent(-1) // no sweep until the caches are counted
	runtime.GOMAXPROCS(4)
	if runtime.GOMAXPROCS(0) != 4 {
		t.Skip("GOMAXPROCS cannot be raised on this platform (js/wasm, wasip1)")
	}
	caches := 0
	var ws []weak.Pointer[lcache]
	// The scheduler decides which Ps the goroutines run on: spread them
	// until at least two Ps have grown a Buffer.
	perp.SpreadUntil(64, 20, grow, func() bool {
		caches, ws = 0, nil
		p.slots.Each(func(_ int, sl *perp.Slot) {
			if c := (*lcache)(sl.Spare); c != nil {
				caches++
				ws = append(ws, weak.Make(c))
				if c.limit != p.reserve()/4 {
					t.Errorf("cache limit %d, want the reserve shared by 4 Ps, %d", c.limit, p.reserve()/4)
				}
			}
		})
		return caches >= 2
	})
	if p.slots.Len() != 4 || caches < 2 {
		t.Fatalf("%d slots and %d caches after GOMAXPROCS 1 -> 4, want 4 slots and a cache per P that grew (at least 2)", p.slots.Len(), caches)
	}
	runtime.GOMAXPROCS(1)
	debug.SetGCPercent(gc)
	for range 3 {
		perp.Collect(1)
		grow() // P 0 only
	}
	alive := 0
	for _, w := range ws {
		if w.Value() != nil {
			alive++
		}
	}
	if alive > 1 {
		t.Errorf("%d caches of the 4-P run alive after GOMAXPROCS 4 -> 1 and three collections, want at most P 0's", alive)
	}
}

// TestGrowthTargets: which class each kind of growth takes, with the plan
// set by hand. An empty Buffer grows to the plan's class, or to exactly the
// class it needs when most empty Buffers needing that class were written in
// one piece (exact). One that holds bytes grows to the plan's class, but
// to at least a quarter more than it holds, so that one written in many
// small pieces copies each byte a bounded number of times. Without a plan,
// growth doubles.
func TestGrowthTargets(t *testing.T) {
	var p Pool
	st := p.state()
	st.keepCap.Store(1 << 20)
	// planAbove sets the plan to k classes above the class needed.
	planAbove := func(k int) {
		for i := range nClasses {
			st.plan[i].Store(int32(min(i+k, nClasses-1) + 1))
		}
	}
	size := func(n int) int { return sizeclass.Size(sizeclass.Class(n)) }
	// outgrow fills b and writes one byte more; it returns what b held.
	outgrow := func(b *Buffer) (held int) {
		held = b.Cap()
		for b.Len() < b.Cap() {
			b.WriteByte('x')
		}
		b.WriteByte('x')
		return held
	}
	planAbove(2)

	empty := p.Get()
	home := empty.Cap()
	empty.Write(make([]byte, home+100))
	if want := sizeclass.Size(sizeclass.Class(home+100) + 2); empty.Cap() != want {
		t.Errorf("empty Buffer of capacity %d, written %d bytes: capacity %d, want %d (the plan)", home, home+100, empty.Cap(), want)
	}
	p.Put(empty)

	st.exact[sizeclass.Class(home+100)].Store(true)
	one := p.Get()
	one.Write(make([]byte, home+100))
	if want := size(home + 100); one.Cap() != want {
		t.Errorf("empty Buffer of capacity %d, written %d bytes, one piece the rule: capacity %d, want %d (exact)", home, home+100, one.Cap(), want)
	}
	st.exact[sizeclass.Class(home+100)].Store(false)

	pieces := p.Get()
	held := outgrow(pieces)
	if want := sizeclass.Size(sizeclass.Class(held+1) + 2); pieces.Cap() != want {
		t.Errorf("full array of %d, one byte more: capacity %d, want %d (the plan)", held, pieces.Cap(), want)
	}

	// A plan below a quarter more than the Buffer holds: a quarter more.
	planAbove(0)
	held = outgrow(pieces)
	if want := size(held + held/4); pieces.Cap() != want || want <= size(held+1) {
		t.Errorf("Buffer holding %d bytes, one byte more, the plan the class needed: capacity %d, want %d (a quarter more)", held, pieces.Cap(), want)
	}

	// No plan: twice what it holds.
	for i := range nClasses {
		st.plan[i].Store(0)
	}
	held = outgrow(pieces)
	if want := size(2 * held); pieces.Cap() != want {
		t.Errorf("Buffer holding %d bytes, one byte more, no plan: capacity %d, want %d (twice)", held, pieces.Cap(), want)
	}
	p.Put(one)
	p.Put(pieces)
}

// TestPlanGrowthOptimal checks planGrowth against every plan there is, on
// random weights over a few classes, around 4 KiB and around 512 KiB (where
// copies weigh less, see copyWeightOf): the cost of its plan, found by
// following each length's growths through it, is the least of all plans'.
// The cost of a length of class j is the capacity it ends with less its
// length (the middle of its class), plus the weight of copies times the
// capacity of each array it leaves.
func TestPlanGrowthOptimal(t *testing.T) {
	const n = 6
	r := rand.New(rand.NewPCG(3, 4))
	for _, first := range []int{40, 66} { // classes 40 to 45, 66 to 71
		cost := func(st *state, plan []int) float64 {
			c := 0.0
			for j := first; j < first+n; j++ {
				w := st.weight[j]
				for i := first; ; {
					t := plan[i-first]
					size := float64(sizeclass.Size(t))
					if t >= j {
						c += w * (size - mid(j))
						break
					}
					c += w * copyWeightOf(size) * size
					i = t + 1
				}
			}
			return c
		}
		for range 200 {
			var st state
			total := 0.0
			for j := first; j < first+n; j++ {
				if r.IntN(3) > 0 {
					st.weight[j] = r.Float64() * 100
					total += st.weight[j]
				}
			}
			if total == 0 {
				continue
			}
			st.planGrowth(total, first+n-1)
			got := make([]int, n)
			for i := range got {
				got[i] = max(int(st.plan[first+i].Load())-1, first+i) // classes no length needs: any
			}
			// Every plan: plan[i] in [first+i, first+n-1].
			best := math.Inf(1)
			plan := make([]int, n)
			var all func(k int)
			all = func(k int) {
				if k == n {
					best = min(best, cost(&st, plan))
					return
				}
				for t := first + k; t < first+n; t++ {
					plan[k] = t
					all(k + 1)
				}
			}
			all(0)
			if c := cost(&st, got); c > best*(1+1e-9)+1e-9 {
				t.Fatalf("weights %v: plan %v costs %g, the best plan %g", st.weight[first:first+n], got, c, best)
			}
		}
	}
}
