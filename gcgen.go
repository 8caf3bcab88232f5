package reuse

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Pool keeps a per-P slot in front of its sync.Pool: a pin and two plain
// memory accesses, where a sync.Pool operation costs about twice that. A
// sync.Pool forgets its contents over two garbage collections; the slots must
// not keep values longer, so each slot records the collection generation it
// was filled under and is emptied at its P's first use after a collection. An
// idle pool therefore keeps at most one value per P until it is used again.
// (Slices needs no generation: its slot is taken by the next Get of its class
// or moved behind into a sync.Pool by the next Put on its P.)

// gcGen counts garbage collections, from the first use of a Pool on. It
// is read on each Get and Put that uses a shard, and written once per
// collection by gcWatch's finalizer. It is padded off the cache lines of
// variables written often.
var gcGen struct {
	_ [128]byte
	atomic.Uint32
	_ [124]byte
}

// gcWatchOnce starts the watch on the first use of a Pool.
var gcWatchOnce sync.Once

// gcWatch is an object kept unreachable whose finalizer runs after each
// collection that finds it so, and sets itself again: it bumps gcGen once
// per collection without allocating.
type gcWatch struct {
	_ *gcWatch // a pointer, so the object is not batched by the tiny allocator
	_ [8]byte
}

func watchGC() {
	runtime.SetFinalizer(new(gcWatch), onGC)
}

func onGC(w *gcWatch) {
	gcGen.Add(1)
	runtime.SetFinalizer(w, onGC)
}
