package main

import (
	"bytes"
	"sync"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// obj is a small pooled struct: each op writes a field of the one it got.
type obj struct {
	n int64
	_ [3]int64
}

// limit is what the hooks' Accept keeps: every obj of these loops.
const limit = 1 << 20

// payload is what the bytebuf cases write.
var payload = bytes.Repeat([]byte("0123456789abcdef"), 64<<10/16)

// sink keeps results alive.
var sink int64

// A pair is one case in one layout: base and ours each run n ops and are
// written alike around their pools.
type pair struct{ base, ours func(n int) }

// A layout builds the pairs of every case with its pools held one way.
type layout struct {
	name  string
	pairs func() map[string]pair
}

// Case names, in the order of the table.
var caseNames = []string{
	"aa-syncpool", "aa-pool",
	"pool-ptr", "pool-bytes", "slices-1000", "hooks",
	"bytebuf-100B", "bytebuf-4KiB", "bytebuf-64KiB",
}

var layouts = []layout{
	{"closure", closurePairs},
	{"field", fieldPairs},
	{"var", varPairs},
}

// ---- closures: each pool is a local captured by the ops ----

func closurePairs() map[string]pair {
	m := map[string]pair{}
	syncObj := func() func(int) {
		sp := &sync.Pool{New: func() any { return new(obj) }}
		return func(n int) {
			for range n {
				o := sp.Get().(*obj)
				o.n++
				sp.Put(o)
			}
		}
	}
	poolObj := func() func(int) {
		p := &reuse.Pool[*obj]{New: func() *obj { return new(obj) }}
		return func(n int) {
			for range n {
				o := p.Get()
				o.n++
				p.Put(o)
			}
		}
	}
	m["aa-syncpool"] = pair{syncObj(), syncObj()}
	m["aa-pool"] = pair{poolObj(), poolObj()}
	m["pool-ptr"] = pair{syncObj(), poolObj()}
	{
		sp := &sync.Pool{New: func() any { s := make([]byte, 1024); return &s }}
		p := &reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 1024) }}
		m["pool-bytes"] = pair{
			func(n int) {
				for range n {
					s := sp.Get().(*[]byte)
					(*s)[0]++
					sp.Put(s)
				}
			},
			func(n int) {
				for range n {
					s := p.Get()
					s[0]++
					p.Put(s)
				}
			}}
	}
	{
		sp := &sync.Pool{New: func() any { s := make([]byte, 1000); return &s }}
		sl := &reuse.Slices[byte]{}
		m["slices-1000"] = pair{
			func(n int) {
				for range n {
					ps := sp.Get().(*[]byte)
					s := *ps
					s[0], s[999] = 1, 2
					sp.Put(ps)
				}
			},
			func(n int) {
				for range n {
					s := sl.Get(1000)
					s[0], s[999] = 1, 2
					sl.Put(s)
				}
			}}
	}
	{
		sp := &sync.Pool{New: func() any { return new(obj) }}
		p := &reuse.Pool[*obj]{
			New:    func() *obj { return new(obj) },
			Reset:  func(o *obj) { o.n = 0 },
			Accept: func(o *obj) bool { return o.n < limit },
		}
		m["hooks"] = pair{
			func(n int) {
				for range n {
					o := sp.Get().(*obj)
					o.n++
					if o.n < limit {
						o.n = 0
						sp.Put(o)
					}
				}
			},
			func(n int) {
				for range n {
					o := p.Get()
					o.n++
					p.Put(o)
				}
			}}
	}
	for _, sz := range []struct {
		name string
		n    int
	}{{"100B", 100}, {"4KiB", 4 << 10}, {"64KiB", 64 << 10}} {
		data := payload[:sz.n]
		sp := &sync.Pool{New: func() any { return new(bytes.Buffer) }}
		bp := &bytebuf.Pool{}
		m["bytebuf-"+sz.name] = pair{
			func(n int) {
				s := 0
				for range n {
					b := sp.Get().(*bytes.Buffer)
					b.Write(data)
					s += b.Len()
					b.Reset()
					sp.Put(b)
				}
				sink += int64(s)
			},
			func(n int) {
				s := 0
				for range n {
					b := bp.Get()
					b.Write(data)
					s += b.Len()
					bp.Put(b)
				}
				sink += int64(s)
			}}
	}
	return m
}
