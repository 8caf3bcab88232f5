package bytebuf

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"testing"
	"time"
	"unsafe"

	idebug "github.com/reuse-go/reuse/internal/debug"
	"github.com/reuse-go/reuse/internal/perp"
)

// liveHeap returns the bytes the last collection found live after a new
// one.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestShelvedArraysAreWeak: the arrays of 16 KiB and more that a pool keeps
// by capacity are reused until the next collection, never count in the live
// heap it finds (from which the collector sets the heap goal), and are
// freed by it; a Get after it makes a new array.
func TestShelvedArraysAreWeak(t *testing.T) {
	if idebug.Enabled {
		t.Skip("the debug build keeps a record of every Buffer handed out")
	}
	const n, size = 32, 64 << 10
	payload := make([]byte, size)
	base := liveHeap()
	// No collection may come between the Puts and the Get that takes an
	// array back: one frees the arrays, and the Get makes a new one (seen
	// once under the race detector at -cpu 16 on a 16-core machine; a
	// runtime.GC() there gives the same failure). The collection the test
	// means comes below, asked for.
	gc := debug.SetGCPercent(-1)
	p := new(Pool)
	bufs := make([]*Buffer, n)
	arrays := make([]uintptr, n) // not pointers: they keep nothing alive
	for i := range bufs {
		bufs[i] = p.Get()
		bufs[i].Write(payload)
		arrays[i] = uintptr(unsafe.Pointer(unsafe.SliceData(bufs[i].Bytes())))
	}
	for _, b := range bufs {
		p.Put(b)
	}
	clear(bufs)

	// Before a collection, a Get that grows takes a kept array back.
	b := p.Get()
	b.Write(payload)
	if a := uintptr(unsafe.Pointer(unsafe.SliceData(b.Bytes()))); !slices.Contains(arrays, a) {
		t.Errorf("a Get of %d bytes before a collection got a new array, want one of the %d kept", size, n)
	}
	p.Put(b)
	debug.SetGCPercent(gc)

	if live := liveHeap(); live > base+n*size/4 {
		t.Errorf("the collection after %d Puts of %d KiB found %d KiB live more than before the pool; want at most %d: the kept arrays count in the heap goal",
			n, size>>10, (live-base)>>10, n*size/4>>10)
	}
	deadline := time.Now().Add(10 * time.Second) // the cleanups run after the collection
	for p.Stats().RetainedBytes >= size && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if r := p.Stats().RetainedBytes; r >= size {
		t.Errorf("RetainedBytes = %d after a collection, want below %d: an array of %d bytes outlived it", r, size, size)
	}
	made := func() uint64 { s := p.Stats(); return s.News + s.GrowNews }
	news := made()
	b = p.Get()
	b.Write(payload)
	if b.Len() != size || made() == news {
		t.Errorf("after the collection, a Get of %d bytes holds %d with %d new arrays; want %d and a new array", size, b.Len(), made()-news, size)
	}
	p.Put(b)
	runtime.KeepAlive(p)
}

// TestSmallClassReach: a Buffer below 16 KiB kept by capacity on one P is
// what a Get of its class finds on another, so that a goroutine moving
// between Ps does not leave one of each class on every P (as a sync.Pool per
// class did, whose private value per P the other Ps never see).
func TestSmallClassReach(t *testing.T) {
	var p Pool
	b := p.newBuffer(1 << 10)
	var got *Buffer
	if ran, skip := perp.Handoff(func() { p.store(b) }, func() { got = p.fromShelves(10, &p.news) }); skip != "" {
		t.Skip(skip)
	} else if !ran {
		t.Fatal("no goroutine ran on a second P within 5s")
	}
	if got != b {
		t.Fatalf("the other P's Get of 1 KiB made %p, want the Buffer kept on the first, %p", got, b)
	}
}
