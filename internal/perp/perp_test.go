package perp

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"unsafe"
)

func TestSlotLayout(t *testing.T) {
	if got := unsafe.Sizeof(Slot{}); got != SlotSize {
		t.Errorf("sizeof(Slot) = %d, want %d", got, SlotSize)
	}
	if off := unsafe.Offsetof(Slot{}.Gets); off%8 != 0 {
		t.Errorf("offsetof(Slot.Gets) = %d, want a multiple of 8 (atomic loads on 32-bit)", off)
	}
	if off := unsafe.Offsetof(Slot{}.Puts); off%8 != 0 {
		t.Errorf("offsetof(Slot.Puts) = %d, want a multiple of 8 (atomic loads on 32-bit)", off)
	}
}

// put stores v in the calling goroutine's slot, as a Put does.
func put(s *Slots, v unsafe.Pointer) {
	a := s.Load()
	if a == nil {
		a = s.Make()
	}
	pid := Pin()
	if sl := At(a, pid); sl != nil {
		sl.Val = v
	}
	Unpin()
}

// take takes what the calling goroutine's slot holds, as a Get does.
func take(s *Slots) unsafe.Pointer {
	a := s.Load()
	pid := Pin()
	defer Unpin()
	if sl := At(a, pid); sl != nil {
		return sl.Take()
	}
	return nil
}

// TestSweepRule applies sweeps by hand and checks the rule of the package
// documentation, step by step.
func TestSweepRule(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s Slots
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))

	// Put, nothing taken: emptied by the next sweep, with the array.
	put(&s, x)
	s.sweep()
	if n := s.Len(); n != 0 {
		t.Fatalf("after a sweep of a Slots nothing was taken from: %d slots, want the array released", n)
	}

	// Taken from, then refilled: the value survives one sweep, not two.
	put(&s, x)
	if v := take(&s); v != x {
		t.Fatalf("Take = %p, want %p", v, x)
	}
	put(&s, y)
	s.sweep()
	if s.Len() != 1 {
		t.Fatalf("a Slots taken from lost its array at the next sweep")
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

// TestSweepShort: a Slots made with MakeShort has no second chance: the
// sweep empties a slot taken from since the previous sweep too, and keeps the
// array (the Slots was not idle).
func TestSweepShort(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	// No collection, so no sweep but the test's own: a real sweep between
	// the test's steps would empty the slot, or report first.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var s Slots
	var idle []bool
	s.MakeShort(func(i bool) { idle = append(idle, i) })
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))
	put(&s, x)
	if v := take(&s); v != x {
		t.Fatalf("Take = %p, want %p", v, x)
	}
	put(&s, y)
	a := s.Load()
	s.sweep()
	if len(idle) != 1 || idle[0] {
		t.Errorf("onSweep saw idle = %v after a sweep of a Slots taken from, want [false]", idle)
	}
	if s.Load() != nil {
		t.Errorf("after one sweep: the array is still installed, want it held only as the victim")
	}
	if b := s.Make(); b != a {
		t.Fatalf("Make after the sweep made a new array, want the victim taken back (no collection ran)")
	}
	if v := take(&s); v != nil {
		t.Errorf("after one sweep: Take = %p, want nil (no second chance)", v)
	}
	put(&s, x)
	take(&s)
	s.sweep() // used: the array becomes the victim again
	s.sweep() // no Make took it back: it stays the victim, held weakly
	if len(idle) != 3 || idle[1] || !idle[2] {
		t.Errorf("onSweep saw idle = %v, want [false false true]", idle)
	}
	// a still holds the array here, as bytebuf's Buffers do: with no
	// collection, the weak pointer still reaches it, and Make takes it
	// back (its sizing state with it). TestShortFreedBySecondCollection
	// checks that nothing holds it once no owner does.
	if b := s.Make(); b != a {
		t.Errorf("Make after two sweeps without a collection did not take back the array still held")
	}
}

// TestShortFreedBySecondCollection: the array of a short Slots whose use
// ended before a collection is freed by the next one, as a sync.Pool's
// values are; the counters of its slots are kept.
func TestShortFreedBySecondCollection(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var s Slots
	s.MakeShort(nil)
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.Count(true)
	freed := new(atomic.Bool)
	runtime.AddCleanup((*Slot)(unsafe.Add(unsafe.Pointer(s.Load()), -SlotSize)), func(f *atomic.Bool) { f.Store(true) }, freed)
	Collect(1)
	if s.Load() != nil {
		t.Errorf("after the first collection: the array is still installed")
	}
	Collect(1)
	if !freed.Load() {
		t.Errorf("after the second collection: the array of a short Slots is still alive")
	}
	if g, _ := s.Counters(); g != 1 {
		t.Errorf("Counters: gets = %d, want 1 (kept when the array went)", g)
	}
}

