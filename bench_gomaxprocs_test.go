package reuse_test

import (
	"runtime"
	"sync"
	"testing"

	"github.com/reuse-go/reuse"
	"github.com/reuse-go/reuse/bytebuf"
)

// BenchmarkProcsGrown measures pools first used at GOMAXPROCS 1 and then run
// in parallel at the benchmark's -cpu: the pattern of a program whose
// GOMAXPROCS the runtime raises after start-up (a container's CPU limit
// raised, Go 1.25 and later). sync.Pool sizes its per-P array at each use;
// the module's per-P slots must grow too, or every P beyond the first pays
// the shared path.
func BenchmarkProcsGrown(b *testing.B) {
	firstUse := func(f func()) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		f()
	}
	b.Run("T=ptr/impl=syncpool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(obj) }}
		firstUse(func() { p.Put(p.Get()) })
		getPut(b, true, func() {
			o := p.Get().(*obj)
			o.a++
			p.Put(o)
		})
	})
	b.Run("T=ptr/impl=reuse", func(b *testing.B) {
		p := reuse.Pool[*obj]{New: func() *obj { return new(obj) }}
		firstUse(func() { p.Put(p.Get()) })
		getPut(b, true, func() {
			o := p.Get()
			o.a++
			p.Put(o)
		})
	})
	b.Run("T=slice/impl=syncpool", func(b *testing.B) {
		p := sync.Pool{New: func() any { s := make([]byte, 1024); return &s }}
		firstUse(func() { p.Put(p.Get()) })
		getPut(b, true, func() {
			s := p.Get().(*[]byte)
			(*s)[0]++
			p.Put(s)
		})
	})
	b.Run("T=slice/impl=reuse", func(b *testing.B) {
		var p reuse.Slices[byte]
		firstUse(func() { p.Put(p.Get(1024)) })
		getPut(b, true, func() {
			s := p.Get(1024)
			s[0]++
			p.Put(s)
		})
	})
	b.Run("T=buffer/impl=reuse", func(b *testing.B) {
		var p bytebuf.Pool
		firstUse(func() { p.Put(p.Get()) })
		getPut(b, true, func() {
			buf := p.Get()
			buf.WriteString("hello")
			p.Put(buf)
		})
	})
}
