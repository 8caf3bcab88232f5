package reuse_test

import (
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
)

type debugObj struct{ a [4]int64 }

// BenchmarkDebugCost measures one Get/Put pair. Run it with and without
// -tags reusedebug: without the tag, impl=reuse must match the same benchmark
// before the debug hooks were added (they compile away); with it, the ratio
// to the impl=syncpool sibling is the debug build's cost.
func BenchmarkDebugCost(b *testing.B) {
	b.Run("T=ptr/impl=syncpool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(debugObj) }}
		b.ReportAllocs()
		for b.Loop() {
			o := p.Get().(*debugObj)
			o.a[0]++
			p.Put(o)
		}
	})
	b.Run("T=ptr/impl=reuse", func(b *testing.B) {
		p := reuse.Pool[*debugObj]{New: func() *debugObj { return new(debugObj) }}
		b.ReportAllocs()
		for b.Loop() {
			o := p.Get()
			o.a[0]++
			p.Put(o)
		}
	})
	b.Run("T=slice1KiB/impl=syncpool", func(b *testing.B) {
		p := sync.Pool{New: func() any { s := make([]byte, 0, 1024); return &s }}
		b.ReportAllocs()
		for b.Loop() {
			s := p.Get().(*[]byte)
			*s = append((*s)[:0], 'x')
			p.Put(s)
		}
	})
	b.Run("T=slice1KiB/impl=reuse", func(b *testing.B) {
		p := reuse.Pool[[]byte]{New: func() []byte { return make([]byte, 0, 1024) }}
		b.ReportAllocs()
		for b.Loop() {
			s := p.Get()
			s = append(s[:0], 'x')
			p.Put(s)
		}
	})
	b.Run("T=slice1KiB/impl=slices", func(b *testing.B) {
		var p reuse.Slices[byte]
		b.ReportAllocs()
		for b.Loop() {
			s := p.Get(1024)
			s[0] = 'x'
			p.Put(s)
		}
	})
}