// TestShortKeepsP0: when the collector frees the array a short Slots' sweep
// let go, the next array starts P 0 with the Aux, Aux2 and Depth (less its
// Stack count) the sweep found, so that the owner's state of P 0 does not
// depend on whether collections came back to back.
func TestShortKeepsP0(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	var s Slots
	s.MakeShort(nil)
	a := s.Load()
	Of(a, 0).Aux, Of(a, 0).Aux2, Of(a, 0).Depth = 0x1234, 0x5678, 7<<8|3
	freed := new(atomic.Bool)
	runtime.AddCleanup(Header(a), func(f *atomic.Bool) { f.Store(true) }, freed)
	Collect(2)
	if !freed.Load() {
		t.Fatal("the array outlived two collections")
	}
	s.Grow()
	sl := Of(s.Load(), 0)
	if sl.Aux != 0x1234 || sl.Aux2 != 0x5678 || sl.Depth != 7<<8 {
		t.Errorf("P 0 of the new array: Aux %#x, Aux2 %#x, Depth %#x; want 0x1234, 0x5678, 0x700", sl.Aux, sl.Aux2, sl.Depth)
	}
}

// TestShortLeavesRegistry: the sweep holds a short Slots only while it has
// an array or a victim, so that an idle pool keeps no registry entry nor
// weak handle; its next Make registers it again, and the sweep empties its
// slots as before.
func TestShortLeavesRegistry(t *testing.T) {
	Collect(2)
	before := Registered()
	var s Slots
	swept := 0
	s.MakeShort(func(bool) { swept++ })
	if OK {
		put(&s, unsafe.Pointer(new(int)))
	}
	if n := Registered(); n != before+1 {
		t.Fatalf("Registered() = %d after MakeShort, want %d", n, before+1)
	}
	Collect(2)
	if n := Registered(); n != before {
		t.Fatalf("Registered() = %d two collections after the short Slots went idle, want %d", n, before)
	}
	if swept == 0 {
		t.Fatalf("onSweep did not run")
	}
	s.MakeShort(nil)
	x := unsafe.Pointer(new(int))
	if OK {
		put(&s, x)
	}
	if n := Registered(); n != before+1 {
		t.Fatalf("Registered() = %d after the next MakeShort, want %d", n, before+1)
	}
	Collect(1)
	if OK && take(&s) != nil {
		t.Errorf("a value Put after the Slots registered again survived a collection")
	}
	if s.Load() != nil {
		t.Errorf("the array is still installed after a collection")
	}
}

// TestSweepOnSweep: the hook sees whether the Slots was idle.
func TestSweepOnSweep(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var idle []bool
	var s Slots
	s.MakeWith(func(i bool) { idle = append(idle, i) })
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.sweep()
	s.sweep()
	if len(idle) != 2 || idle[0] || !idle[1] {
		t.Errorf("OnSweep saw idle = %v, want [false true]", idle)
	}
}

