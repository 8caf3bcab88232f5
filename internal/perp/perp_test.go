package perp

import (
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

// keepSlot is a slot with reuse.Pool's rule, a second chance: the sweep
// empties a slot unless a value was taken from it since the previous sweep.
type keepSlot struct {
	Base[int]
	val, val2 unsafe.Pointer
	_         [SlotSize - unsafe.Sizeof(Base[int]{}) - 2*unsafe.Sizeof(uintptr(0))]byte
}

func (sl *keepSlot) Sweep(used bool) bool {
	if !used {
		Clear(&sl.val)
		Clear(&sl.val2)
	}
	return Holds(&sl.val) || Holds(&sl.val2)
}

// emptySlot is a slot with bytebuf's rule: the sweep empties every slot.
type emptySlot struct {
	Base[int]
	val unsafe.Pointer
	_   [SlotSize - unsafe.Sizeof(Base[int]{}) - unsafe.Sizeof(uintptr(0))]byte
}

func (sl *emptySlot) Sweep(bool) bool {
	Clear(&sl.val)
	return false
}

type (
	keepSlots  = Slots[keepSlot, int, *keepSlot]
	emptySlots = Slots[emptySlot, int, *emptySlot]
)

// valued is the constraint of the helpers below: a slot with a value word.
type valued[S any] interface {
	Slot[S, int]
	value() *unsafe.Pointer
}

func (sl *keepSlot) value() *unsafe.Pointer  { return &sl.val }
func (sl *emptySlot) value() *unsafe.Pointer { return &sl.val }

// put stores v in the calling goroutine's slot, as a Put does.
func put[S any, P valued[S]](s *Slots[S, int, P], v unsafe.Pointer) {
	for {
		pid := Pin()
		if sl := s.At(pid); sl != nil {
			*sl.value() = v
			Unpin()
			return
		}
		Unpin()
		s.Grow()
	}
}

// take takes what the calling goroutine's slot holds, as a Get does.
func take[S any, P valued[S]](s *Slots[S, int, P]) unsafe.Pointer {
	pid := Pin()
	defer Unpin()
	if sl := s.At(pid); sl != nil {
		return sl.base().Take(sl.value())
	}
	return nil
}

// TestLayout: Base's counters are 64-bit aligned in a slot on 32-bit
// platforms too, and Grow refuses a slot type that breaks the layout.
func TestLayout(t *testing.T) {
	if off := unsafe.Offsetof(Base[int]{}.puts); off%8 != 0 {
		t.Errorf("offsetof(Base.puts) = %d, want a multiple of 8 (atomic loads on 32-bit)", off)
	}
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "SlotSize") {
			t.Errorf("Grow of a slot type of the wrong size: recovered %q, want a panic naming SlotSize", r)
		}
	}()
	var s Slots[shortSlot, int, *shortSlot]
	s.Grow()
}

type shortSlot struct{ Base[int] }

func (*shortSlot) Sweep(bool) bool { return false }

// TestSweepRule applies sweeps by hand and checks the second chance, step
// by step.
func TestSweepRule(t *testing.T) {
	OnOnePNoGC(t)
	var s keepSlots
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))

	// Put, nothing taken: emptied by the next sweep, and the array let go.
	put(&s, x)
	s.sweep()
	if n := s.Len(); n != 0 {
		t.Fatalf("after a sweep of a Slots nothing was taken from: %d slots, want the array let go", n)
	}
	if v := take(&s); v != nil {
		t.Fatalf("after a sweep of a Slots nothing was taken from: Take = %p, want nil", v)
	}

	// Taken from, then refilled: the value survives one sweep, not two.
	put(&s, x)
	if v := take(&s); v != x {
		t.Fatalf("Take = %p, want %p", v, x)
	}
	put(&s, y)
	s.sweep()
	if s.Len() != 1 {
		t.Fatalf("a Slots taken from and holding a value lost its array at the next sweep")
	}
	if v := take(&s); v != y {
		t.Fatalf("after one sweep: Take = %p, want %p (the second chance)", v, y)
	}
	put(&s, x)
	s.sweep() // the Take above counts for this interval
	s.sweep() // nothing taken since
	if n := s.Len(); n != 0 {
		t.Errorf("after two sweeps with nothing taken: %d slots, want none", n)
	}
	if v := take(&s); v != nil {
		t.Errorf("after two sweeps with nothing taken: Take = %p, want nil", v)
	}
}

