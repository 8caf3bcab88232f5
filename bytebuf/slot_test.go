package bytebuf

import (
	"runtime"
	"runtime/debug"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/reuse-go/reuse/internal/pin"
)

func TestSlotLayout(t *testing.T) {
	if got := unsafe.Sizeof(slot{}); unsafe.Sizeof(uintptr(0)) == 8 && got != 128 {
		t.Errorf("sizeof(slot) = %d, want 128 (two cache lines)", got)
	}
}

// slotBuffer returns the Buffer in the calling goroutine's P's slot. The
// test must run with GOMAXPROCS(1) for the answer to stay true.
func slotBuffer(p *Pool) *Buffer {
	sl := p.slots.Load()
	if sl == nil {
		return nil
	}
	pid := pin.Pin()
	defer pin.Unpin()
	return (*sl)[pid].b
}

// TestSlot pins down what the per-P slot holds: the last Buffer Put, with
// the one it held before moved behind to the sync.Pool rather than lost.
func TestSlot(t *testing.T) {
	if !pin.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
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

// TestSlotRetention pins down the retention contract of the slot: the Buffer
// in it survives collections while the pool is idle, and the next Put moves
// it behind, to the sync.Pool, which releases it within two collections.
func TestSlotRetention(t *testing.T) {
	if !pin.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var freed atomic.Bool
	var p Pool
	c := p.Get() // kept out, to push b out of the slot later
	func() {
		b := p.Get()
		runtime.AddCleanup(b, func(f *atomic.Bool) { f.Store(true) }, &freed)
		p.Put(b) // into the slot
	}()
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if freed.Load() {
		t.Fatal("the Buffer in the slot of an idle pool was collected; the test's premise is wrong")
	}
	p.Put(c) // takes the slot: b goes behind, to the sync.Pool
	deadline := time.Now().Add(5 * time.Second)
	for !freed.Load() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if !freed.Load() {
		t.Error("the Buffer moved behind by a Put was not released by later collections")
	}
	runtime.KeepAlive(&p) // the pool must outlive the check, or its death frees everything
}