// TestRegistryForgetsDeadSlots: the sweep keeps no Slots alive, and forgets
// the ones that were collected.
func TestRegistryForgetsDeadSlots(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	Collect(2)
	before := Registered()
	func() {
		for range 100 {
			s := new(Slots)
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
}

// TestGrow: a P beyond the array gets a slot at the next Make, counters of
// the replaced array are kept.
func TestGrow(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s Slots
	a := s.Make()
	Of(a, 0).Gets = 5
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

// TestSweepSecondValue: Val2 follows Val's rule. In a Slots whose array is
// kept (as reuse.Slices keeps it), a sweep after an interval with nothing
// taken empties both; Take2 counts as a use, as Take does.
func TestSweepSecondValue(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s Slots
	a := s.MakeKept(func(bool) {})
	x, y := unsafe.Pointer(new(int)), unsafe.Pointer(new(int))
	fill := func() {
		pid := Pin()
		sl := At(a, pid)
		sl.Val, sl.Val2 = x, y
		Unpin()
	}
	held := func() (v, v2 unsafe.Pointer) {
		pid := Pin()
		defer Unpin()
		sl := At(a, pid)
		return sl.Val, sl.Val2
	}

	fill()
	s.sweep()
	if v, v2 := held(); v != nil || v2 != nil {
		t.Errorf("after a sweep with nothing taken: Val %p, Val2 %p; want both emptied", v, v2)
	}

	fill()
	pid := Pin()
	got := At(a, pid).Take2()
	Unpin()
	if got != y {
		t.Fatalf("Take2 = %p, want %p", got, y)
	}
	fill()
	s.sweep() // Take2 was a use: the slot keeps its values
	if v, v2 := held(); v != x || v2 != y {
		t.Errorf("after a sweep following a Take2: Val %p, Val2 %p; want %p, %p kept", v, v2, x, y)
	}
	s.sweep() // nothing taken since
	if v, v2 := held(); v != nil || v2 != nil {
		t.Errorf("after a second sweep with nothing taken: Val %p, Val2 %p; want both emptied", v, v2)
	}
}

// TestCountersKeepLateAdds: a goroutine still pinned to an array that grow
// has just replaced may finish its operation there, counter included. Its
// count is not lost: Counters includes the replaced array until a sweep two
// collections later folds it. The counters were folded at the replacement,
// and such a count was lost (TestCountAllAcrossGrowth, in package reuse,
// failed now and then under load: 89 Puts counted of 90).
func TestCountersKeepLateAdds(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var s Slots
	old := s.Make()
	runtime.GOMAXPROCS(2)
	if runtime.GOMAXPROCS(0) != 2 {
		t.Skip("GOMAXPROCS cannot be raised on this platform")
	}
	s.Grow() // replaces old
	if s.Load() == old {
		t.Fatal("Grow did not replace the array; the test's premise is wrong")
	}
	Add(&Of(old, 0).Puts) // the late Put of a goroutine pinned to old
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

// TestShortVictimFollowsGOMAXPROCS: after GOMAXPROCS grows, Make replaces
// a victim with too few slots; after it shrinks, the victim's extra slots do
// no harm.
func TestShortVictimFollowsGOMAXPROCS(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if runtime.GOMAXPROCS(0) != 2 {
		t.Skip("GOMAXPROCS is fixed here (js/wasm)")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // the test's sweeps only
	var s Slots
	s.MakeShort(nil)
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.sweep()
	runtime.GOMAXPROCS(4)
	if a := s.Make(); Len(a) != 4 {
		t.Errorf("Make after GOMAXPROCS grew to 4: %d slots, want 4", Len(a))
	}
	big := s.Load()
	put(&s, unsafe.Pointer(new(int)))
	take(&s)
	s.sweep()
	runtime.GOMAXPROCS(1)
	if a := s.Make(); a != big {
		t.Errorf("Make after GOMAXPROCS shrank to 1 made a new array, want the victim with 4 slots taken back")
	}
	x := unsafe.Pointer(new(int))
	put(&s, x)
	if v := take(&s); v != x {
		t.Errorf("Take on the array taken back = %p, want %p", v, x)
	}
}

// TestAtServed: Slots.At reads no header for a P that every array has
// served, and never returns a slot past the end of a smaller array made
// after GOMAXPROCS fell.
func TestAtServed(t *testing.T) {
	if !OK {
		t.Skip("no per-P slots here")
	}
	prev := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(prev)
	if runtime.GOMAXPROCS(0) != 4 {
		t.Skip("GOMAXPROCS stays 1 here (js/wasm)")
	}
	var s Slots
	s.Grow()
	a := s.Load()
	if s.served.Load() != 4 || s.At(a, 3) != Of(a, 3) || s.At(a, 4) != nil {
		t.Fatalf("4 Ps: served %d, At(3) %p (want %p), At(4) %p", s.served.Load(), s.At(a, 3), Of(a, 3), s.At(a, 4))
	}
	runtime.GOMAXPROCS(2)
	s.mu.Lock()
	s.arr.Store(nil) // as the sweep of an idle array does
	s.mu.Unlock()
	s.Grow()
	b := s.Load()
	if Len(b) != 2 || s.served.Load() != 2 {
		t.Fatalf("after GOMAXPROCS fell to 2: array of %d, served %d; want 2 and 2", Len(b), s.served.Load())
	}
	if s.At(b, 2) != nil || s.At(b, 3) != nil || s.At(b, 1) != Of(b, 1) {
		t.Fatalf("2 Ps: At(2) %p, At(3) %p, want nil", s.At(b, 2), s.At(b, 3))
	}
	runtime.GOMAXPROCS(4)
	s.Grow() // a larger array again: served stays 2, and At still reaches P 3
	c := s.Load()
	if Len(c) != 4 || s.served.Load() != 2 || s.At(c, 3) != Of(c, 3) {
		t.Fatalf("back at 4 Ps: array of %d, served %d, At(3) %p", Len(c), s.served.Load(), s.At(c, 3))
	}
}