// TestSweepEmptiesAll: with a rule that empties every slot (bytebuf's), a
// slot taken from since the previous sweep is emptied too, and the array
// goes to the victim, which Grow takes back while something holds it.
func TestSweepEmptiesAll(t *testing.T) {
	OnOnePNoGC(t)
	var s emptySlots
	var idle []bool
	s.OnSweep(func(i bool) bool { idle = append(idle, i); return true })
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))
	put(&s, x)
	if v := take(&s); v != x {
		t.Fatalf("Take = %p, want %p", v, x)
	}
	put(&s, y)
	a := s.First()
	s.sweep()
	if len(idle) != 1 || idle[0] {
		t.Errorf("onSweep saw idle = %v after a sweep of a Slots taken from, want [false]", idle)
	}
	if s.First() != nil {
		t.Errorf("after one sweep: the array is still installed, want it held only as the victim")
	}
	if s.Grow(); s.First() != a {
		t.Fatalf("Grow after the sweep made a new array, want the victim taken back (no collection ran)")
	}
	if v := take(&s); v != nil {
		t.Errorf("after one sweep: Take = %p, want nil (no second chance)", v)
	}
	put(&s, x)
	take(&s)
	s.sweep() // used: the array becomes the victim again
	s.sweep() // no Grow took it back: it stays the victim, held weakly
	if len(idle) != 3 || idle[1] || !idle[2] {
		t.Errorf("onSweep saw idle = %v, want [false false true]", idle)
	}
	// a still holds the array here, as bytebuf's Buffers do: with no
	// collection, the weak pointer still reaches it, and Grow takes it
	// back. TestVictimFreedBySecondCollection checks that nothing holds it
	// once no owner does.
	if s.Grow(); s.First() != a {
		t.Errorf("Grow after two sweeps without a collection did not take back the array still held")
	}
	runtime.KeepAlive(a)
}

// TestVictimFreedBySecondCollection: the array of a Slots whose use ended
// before a collection is freed by the next one, as a sync.Pool's values
// are; the counters of its slots are kept.
func TestVictimFreedBySecondCollection(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var s emptySlots
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.CountGet()
	freed := new(atomic.Bool)
	runtime.AddCleanup(s.First(), func(f *atomic.Bool) { f.Store(true) }, freed)
	Collect(1)
	if s.First() != nil {
		t.Errorf("after the first collection: the array is still installed")
	}
	Collect(1)
	if !freed.Load() {
		t.Errorf("after the second collection: the array of an idle Slots is still alive")
	}
	if g, _ := s.Counters(); g != 1 {
		t.Errorf("Counters: gets = %d, want 1 (kept when the array went)", g)
	}
	Collect(1) // the sweep folds the freed victim's counters
	if g, _ := s.Counters(); g != 1 {
		t.Errorf("Counters after the sweep that found the victim freed: gets = %d, want 1", g)
	}
}

// TestHoldVictimKeepsLateCount: a goroutine pinned to the array as the
// sweep lets it go counts there after the sweep summed it. With the victim
// held (as reuse.Slices holds it when it drops a state), the count is kept
// once the collector has freed the array; a TestSlicesHammer run lost a Put
// or a Get in about one of 25 before.
func TestHoldVictimKeepsLateCount(t *testing.T) {
	OnOnePNoGC(t)
	var s emptySlots
	s.Grow()
	freed := new(atomic.Bool)
	runtime.AddCleanup(s.First(), func(f *atomic.Bool) { f.Store(true) }, freed)
	countAfterLetGo(&s)
	s.HoldVictim()
	Collect(1)
	if freed.Load() {
		t.Fatal("the held victim was freed by the next collection")
	}
	Collect(1)
	if !freed.Load() {
		t.Fatal("the victim outlived the collection after the sweep that held it")
	}
	if g, _ := s.Counters(); g != 1 {
		t.Errorf("Counters: gets = %d, want 1: the count made after the sweep let the array go is lost", g)
	}
}

