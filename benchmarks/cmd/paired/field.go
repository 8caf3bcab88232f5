package main

import (
	"bytes"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// ---- fields: the pools are fields of one struct, the ops its methods ----

type fieldPools struct {
	sp, sp2  sync.Pool // of *obj
	p, p2    reuse.Pool[*obj]
	spb      sync.Pool // of *[]byte, 1 KiB
	pb       reuse.Pool[[]byte]
	sps      sync.Pool // of *[]byte, 1000 B
	sl       reuse.Slices[byte]
	sph      sync.Pool // of *obj, hooks inline
	ph       reuse.Pool[*obj]
	spbuf    [3]sync.Pool // of *bytes.Buffer
	bp       [3]bytebuf.Pool
	bufSizes [3]int
}

func newObj() *obj          { return new(obj) }
func resetObj(o *obj)       { o.n = 0 }
func acceptObj(o *obj) bool { return o.n < limit }

func fieldPairs() map[string]pair {
	f := &fieldPools{bufSizes: [3]int{100, 4 << 10, 64 << 10}}
	f.sp.New = func() any { return new(obj) }
	f.sp2.New = f.sp.New
	f.p.New, f.p2.New = newObj, newObj
	f.spb.New = func() any { s := make([]byte, 1024); return &s }
	f.pb.New = func() []byte { return make([]byte, 1024) }
	f.sps.New = func() any { s := make([]byte, 1000); return &s }
	f.sph.New = f.sp.New
	f.ph.New, f.ph.Reset, f.ph.Accept = newObj, resetObj, acceptObj
	for i := range f.spbuf {
		f.spbuf[i].New = func() any { return new(bytes.Buffer) }
	}
	m := map[string]pair{
		"aa-syncpool": {f.syncObj, f.syncObj2},
		"aa-pool":     {f.poolObj, f.poolObj2},
		"pool-ptr":    {f.syncObj, f.poolObj},
		"pool-bytes":  {f.syncBytes, f.poolBytes},
		"slices-1000": {f.syncSlices, f.slices},
		"hooks":       {f.syncHooks, f.poolHooks},
	}
	for i, name := range []string{"bytebuf-100B", "bytebuf-4KiB", "bytebuf-64KiB"} {
		m[name] = pair{func(n int) { f.syncBuf(i, n) }, func(n int) { f.buf(i, n) }}
	}
	return m
}

func (f *fieldPools) syncObj(n int) {
	for range n {
		o := f.sp.Get().(*obj)
		o.n++
		f.sp.Put(o)
	}
}

func (f *fieldPools) syncObj2(n int) {
	for range n {
		o := f.sp2.Get().(*obj)
		o.n++
		f.sp2.Put(o)
	}
}

func (f *fieldPools) poolObj(n int) {
	for range n {
		o := f.p.Get()
		o.n++
		f.p.Put(o)
	}
}

func (f *fieldPools) poolObj2(n int) {
	for range n {
		o := f.p2.Get()
		o.n++
		f.p2.Put(o)
	}
}

func (f *fieldPools) syncBytes(n int) {
	for range n {
		s := f.spb.Get().(*[]byte)
		(*s)[0]++
		f.spb.Put(s)
	}
}

func (f *fieldPools) poolBytes(n int) {
	for range n {
		s := f.pb.Get()
		s[0]++
		f.pb.Put(s)
	}
}

func (f *fieldPools) syncSlices(n int) {
	for range n {
		ps := f.sps.Get().(*[]byte)
		s := *ps
		s[0], s[999] = 1, 2
		f.sps.Put(ps)
	}
}

func (f *fieldPools) slices(n int) {
	for range n {
		s := f.sl.Get(1000)
		s[0], s[999] = 1, 2
		f.sl.Put(s)
	}
}

func (f *fieldPools) syncHooks(n int) {
	for range n {
		o := f.sph.Get().(*obj)
		o.n++
		if o.n < limit {
			o.n = 0
			f.sph.Put(o)
		}
	}
}

func (f *fieldPools) poolHooks(n int) {
	for range n {
		o := f.ph.Get()
		o.n++
		f.ph.Put(o)
	}
}

func (f *fieldPools) syncBuf(i, n int) {
	data := payload[:f.bufSizes[i]]
	s := 0
	for range n {
		b := f.spbuf[i].Get().(*bytes.Buffer)
		b.Write(data)
		s += b.Len()
		b.Reset()
		f.spbuf[i].Put(b)
	}
	sink += int64(s)
}

func (f *fieldPools) buf(i, n int) {
	data := payload[:f.bufSizes[i]]
	s := 0
	for range n {
		b := f.bp[i].Get()
		b.Write(data)
		s += b.Len()
		f.bp[i].Put(b)
	}
	sink += int64(s)
}
