package main

import (
	"bytes"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// ---- package variables: the pools and the ops are top-level ----

var (
	vSync      = sync.Pool{New: func() any { return new(obj) }}
	vSync2     = sync.Pool{New: func() any { return new(obj) }}
	vPool      = reuse.Pool[*obj]{New: newObj}
	vPool2     = reuse.Pool[*obj]{New: newObj}
	vSyncBytes = sync.Pool{New: func() any { s := make([]byte, 1024); return &s }}
	vPoolBytes = reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 1024) }}
	vSyncSl    = sync.Pool{New: func() any { s := make([]byte, 1000); return &s }}
	vSlices    reuse.Slices[byte]
	vSyncHooks = sync.Pool{New: func() any { return new(obj) }}
	vPoolHooks = reuse.Pool[*obj]{New: newObj, Reset: resetObj, Accept: acceptObj}
	vSyncBuf   sync.Pool
	vBuf       bytebuf.Pool
)

func init() { vSyncBuf.New = func() any { return new(bytes.Buffer) } }

func varPairs() map[string]pair {
	m := map[string]pair{
		"aa-syncpool": {vSyncObj, vSyncObj2},
		"aa-pool":     {vPoolObj, vPoolObj2},
		"pool-ptr":    {vSyncObj, vPoolObj},
		"pool-bytes":  {vSyncBytesOp, vPoolBytesOp},
		"slices-1000": {vSyncSlicesOp, vSlicesOp},
		"hooks":       {vSyncHooksOp, vPoolHooksOp},
	}
	// One pair of pools for the three sizes, as a program with one buffer
	// pool has: each size runs after the other.
	for _, sz := range []struct {
		name string
		n    int
	}{{"100B", 100}, {"4KiB", 4 << 10}, {"64KiB", 64 << 10}} {
		n := sz.n
		m["bytebuf-"+sz.name] = pair{func(k int) { vSyncBufOp(n, k) }, func(k int) { vBufOp(n, k) }}
	}
	return m
}

func vSyncObj(n int) {
	for range n {
		o := vSync.Get().(*obj)
		o.n++
		vSync.Put(o)
	}
}

func vSyncObj2(n int) {
	for range n {
		o := vSync2.Get().(*obj)
		o.n++
		vSync2.Put(o)
	}
}

func vPoolObj(n int) {
	for range n {
		o := vPool.Get()
		o.n++
		vPool.Put(o)
	}
}

func vPoolObj2(n int) {
	for range n {
		o := vPool2.Get()
		o.n++
		vPool2.Put(o)
	}
}

func vSyncBytesOp(n int) {
	for range n {
		s := vSyncBytes.Get().(*[]byte)
		(*s)[0]++
		vSyncBytes.Put(s)
	}
}

func vPoolBytesOp(n int) {
	for range n {
		s := vPoolBytes.Get()
		s[0]++
		vPoolBytes.Put(s)
	}
}

func vSyncSlicesOp(n int) {
	for range n {
		ps := vSyncSl.Get().(*[]byte)
		s := *ps
		s[0], s[999] = 1, 2
		vSyncSl.Put(ps)
	}
}

func vSlicesOp(n int) {
	for range n {
		s := vSlices.Get(1000)
		s[0], s[999] = 1, 2
		vSlices.Put(s)
	}
}

func vSyncHooksOp(n int) {
	for range n {
		o := vSyncHooks.Get().(*obj)
		o.n++
		if o.n < limit {
			o.n = 0
			vSyncHooks.Put(o)
		}
	}
}

func vPoolHooksOp(n int) {
	for range n {
		o := vPoolHooks.Get()
		o.n++
		vPoolHooks.Put(o)
	}
}

func vSyncBufOp(size, n int) {
	data := payload[:size]
	s := 0
	for range n {
		b := vSyncBuf.Get().(*bytes.Buffer)
		b.Write(data)
		s += b.Len()
		b.Reset()
		vSyncBuf.Put(b)
	}
	sink += int64(s)
}

func vBufOp(size, n int) {
	data := payload[:size]
	s := 0
	for range n {
		b := vBuf.Get()
		b.Write(data)
		s += b.Len()
		vBuf.Put(b)
	}
	sink += int64(s)
}