// countAfterLetGo stands for a goroutine pinned to s's array as the sweep
// lets it go: it has its slot, the sweep lets the array go, and it counts a
// Get there. Not inlined, so that no frame of the test holds the slot.
//
//go:noinline
func countAfterLetGo(s *emptySlots) {
	pid := Pin()
	sl := s.At(pid)
	Unpin() // so that the sweep may lock s.mu: sl stands for a pinned goroutine's
	s.sweep()
	if s.First() != nil {
		panic("the sweep did not let the array go")
	}
	sl.base().CountGet(true)
}

// TestCountersAcrossVictims: counts made before and after the array went to
// the victim and came back add up, and none is counted twice.
func TestCountersAcrossVictims(t *testing.T) {
	OnOnePNoGC(t)
	var s emptySlots
	want := uint64(0)
	for round := range 4 {
		for range 3 {
			s.CountGet()
			want++
		}
		s.sweep() // let go, into the victim
		if g, _ := s.Counters(); g != want {
			t.Fatalf("round %d, the array let go: gets = %d, want %d", round, g, want)
		}
		s.Grow() // taken back
		if g, _ := s.Counters(); g != want {
			t.Fatalf("round %d, the array taken back: gets = %d, want %d", round, g, want)
		}
	}
}

// TestP0StateCarried: when the collector frees the victim, the next array
// starts P 0 with the State the sweep found, so that the owner's state of
// P 0 does not depend on whether collections came back to back.
func TestP0StateCarried(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var s emptySlots
	s.Grow()
	s.First().State = 0x1234
	freed := new(atomic.Bool)
	runtime.AddCleanup(s.First(), func(f *atomic.Bool) { f.Store(true) }, freed)
	Collect(2)
	if !freed.Load() {
		t.Fatal("the array outlived two collections")
	}
	if s.Grow(); s.First().State != 0x1234 {
		t.Errorf("P 0 of the new array: State %#x, want 0x1234", s.First().State)
	}
}

// TestRegistryLetsIdleGo: the sweep holds a Slots only while it has an
// array or a victim, so that an idle pool keeps no registry entry; its next
// Grow registers it again, and the sweep empties its slots as before.
func TestRegistryLetsIdleGo(t *testing.T) {
	Collect(2)
	before := Registered()
	var s keepSlots
	if !OK {
		s.Grow()
		if n := Registered(); n != before {
			t.Fatalf("Registered() = %d after a Grow with no slots, want %d", n, before)
		}
		return
	}
	put(&s, unsafe.Pointer(new(int)))
	if n := Registered(); n != before+1 {
		t.Fatalf("Registered() = %d after the first Grow, want %d", n, before+1)
	}
	Collect(2)
	if n := Registered(); n != before {
		t.Fatalf("Registered() = %d two collections after the Slots went idle, want %d", n, before)
	}
	x := unsafe.Pointer(new(int))
	put(&s, x)
	if n := Registered(); n != before+1 {
		t.Fatalf("Registered() = %d after the next Grow, want %d", n, before+1)
	}
	Collect(1)
	if take(&s) != nil {
		t.Errorf("a value Put after the Slots registered again survived a collection it was not taken in")
	}
}

// TestOnSweepHolds: a Slots with an OnSweep function is swept, also with
// no array, for as long as the function asks, and is let go after.
func TestOnSweepHolds(t *testing.T) {
	Collect(2)
	before := Registered()
	var s keepSlots
	var idle []bool
	rounds := 2
	s.OnSweep(func(i bool) bool { idle = append(idle, i); rounds--; return rounds > 0 })
	if n := Registered(); n != before+1 {
		t.Fatalf("Registered() = %d after OnSweep, want %d", n, before+1)
	}
	Collect(3)
	if len(idle) != 2 || !idle[0] || !idle[1] {
		t.Errorf("the function saw idle = %v over three collections, want [true true]: two runs, the second asking no more", idle)
	}
	if n := Registered(); n != before {
		t.Errorf("Registered() = %d once the function asked no more, want %d", n, before)
	}
}

