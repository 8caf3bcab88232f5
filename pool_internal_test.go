package reuse

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/reuse-go/reuse/internal/pin"
)

func TestPoolShardLayout(t *testing.T) {
	if got := unsafe.Sizeof(poolShard{}); unsafe.Sizeof(uintptr(0)) == 8 && got != 128 {
		t.Errorf("sizeof(poolShard) = %d, want 128 (two cache lines)", got)
	}
	if off := unsafe.Offsetof(poolShard{}.gets); off%8 != 0 {
		t.Errorf("offsetof(poolShard.gets) = %d, want a multiple of 8", off)
	}
}

// TestSlotRetention pins down the retention contract of the per-P slots: a
// value in a slot survives collections while the pool is idle, and the first
// use of the pool after a collection releases it.
func TestSlotRetention(t *testing.T) {
	if !pin.OK {
		t.Skip("no per-P slots under the race detector or TinyGo")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // one P: the test's Puts share its slot
	var freed atomic.Bool
	var p Pool[*[64]byte]
	func() {
		x := new([64]byte)
		runtime.AddCleanup(x, func(f *atomic.Bool) { f.Store(true) }, &freed)
		p.Put(x) // into the slot: the pool was empty
	}()
	for range 3 {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if freed.Load() {
		t.Fatal("the value in the slot of an idle pool was collected; the test's premise is wrong")
	}
	p.Put(new([64]byte)) // first use after the collections: empties the stale slot
	deadline := time.Now().Add(5 * time.Second)
	for !freed.Load() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if !freed.Load() {
		t.Error("the stale slot's value was not released by the first use after a collection")
	}
	runtime.KeepAlive(&p) // the pool must outlive the check, or its death frees everything
}