// TestSweepOnSweep: the function sees whether the Slots was idle.
func TestSweepOnSweep(t *testing.T) {
	OnOnePNoGC(t)
	var idle []bool
	var s keepSlots
	s.OnSweep(func(i bool) bool { idle = append(idle, i); return true })
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.sweep()
	s.sweep()
	if len(idle) != 2 || idle[0] || !idle[1] {
		t.Errorf("OnSweep saw idle = %v, want [false true]", idle)
	}
}

// TestRegistryForgetsDeadSlots: the sweep keeps no Slots alive past two
// collections of disuse, and forgets the ones that were collected.
func TestRegistryForgetsDeadSlots(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	Collect(2)
	before := Registered()
	freed := new(atomic.Int64)
	func() {
		for range 100 {
			s := new(keepSlots)
			runtime.AddCleanup(s, func(f *atomic.Int64) { f.Add(1) }, freed)
			put(s, unsafe.Pointer(new(int)))
		}
	}()
	if n := Registered(); n < before+100 {
		t.Fatalf("Registered() = %d after 100 new Slots, want at least %d", n, before+100)
	}
	Collect(3)
	if n := Registered(); n > before {
		t.Errorf("Registered() = %d after the Slots died and 3 collections, want at most %d", n, before)
	}
	if Collect(1); freed.Load() != 100 {
		t.Errorf("%d of 100 dead Slots freed four collections after their use, want all", freed.Load())
	}
}

// TestGrow: a P beyond the array gets a slot at the next Grow, counters of
// the replaced array are kept, and an array never shrinks.
func TestGrow(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s keepSlots
	s.Grow()
	s.First().gets = 5
	runtime.GOMAXPROCS(3)
	if runtime.GOMAXPROCS(0) != 3 {
		t.Skip("GOMAXPROCS cannot be raised on this platform (js/wasm, wasip1)")
	}
	s.Grow()
	if n := s.Len(); n != 3 {
		t.Fatalf("Len after GOMAXPROCS 1 -> 3 = %d, want 3", n)
	}
	if g, _ := s.Counters(); g != 5 {
		t.Errorf("Counters after growth: gets = %d, want the 5 of the old array", g)
	}
	runtime.GOMAXPROCS(2)
	s.Grow()
	if n := s.Len(); n != 3 {
		t.Errorf("Len after GOMAXPROCS 3 -> 2 = %d, want 3 (never shrunk; the sweep empties unused slots)", n)
	}
}

// TestTakeAnyWord: Take of any value word marks the slot used, which keeps
// both words through the next sweep.
func TestTakeAnyWord(t *testing.T) {
	OnOnePNoGC(t)
	var s keepSlots
	s.Grow()
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))
	fill := func() {
		pid := Pin()
		sl := s.At(pid)
		sl.val, sl.val2 = x, y
		Unpin()
	}
	fill()
	pid := Pin()
	sl := s.At(pid)
	got := sl.Take(&sl.val2)
	Unpin()
	if got != y {
		t.Fatalf("Take = %p, want %p", got, y)
	}
	fill()
	s.sweep() // the Take was a use: the slot keeps its values
	if sl := s.First(); sl == nil || sl.val != x || sl.val2 != y {
		t.Fatalf("after a sweep following a Take of the second word: the values were not kept")
	}
	s.sweep() // nothing taken since
	if s.First() != nil || take(&s) != nil {
		t.Errorf("after a second sweep with nothing taken: the array is still installed, or holds a value")
	}
}

// TestCountersKeepLateAdds: a goroutine still pinned to an array that Grow
// has just replaced may finish its operation there, counter included. Its
// count is not lost: Counters includes the replaced array until a sweep two
// collections later folds it. The counters were folded at the replacement,
// and such a count was lost (TestCountAllAcrossGrowth, in package reuse,
// failed now and then under load: 89 Puts counted of 90).
func TestCountersKeepLateAdds(t *testing.T) {
	OnOnePNoGC(t)
	var s keepSlots
	s.Grow()
	old := s.First()
	runtime.GOMAXPROCS(2)
	if runtime.GOMAXPROCS(0) != 2 {
		t.Skip("GOMAXPROCS cannot be raised on this platform")
	}
	s.Grow() // replaces old
	if s.First() == old {
		t.Fatal("Grow did not replace the array; the test's premise is wrong")
	}
	old.CountPut(true) // the late Put of a goroutine pinned to old
	if _, puts := s.Counters(); puts != 1 {
		t.Errorf("Counters after a late add to the replaced array: %d Puts, want 1", puts)
	}
	s.sweep()
	s.sweep()
	if _, puts := s.Counters(); puts != 1 {
		t.Errorf("Counters after two sweeps: %d Puts, want 1", puts)
	}
	if n := len(s.retired) + len(s.retiring); n != 0 {
		t.Errorf("%d replaced arrays still held after two sweeps, want 0", n)
	}
}

// TestVictimFollowsGOMAXPROCS: after GOMAXPROCS grows, Grow replaces a
// victim with too few slots; after it shrinks, the victim's extra slots do
// no harm.
func TestVictimFollowsGOMAXPROCS(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if runtime.GOMAXPROCS(0) != 2 {
		t.Skip("GOMAXPROCS is fixed here (js/wasm)")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the test's sweeps only
	var s emptySlots
	put(&s, unsafe.Pointer(new(int)))
	s.sweep()
	runtime.GOMAXPROCS(4)
	if s.Grow(); s.Len() != 4 {
		t.Errorf("Grow after GOMAXPROCS grew to 4: %d slots, want 4", s.Len())
	}
	big := s.First()
	put(&s, unsafe.Pointer(new(int)))
	s.sweep()
	runtime.GOMAXPROCS(1)
	if s.Grow(); s.First() != big {
		t.Errorf("Grow after GOMAXPROCS shrank to 1 made a new array, want the victim with 4 slots taken back")
	}
	x := unsafe.Pointer(new(int))
	put(&s, x)
	if v := take(&s); v != x {
		t.Errorf("Take on the array taken back = %p, want %p", v, x)
	}
}

// TestAtNeverPastTheArray: At returns no slot past the end of the array,
// and an array made after GOMAXPROCS fell keeps the slots of the largest
// before it, so that a P that At saw in range stays in range.
func TestAtNeverPastTheArray(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots here")
	}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	if runtime.GOMAXPROCS(0) != 4 {
		t.Skip("GOMAXPROCS stays 1 here (js/wasm)")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var s keepSlots
	at := func(pid int) bool { return s.At(pid) != nil }
	if at(0) {
		t.Fatalf("a slot for P 0 before the first Grow")
	}
	s.Grow()
	if !at(3) || at(4) || at(-1) {
		t.Fatalf("4 Ps: a slot for P 3 %v, for P 4 %v, for P -1 %v; want true, false, false", at(3), at(4), at(-1))
	}
	s.sweep() // nothing held: let go
	if at(0) {
		t.Fatalf("a slot for P 0 after the sweep let the array go")
	}
	Collect(1) // frees the victim: the next Grow makes a new array
	runtime.GOMAXPROCS(2)
	s.Grow()
	if n := s.Len(); n != 4 || !at(3) {
		t.Fatalf("after GOMAXPROCS fell to 2: an array of %d slots, a slot for P 3 %v; want 4, true", n, at(3))
	}
}

// TestCountersDoNotAllocate: Counters, behind every pool's Stats, allocates
// nothing, with arrays replaced and retired too (a scrape of every pool's
// Stats by reuseprom counted one allocation per pool when it built a list of
// the arrays to sum).
func TestCountersDoNotAllocate(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s keepSlots
	s.Grow()
	runtime.GOMAXPROCS(2)
	s.Grow() // retires the array of one slot, where GOMAXPROCS can grow
	s.CountGet()
	if n := testing.AllocsPerRun(100, func() { s.Counters() }); n != 0 {
		t.Errorf("Counters: %v allocations, want 0", n)
	}
}
